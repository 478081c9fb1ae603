import { Badge, Box, Button, HStack, Link, Popover, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuFileText, LuUnlink } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { RUN, RUN_COLORS, RUN_KEYS } from "../../documents/runStatus";
import { useFormatters } from "../../format";
import type { FileLinkFieldsFragment } from "../../graphql/gql/graphql";

interface LinkBadgeProps {
  link: FileLinkFieldsFragment;
  /** Absent when the user may not unlink. */
  onUnlink?: () => void;
}

/** A knowledge base a file is linked to: its name, with a dot in the colour of the document's parse state; a click tells more. */
export function LinkBadge({ link, onUnlink }: LinkBadgeProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const state = t(`kb.run.${RUN_KEYS[link.run] ?? "unstarted"}`);
  const parsing = link.run === RUN.running;
  return (
    <Popover.Root positioning={{ placement: "bottom-start" }} lazyMount>
      <Popover.Trigger asChild>
        <Badge as="button" size="sm" variant="subtle" cursor="pointer" maxWidth="40" title={`${link.knowledgeBaseName} · ${state}`} data-testid="file-link-badge" data-run={link.run}>
          <Box as="span" boxSize="1.5" rounded="full" bg={`${RUN_COLORS[link.run] ?? "gray"}.solid`} flexShrink={0} />
          <Text as="span" truncate>
            {link.knowledgeBaseName}
          </Text>
        </Badge>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="xs" data-testid="file-link-popover">
            <Popover.Arrow />
            <Popover.Body>
              <Stack gap="3">
                <Stack gap="1">
                  <Text fontWeight="semibold" truncate>
                    {link.knowledgeBaseName}
                  </Text>
                  <HStack gap="2" fontSize="sm">
                    <Badge size="sm" colorPalette={RUN_COLORS[link.run] ?? "gray"} variant="subtle" data-testid="file-link-state">
                      {state}
                    </Badge>
                    {parsing && <Text color="fg.muted">{format.number(Math.round(link.progress * 100))}%</Text>}
                  </HStack>
                </Stack>
                <Stack gap="1.5" fontSize="sm">
                  <Link asChild color="brand.fg">
                    <RouterLink to={`/knowledge/dataset?id=${link.knowledgeBaseId}`} data-testid="file-link-open-kb">
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
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
