import { Checkbox, HStack, Icon, Table, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowDown, LuArrowUp, LuArrowUpDown } from "react-icons/lu";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { FileRow } from "./FileRow";
import type { FileHandlers } from "./FileRowActions";
import type { FileSort, SortColumn } from "./fileSort";
import type { Selection } from "../../hooks/useSelection";

interface FileTableProps {
  files: FileRowFragment[];
  selection: Selection;
  sort: FileSort;
  onSort: (column: SortColumn) => void;
  handlers: FileHandlers;
  actionsOf: (file: FileRowFragment) => ReadonlySet<string>;
}

/** One page of a folder: folders and files with their size, upload date, linked knowledge bases and actions. */
export function FileTable({ files, selection, sort, onSort, handlers, actionsOf }: FileTableProps) {
  const { t } = useTranslation();
  const selectable = files.filter((file) => !file.readOnly);
  const ticked = selectable.filter((file) => selection.has(file.id)).length;
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive data-testid="file-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader width="10">
              <Checkbox.Root
                size="sm"
                colorPalette="brand"
                disabled={selectable.length === 0}
                checked={ticked > 0 && ticked === selectable.length ? true : ticked > 0 ? "indeterminate" : false}
                onCheckedChange={(details) => (details.checked === true ? selection.selectOnly(selectable.map((file) => file.id)) : selection.clear())}
                aria-label={t("file.table.selectAll")}
                data-testid="file-select-all"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
              </Checkbox.Root>
            </Table.ColumnHeader>
            <SortableHeader column="name" label={t("file.table.name")} sort={sort} onSort={onSort} />
            <SortableHeader column="size" label={t("file.table.size")} sort={sort} onSort={onSort} end />
            <SortableHeader column="createdAt" label={t("file.table.uploaded")} sort={sort} onSort={onSort} />
            <Table.ColumnHeader>{t("file.table.knowledgeBases")}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t("file.table.actions")}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {files.map((file) => (
            <FileRow key={file.id} file={file} selected={selection.has(file.id)} onSelect={(on) => selection.toggle(file.id, on)} handlers={handlers} actions={actionsOf(file)} />
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

interface SortableHeaderProps {
  column: SortColumn;
  label: string;
  sort: FileSort;
  onSort: (column: SortColumn) => void;
  end?: boolean;
}

/** A column title that sorts by its column, showing which way when it does. */
function SortableHeader({ column, label, sort, onSort, end }: SortableHeaderProps) {
  const { t } = useTranslation();
  const active = sort.column === column;
  const direction = active ? (sort.descending ? "descending" : "ascending") : "none";
  return (
    <Table.ColumnHeader textAlign={end ? "end" : undefined} aria-sort={direction}>
      <HStack
        as="button"
        gap="1"
        justify={end ? "flex-end" : "flex-start"}
        width="full"
        cursor="pointer"
        color={active ? "fg" : undefined}
        _hover={{ color: "fg" }}
        onClick={() => onSort(column)}
        title={t("file.table.sortBy", { column: label })}
        data-testid={`file-sort-${column}`}
        data-direction={direction}
      >
        <Text>{label}</Text>
        <Icon as={!active ? LuArrowUpDown : sort.descending ? LuArrowDown : LuArrowUp} boxSize="3.5" color={active ? "brand.fg" : "fg.subtle"} />
      </HStack>
    </Table.ColumnHeader>
  );
}
