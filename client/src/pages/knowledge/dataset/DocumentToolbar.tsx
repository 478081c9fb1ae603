import { Button, Flex, HStack, Input, InputGroup, NativeSelect, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCirclePlay, LuCircleStop, LuSearch, LuTrash2 } from "react-icons/lu";
import { RUN_KEYS, RUN_STATUSES } from "../../../documents/runStatus";
import type { DocumentRowFragment } from "../../../graphql/gql/graphql";
import type { DocumentActions } from "./useDocumentActions";
import type { DocumentList } from "./useDocumentList";

interface DocumentToolbarProps {
  list: DocumentList;
  actions: DocumentActions;
  formatNumber: (value: number) => string;
  onDelete: (documents: DocumentRowFragment[]) => void;
}

/** Above the document table: the bulk actions on the ticked rows (or the total), the status filter and the search. */
export function DocumentToolbar({ list, actions, formatNumber, onDelete }: DocumentToolbarProps) {
  const { t } = useTranslation();
  return (
    <Flex px="4" py="3" gap="3" align="center" wrap="wrap" borderBottomWidth="1px">
      {list.selectedDocuments.length > 0 ? (
        <BulkActions selected={list.selectedDocuments} actions={actions} onDelete={onDelete} />
      ) : (
        <Text fontSize="sm" color="fg.muted" flex="1">
          {list.loaded ? t("kb.dataset.total", { count: list.total, formatted: formatNumber(list.total) }) : ""}
        </Text>
      )}
      <NativeSelect.Root size="sm" width="44">
        <NativeSelect.Field value={list.status} onChange={(event) => list.setStatus(event.target.value)} aria-label={t("kb.dataset.statusFilter")} data-testid="status-filter">
          <option value="">{t("kb.dataset.allStatuses")}</option>
          {RUN_STATUSES.map((run) => (
            <option key={run} value={run}>
              {t(`kb.run.${RUN_KEYS[run]}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <InputGroup startElement={<LuSearch />} width={{ base: "full", sm: "60" }}>
        <Input size="sm" placeholder={t("kb.dataset.search")} value={list.search} onChange={(event) => list.setSearch(event.target.value)} data-testid="document-search" />
      </InputGroup>
    </Flex>
  );
}

function BulkActions({ selected, actions, onDelete }: { selected: DocumentRowFragment[]; actions: DocumentActions; onDelete: (documents: DocumentRowFragment[]) => void }) {
  const { t } = useTranslation();
  const ids = selected.map((document) => document.id);
  return (
    <HStack gap="2" wrap="wrap" flex="1" data-testid="bulk-actions">
      <Text fontSize="sm" fontWeight="medium" me="2">
        {t("kb.dataset.selected", { count: selected.length })}
      </Text>
      <Button size="xs" variant="outline" loading={actions.busy} onClick={() => void actions.run(ids)} data-testid="bulk-run">
        <LuCirclePlay /> {t("kb.dataset.run")}
      </Button>
      <Button size="xs" variant="outline" loading={actions.busy} onClick={() => void actions.cancel(ids)} data-testid="bulk-cancel">
        <LuCircleStop /> {t("kb.dataset.cancel")}
      </Button>
      <Button size="xs" variant="outline" loading={actions.busy} onClick={() => void actions.enable(ids, true)}>
        {t("kb.dataset.enable")}
      </Button>
      <Button size="xs" variant="outline" loading={actions.busy} onClick={() => void actions.enable(ids, false)}>
        {t("kb.dataset.disable")}
      </Button>
      <Button size="xs" variant="outline" colorPalette="red" onClick={() => onDelete(selected)} data-testid="bulk-delete">
        <LuTrash2 /> {t("common.delete")}
      </Button>
    </HStack>
  );
}
