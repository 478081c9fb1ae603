import { Badge, Box, Button, HStack, Popover, Portal, Progress, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuHourglass } from "react-icons/lu";
import { useFormatters } from "../../../format";
import type { DocumentRowFragment } from "../../../graphql/gql/graphql";
import { logLines, logText, say } from "./parseLog";
import { RUN, RUN_COLORS, RUN_KEYS } from "../../../documents/runStatus";

/** A document's parsing status: a badge, a live bar while parsing, the log's last line; the whole log on click. */
export function ParsingStatus({ document }: { document: DocumentRowFragment }) {
  const { t } = useTranslation();
  const format = useFormatters();
  // "Parsing" with a place in the queue has not started: it waits for a worker, and says so rather than "0 %".
  const queued = document.run === RUN.running && document.queuePosition != null;
  const running = document.run === RUN.running && !queued;
  const failed = document.run === RUN.failed;
  const lines = logLines(t, document);
  const last = failed && document.failure ? say(t, document.failure) : queued ? t("kb.queue.waiting") : lines[lines.length - 1]?.text;
  const percent = Math.round(Math.max(0, Math.min(1, document.progress)) * 100);

  return (
    <Popover.Root positioning={{ placement: "bottom-start" }} lazyMount>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="sm" height="auto" py="1.5" px="2" mx="-2" width="full" justifyContent="flex-start" textAlign="start" fontWeight="normal" data-testid="parsing-status" data-run={document.run} data-queued={queued || undefined}>
          <Stack gap="1" width="full" minWidth="0">
            <HStack gap="2">
              {queued ? (
                <>
                  <Badge colorPalette="gray" variant="outline" size="sm">
                    <LuHourglass /> {t("kb.queue.queued")}
                  </Badge>
                  <Text fontSize="xs" color="fg.muted" data-testid="queue-position">
                    {document.queuePosition === 1 ? t("kb.queue.next") : t("kb.queue.place", { count: document.queuePosition!, ordinal: true })}
                  </Text>
                </>
              ) : (
                <Badge colorPalette={RUN_COLORS[document.run] ?? "gray"} variant="subtle" size="sm">
                  {t(`kb.run.${RUN_KEYS[document.run] ?? "unstarted"}`)}
                </Badge>
              )}
              {running && (
                <Text fontSize="xs" color="fg.muted" fontFamily="mono">
                  {format.number(percent)}%
                </Text>
              )}
            </HStack>
            {running && (
              <Progress.Root value={percent} size="xs" colorPalette="brand" striped animated width="full" data-testid="parsing-progress">
                <Progress.Track rounded="full">
                  <Progress.Range />
                </Progress.Track>
              </Progress.Root>
            )}
            {last && (
              <Text fontSize="xs" color={failed ? "fg.error" : "fg.muted"} lineClamp={1} maxWidth="56" title={last} data-testid="parsing-message">
                {last}
              </Text>
            )}
          </Stack>
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width={{ base: "xs", md: "md" }}>
            <Popover.Arrow />
            <Popover.Body>
              <Popover.Title fontWeight="semibold" mb="2">
                {t("kb.dataset.log")}
              </Popover.Title>
              {lines.length > 0 ? (
                <Box as="pre" fontSize="xs" fontFamily="mono" whiteSpace="pre-wrap" maxHeight="64" overflowY="auto" color={failed ? "fg.error" : "fg.muted"} data-testid="parsing-log">
                  {logText(lines)}
                </Box>
              ) : (
                <Text fontSize="sm" color="fg.muted">
                  {t("kb.dataset.noLog")}
                </Text>
              )}
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
