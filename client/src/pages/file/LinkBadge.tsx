import { Badge, Button, HStack, Link, Popover, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuFileText, LuLibrary, LuUnlink } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { RUN, RUN_COLORS, RUN_KEYS } from "../../documents/runStatus";
import { useFormatters } from "../../format";
import { LinkedDocumentStateDocument, type FileLinkFieldsFragment } from "../../graphql/gql/graphql";

interface LinkBadgeProps {
  link: FileLinkFieldsFragment;
  /** Absent when the user may not unlink. */
  onUnlink?: () => void;
}

/** While a linked document parses, its state is read again this often (the popover is open only briefly). */
const PARSING_POLL_MS = 2000;

/** A knowledge base a file is linked to; a click shows the document's parse state, the ways to open it, and unlinking. */
export function LinkBadge({ link, onUnlink }: LinkBadgeProps) {
  return (
    <Popover.Root positioning={{ placement: "bottom-start" }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <Badge as="button" size="sm" variant="subtle" colorPalette="brand" cursor="pointer" maxWidth="40" title={link.name} data-testid="file-link-badge" data-kb={link.name}>
          <LuLibrary />
          <Text as="span" truncate>
            {link.name}
          </Text>
        </Badge>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="xs" data-testid="file-link-popover">
            <Popover.Arrow />
            <Popover.Body>
              <LinkDetails link={link} onUnlink={onUnlink} />
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

function LinkDetails({ link, onUnlink }: LinkBadgeProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [parsing, setParsing] = useState(false);
  // Read again while the document parses (and the popover is open); the knowledge base's page shows it live.
  const state = useQuery(LinkedDocumentStateDocument, { variables: { id: link.documentId }, fetchPolicy: "network-only", pollInterval: parsing ? PARSING_POLL_MS : 0 });
  const document = state.data?.document;
  useEffect(() => setParsing(document?.run === RUN.running), [document?.run]);
  return (
    <Stack gap="3">
      <Stack gap="1">
        <Text fontWeight="semibold" truncate>
          {link.name}
        </Text>
        <HStack gap="2" fontSize="sm" minHeight="5">
          {document ? (
            <>
              <Badge size="sm" colorPalette={RUN_COLORS[document.run] ?? "gray"} variant="subtle" data-testid="file-link-state" data-run={document.run}>
                {t(`kb.run.${RUN_KEYS[document.run] ?? "unstarted"}`)}
              </Badge>
              {parsing && <Text color="fg.muted">{format.number(Math.round(document.progress * 100))}%</Text>}
            </>
          ) : state.loading ? (
            <Spinner size="xs" color="fg.muted" />
          ) : null}
        </HStack>
      </Stack>
      <Stack gap="1.5" fontSize="sm">
        <Link asChild color="brand.fg">
          <RouterLink to={`/knowledge/dataset?id=${link.id}`} data-testid="file-link-open-kb">
            <LuExternalLink /> {t("file.link.openInKnowledgeBase")}
          </RouterLink>
        </Link>
        <Link asChild color="brand.fg">
          <RouterLink to={`/document/${link.documentId}`} target="_blank" data-testid="file-link-open-document">
            <LuFileText /> {t("file.link.openDocument")}
          </RouterLink>
        </Link>
      </Stack>
      {onUnlink && (
        <Button size="xs" variant="outline" colorPalette="red" alignSelf="flex-start" onClick={onUnlink} data-testid="file-unlink">
          <LuUnlink /> {t("file.link.unlink")}
        </Button>
      )}
    </Stack>
  );
}
