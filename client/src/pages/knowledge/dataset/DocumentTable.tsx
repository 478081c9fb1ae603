import { Checkbox, Table } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../../format";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { DocumentRow } from "./DocumentRow";
import type { DocumentRowHandlers } from "./DocumentRowActions";
import type { DocumentList } from "./useDocumentList";
import { useDuration } from "./useDuration";

interface DocumentTableProps {
  knowledgeBaseId: string;
  list: DocumentList;
  handlers: DocumentRowHandlers;
}

/** The documents of one page of the list, each with its checkbox, counts, parsing status and actions. */
export function DocumentTable({ knowledgeBaseId, list, handlers }: DocumentTableProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const duration = useDuration();
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive data-testid="document-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader width="10">
              <SelectAllCheckbox list={list} />
            </Table.ColumnHeader>
            <Table.ColumnHeader>{t("kb.dataset.name")}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t("kb.dataset.chunks")}</Table.ColumnHeader>
            <Table.ColumnHeader>{t("kb.field.chunkMethod")}</Table.ColumnHeader>
            <Table.ColumnHeader>{t("kb.dataset.enabled")}</Table.ColumnHeader>
            <Table.ColumnHeader minWidth="48">{t("kb.dataset.status")}</Table.ColumnHeader>
            <Table.ColumnHeader>{t("kb.dataset.began")}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t("kb.dataset.action")}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {list.documents.map((document) => (
            <DocumentRow
              key={document.id}
              knowledgeBaseId={knowledgeBaseId}
              document={document}
              selected={list.selection.has(document.id)}
              onSelect={(on) => list.selection.toggle(document.id, on)}
              format={format}
              duration={duration}
              handlers={handlers}
            />
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function SelectAllCheckbox({ list }: { list: DocumentList }) {
  const { t } = useTranslation();
  const { documents } = list;
  const ticked = list.selectedDocuments.length;
  const allSelected = documents.length > 0 && ticked === documents.length;
  return (
    <Checkbox.Root
      size="sm"
      colorPalette="brand"
      checked={allSelected ? true : ticked > 0 ? "indeterminate" : false}
      onCheckedChange={(details) => (details.checked === true ? list.selection.selectOnly(documents.map((d) => d.id)) : list.selection.clear())}
      aria-label={t("kb.dataset.selectAll")}
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
    </Checkbox.Root>
  );
}
