import { Badge, Box, Flex, HStack, IconButton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowDown, LuArrowUp, LuX } from "react-icons/lu";
import { useFormatters } from "../../../format";
import type { MergeSourcesQuery } from "../../../graphql/gql/graphql";

export type MergeSourceItem = MergeSourcesQuery["mergeSources"][number];

interface MergeSourceListProps {
  sources: MergeSourceItem[];
  onMove: (index: number, delta: number) => void;
  onRemove: (index: number) => void;
}

/** The chosen chunks in the order their texts are joined, each with its document, to move up or down or leave out. */
export function MergeSourceList({ sources, onMove, onRemove }: MergeSourceListProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Stack gap="2" as="ol" listStyleType="none" data-testid="merge-sources">
      {sources.map((source, index) => (
        <Box as="li" key={source.chunk.id} bg="bg.panel" borderWidth="1px" rounded="l3" px="3" py="2.5" data-testid="merge-source" data-chunk-id={source.chunk.id}>
          <Flex gap="3" align="flex-start">
            <Text fontSize="sm" fontWeight="semibold" color="fg.subtle" minWidth="5" textAlign="end">
              {index + 1}
            </Text>
            <Stack gap="1" flex="1" minWidth="0">
              <HStack gap="2" fontSize="xs" color="fg.muted" minWidth="0">
                <Text truncate fontWeight="medium" title={source.document.name} data-testid="merge-source-document">
                  {t("merge.from", { document: source.document.name, knowledgeBase: source.knowledgeBase.name })}
                </Text>
                <Text flexShrink={0}>· {t("kb.chunk.tokens", { formatted: format.number(source.chunk.tokenCount) })}</Text>
                {!source.chunk.available && (
                  <Badge size="xs" variant="outline" flexShrink={0}>
                    {t("merge.disabled")}
                  </Badge>
                )}
              </HStack>
              <Text fontSize="sm" whiteSpace="pre-wrap" lineClamp={3}>
                {source.chunk.content}
              </Text>
            </Stack>
            <HStack gap="0.5" flexShrink={0}>
              <IconButton size="xs" variant="ghost" aria-label={t("merge.moveUp")} title={t("merge.moveUp")} disabled={index === 0} onClick={() => onMove(index, -1)} data-testid="merge-source-up">
                <LuArrowUp />
              </IconButton>
              <IconButton
                size="xs"
                variant="ghost"
                aria-label={t("merge.moveDown")}
                title={t("merge.moveDown")}
                disabled={index === sources.length - 1}
                onClick={() => onMove(index, 1)}
                data-testid="merge-source-down"
              >
                <LuArrowDown />
              </IconButton>
              <IconButton size="xs" variant="ghost" aria-label={t("merge.remove")} title={t("merge.remove")} onClick={() => onRemove(index)} data-testid="merge-source-remove">
                <LuX />
              </IconButton>
            </HStack>
          </Flex>
        </Box>
      ))}
    </Stack>
  );
}
