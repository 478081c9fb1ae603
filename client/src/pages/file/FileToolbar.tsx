import { Button, Flex, HStack, Input, InputGroup, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFolderInput, LuLink, LuSearch, LuTrash2 } from "react-icons/lu";
import { useFormatters } from "../../format";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { Breadcrumbs } from "./Breadcrumbs";
import { FILE_ACTION } from "./fileActions";
import type { FileHandlers } from "./FileRowActions";
import type { FileList } from "./useFileList";

interface FileToolbarProps {
  list: FileList;
  handlers: FileHandlers;
  actionsOf: (file: FileRowFragment) => ReadonlySet<string>;
}

/** Above the table: the way to the open folder, the search, and the bulk actions on the ticked rows (or the count). */
export function FileToolbar({ list, handlers, actionsOf }: FileToolbarProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const selected = list.files.filter((file) => list.selection.has(file.id));
  // A bulk action is offered when the server allows it on every ticked row.
  const allMay = (action: string) => selected.length > 0 && selected.every((file) => actionsOf(file).has(action));
  return (
    <>
      <Flex px="4" pt="3" pb="2" gap="3" align="center" wrap="wrap" justify="space-between">
        <Breadcrumbs path={list.path} onOpen={list.openFolder} />
        <InputGroup startElement={<LuSearch />} width={{ base: "full", sm: "64" }}>
          <Input size="sm" placeholder={t("file.search")} value={list.search} onChange={(event) => list.setSearch(event.target.value)} data-testid="file-search" />
        </InputGroup>
      </Flex>
      <Flex px="4" pb="3" minHeight="10" gap="2" align="center" wrap="wrap" borderBottomWidth="1px">
        {selected.length > 0 ? (
          <HStack gap="2" wrap="wrap" data-testid="file-bulk-actions">
            <Text fontSize="sm" fontWeight="medium" me="2">
              {t("file.bulk.selected", { count: selected.length })}
            </Text>
            {allMay(FILE_ACTION.move) && (
              <Button size="xs" variant="outline" onClick={() => handlers.move(selected)} data-testid="file-bulk-move">
                <LuFolderInput /> {t("file.menu.move")}
              </Button>
            )}
            {allMay(FILE_ACTION.link) && (
              <Button size="xs" variant="outline" onClick={() => handlers.link(selected)} data-testid="file-bulk-link">
                <LuLink /> {t("file.menu.link")}
              </Button>
            )}
            {allMay(FILE_ACTION.delete) && (
              <Button size="xs" variant="outline" colorPalette="red" onClick={() => handlers.delete(selected)} data-testid="file-bulk-delete">
                <LuTrash2 /> {t("common.delete")}
              </Button>
            )}
            <Button size="xs" variant="ghost" onClick={list.selection.clear} data-testid="file-bulk-clear">
              {t("file.bulk.clear")}
            </Button>
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted" data-testid="file-total">
            {list.loaded ? t("file.total", { count: list.total, formatted: format.number(list.total) }) : ""}
          </Text>
        )}
      </Flex>
    </>
  );
}
