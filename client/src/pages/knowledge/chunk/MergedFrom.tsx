import { Badge, Box, Button, Popover, Portal, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { LuMerge } from "react-icons/lu";
import { useFormatters } from "../../../format";
import { ChunkMergesDocument, type MergeRecordFragment } from "../../../graphql/gql/graphql";

/**
 * The merge that made this chunk of the document (with `chunkId`) or the document itself (without), shown as
 * "merged from N chunks"; nothing for anything else. The cards of a page share one query of the document's merges.
 */
export function MergedFrom({ documentId, chunkId }: { documentId: string; chunkId?: string }) {
  const { data } = useQuery(ChunkMergesDocument, { variables: { documentId } });
  const merge = data?.chunkMerges.findLast((m) => (chunkId ? m.targetChunkId === chunkId : m.target === "document"));
  return merge ? <MergeSources merge={merge} /> : null;
}

/** A merge's sources, as they were when merged, in a popover. */
function MergeSources({ merge }: { merge: MergeRecordFragment }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Popover.Root positioning={{ placement: "bottom-start" }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <Button size="2xs" variant="subtle" colorPalette="teal" data-testid="merged-from">
          <LuMerge /> {t("merge.mergedFrom", { count: merge.sources.length })}
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width={{ base: "xs", md: "md" }} data-testid="merged-from-sources">
            <Popover.Body p="4">
              <Stack gap="3" maxHeight="80" overflowY="auto">
                <Text fontSize="xs" color="fg.muted">
                  {t("merge.mergedAt", { date: format.dateTime(merge.createdAt) })}
                </Text>
                {merge.sources.map((source, index) => (
                  <Box key={`${source.chunkId}-${index}`} borderStartWidth="2px" borderColor="teal.muted" ps="3" data-testid="merged-from-source">
                    <Badge size="xs" variant="outline" mb="1">
                      {index + 1} · {source.documentName}
                    </Badge>
                    <Text fontSize="sm" whiteSpace="pre-wrap" lineClamp={4}>
                      {source.content}
                    </Text>
                  </Box>
                ))}
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
