import { Badge, Checkbox, HStack, Icon, Link, Table, Text, Wrap } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuLock } from "react-icons/lu";
import { formatBytes } from "../../documents/documentTransfer";
import { useFormatters } from "../../format";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { FILE_ACTION, isFolder } from "./fileActions";
import { fileIconOf } from "./fileIcon";
import { LinkBadge } from "./LinkBadge";
import { FileRowActions, type FileHandlers } from "./FileRowActions";

interface FileRowProps {
  file: FileRowFragment;
  selected: boolean;
  onSelect: (on: boolean) => void;
  handlers: FileHandlers;
  actions: ReadonlySet<string>;
}

/** A folder or a file: name with its type's icon, size, upload date, linked knowledge bases, menu. */
export function FileRow({ file, selected, onSelect, handlers, actions }: FileRowProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const canUnlink = actions.has(FILE_ACTION.link);
  return (
    <Table.Row data-testid="file-row" data-name={file.name} data-folder={isFolder(file) || undefined} data-selected={selected || undefined}>
      <Table.Cell>
        <Checkbox.Root size="sm" colorPalette="brand" checked={selected} disabled={file.readOnly} onCheckedChange={(details) => onSelect(details.checked === true)} aria-label={t("file.table.select", { name: file.name })} data-testid="file-select">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
        </Checkbox.Root>
      </Table.Cell>
      <Table.Cell maxWidth="80">
        <HStack gap="2.5" minWidth="0">
          <Icon as={fileIconOf(file.name, isFolder(file), file.readOnly)} color={isFolder(file) ? "brand.fg" : "fg.subtle"} flexShrink={0} boxSize="4.5" />
          <Link as="button" fontWeight="medium" color="fg" _hover={{ color: "brand.fg" }} onClick={() => handlers.open(file)} title={file.name} minWidth="0" data-testid="file-name">
            <Text truncate>{file.name}</Text>
          </Link>
          {file.readOnly && (
            <Badge size="xs" variant="outline" flexShrink={0} title={t("file.readOnlyHint")} data-testid="file-read-only">
              <LuLock /> {t("file.readOnly")}
            </Badge>
          )}
        </HStack>
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap" color="fg.muted" fontSize="sm">
        {isFolder(file) && file.size === 0 ? "—" : formatBytes(file.size, format.number)}
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap" color="fg.muted" fontSize="sm">
        {format.dateTime(file.createdAt)}
      </Table.Cell>
      <Table.Cell maxWidth="72">
        {file.knowledgeBases.length > 0 ? (
          <Wrap gap="1">
            {file.knowledgeBases.map((link) => (
              <LinkBadge key={link.documentId} link={link} onUnlink={canUnlink ? () => handlers.unlink(file, link) : undefined} />
            ))}
          </Wrap>
        ) : (
          <Text color="fg.subtle">—</Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">
        <FileRowActions file={file} actions={actions} handlers={handlers} />
      </Table.Cell>
    </Table.Row>
  );
}
