import { Badge, Checkbox, HStack, Icon, Link, Stack, Switch, Table, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { formatBytes } from "../../../documents/documentTransfer";
import { RUN } from "../../../documents/runStatus";
import type { useFormatters } from "../../../format";
import type { DocumentRowFragment } from "../../../graphql/gql/graphql";
import { DocumentRowActions, type DocumentRowHandlers } from "./DocumentRowActions";
import { ParsingStatus } from "./ParsingStatus";

interface DocumentRowProps {
  knowledgeBaseId: string;
  document: DocumentRowFragment;
  selected: boolean;
  onSelect: (on: boolean) => void;
  format: ReturnType<typeof useFormatters>;
  duration: (seconds: number) => string;
  handlers: DocumentRowHandlers;
}

const chunksLinkOf = (knowledgeBaseId: string, document: DocumentRowFragment) => `/knowledge/dataset/chunk?id=${knowledgeBaseId}&doc=${document.id}`;

/** One document in the table: name and size, chunk count, chunk method, enabled switch, parsing status, when it began. */
export function DocumentRow({ knowledgeBaseId, document, selected, onSelect, format, duration, handlers }: DocumentRowProps) {
  const { t } = useTranslation();
  const running = document.run === RUN.running;
  return (
    <Table.Row data-testid="document-row" data-selected={selected || undefined}>
      <Table.Cell>
        <Checkbox.Root size="sm" colorPalette="brand" checked={selected} onCheckedChange={(details) => onSelect(details.checked === true)} aria-label={document.name}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
        </Checkbox.Root>
      </Table.Cell>
      <Table.Cell maxWidth="72">
        <HStack gap="2.5" minWidth="0">
          <Icon as={LuFileText} color="fg.subtle" flexShrink={0} />
          <Stack gap="0" minWidth="0">
            <Link asChild fontWeight="medium" color="fg" _hover={{ color: "brand.fg" }}>
              <RouterLink to={`/document/${document.id}`} target="_blank" title={document.name} data-testid="document-name">
                <Text truncate>{document.name}</Text>
              </RouterLink>
            </Link>
            <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap" title={t("kb.dataset.uploaded")}>
              {formatBytes(document.size, format.number)} · {format.dateTime(document.createdAt)}
            </Text>
          </Stack>
        </HStack>
      </Table.Cell>
      <Table.Cell textAlign="end">
        <Link asChild color="brand.fg" fontWeight="medium" title={t("kb.dataset.viewChunks")}>
          <RouterLink to={chunksLinkOf(knowledgeBaseId, document)} data-testid="document-chunks">
            {format.number(document.chunkCount)}
          </RouterLink>
        </Link>
      </Table.Cell>
      <Table.Cell>
        <Badge variant="outline" size="sm" whiteSpace="nowrap">
          {t(`chunkMethods.${document.chunkMethod}.label`, { defaultValue: document.chunkMethod })}
        </Badge>
      </Table.Cell>
      <Table.Cell>
        <Switch.Root size="sm" colorPalette="brand" checked={document.enabled} onCheckedChange={(details) => void handlers.enable([document.id], details.checked)} aria-label={t("kb.dataset.enabled")} data-testid="document-enabled">
          <Switch.HiddenInput />
          <Switch.Control />
        </Switch.Root>
      </Table.Cell>
      <Table.Cell minWidth="48" maxWidth="64">
        <ParsingStatus document={document} />
      </Table.Cell>
      <Table.Cell fontSize="xs" color="fg.muted" whiteSpace="nowrap">
        {document.processBeginAt ? (
          <Stack gap="0">
            <Text>{format.dateTime(document.processBeginAt)}</Text>
            {!running && document.processDuration > 0 && <Text color="fg.subtle">{duration(document.processDuration)}</Text>}
          </Stack>
        ) : (
          "—"
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">
        <DocumentRowActions document={document} chunksLink={chunksLinkOf(knowledgeBaseId, document)} handlers={handlers} />
      </Table.Cell>
    </Table.Row>
  );
}
