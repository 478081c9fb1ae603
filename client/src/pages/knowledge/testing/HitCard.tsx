import { Badge, Box, Button, Flex, Grid, HStack, Icon, Link, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import type { RetrievalHitCardFragment } from "../../../graphql/gql/graphql";
import { useFixed } from "../../../hooks/useFixed";

/** Past this many characters a hit starts folded to a few lines. */
const FOLD_AFTER = 900;

function Similarity({ kind, label, value, strong }: { kind: string; label: string; value: number; strong?: boolean }) {
  const fixed = useFixed();
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <Stack gap="1" minWidth="0" data-testid="hit-similarity" data-kind={kind} data-value={value}>
      <HStack justify="space-between" gap="2" align="baseline">
        <Text fontSize="xs" color="fg.muted" truncate title={label}>
          {label}
        </Text>
        <Text fontFamily="mono" fontSize="sm" fontWeight={strong ? "semibold" : "medium"} color={strong ? "brand.fg" : "fg"} data-testid="hit-similarity-value">
          {fixed(value)}
        </Text>
      </HStack>
      <Box height="1" rounded="full" bg="bg.emphasized" overflow="hidden" aria-hidden>
        <Box height="full" width={`${percent}%`} rounded="full" bg={strong ? "brand.solid" : "fg.subtle"} />
      </Box>
    </Stack>
  );
}

interface HitCardProps {
  hit: RetrievalHitCardFragment;
  rank: number;
  reranked: boolean;
}

/** One retrieved chunk: where it comes from, the text with the question's terms marked, and its three similarities. */
export function HitCard({ hit, rank, reranked }: HitCardProps) {
  const { t } = useTranslation();
  const [unfolded, setUnfolded] = useState(false);
  const { chunk } = hit;
  const foldable = hit.highlight.length > FOLD_AFTER;
  const documentPath = `/document/${chunk.documentId}?${chunk.page != null ? `page=${chunk.page}&` : ""}chunk=${chunk.id}`;

  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" p="4" data-testid="retrieval-hit" data-document={hit.documentName}>
      <Stack gap="3">
        <Flex gap="2" align="center" minWidth="0">
          <Text fontFamily="mono" fontSize="xs" color="fg.subtle" flexShrink={0} data-testid="hit-rank">
            {rank}
          </Text>
          <Link asChild fontSize="sm" fontWeight="medium" color="fg" minWidth="0" _hover={{ color: "brand.fg" }}>
            <RouterLink to={documentPath} target="_blank" title={t("retrievalTest.openDocument", { name: hit.documentName })} data-testid="hit-document">
              <Icon as={LuFileText} color="fg.muted" flexShrink={0} />
              <Text as="span" truncate>
                {hit.documentName}
              </Text>
              <Icon as={LuExternalLink} boxSize="3" color="fg.subtle" flexShrink={0} />
            </RouterLink>
          </Link>
          {chunk.page != null && (
            <Badge size="sm" variant="subtle" flexShrink={0} data-testid="hit-page">
              {t("retrievalTest.page", { page: chunk.page })}
            </Badge>
          )}
          {chunk.kind !== "text" && (
            <Badge size="sm" variant="outline" flexShrink={0}>
              {t(`kb.chunk.kind.${chunk.kind}`, { defaultValue: chunk.kind })}
            </Badge>
          )}
        </Flex>

        <Box>
          <Text
            fontSize="sm"
            lineHeight="tall"
            whiteSpace="pre-wrap"
            wordBreak="break-word"
            lineClamp={foldable && !unfolded ? 8 : undefined}
            css={{ "& em": { fontStyle: "normal", bg: "yellow.subtle", color: "yellow.fg", px: "0.5", rounded: "l1", fontWeight: "semibold" } }}
            // The one field rendered as HTML: the server escapes the text and adds only <em> marks around matches.
            dangerouslySetInnerHTML={{ __html: hit.highlight }}
            data-testid="hit-text"
          />
          {foldable && (
            <Button variant="plain" size="xs" px="0" color="brand.fg" onClick={() => setUnfolded((open) => !open)} aria-expanded={unfolded}>
              {unfolded ? t("retrievalTest.showLess") : t("retrievalTest.showMore")}
            </Button>
          )}
        </Box>

        {chunk.keywords.length > 0 && (
          <HStack gap="1.5" wrap="wrap">
            {chunk.keywords.map((keyword) => (
              <Badge key={keyword} size="sm" variant="subtle" colorPalette="brand">
                {keyword}
              </Badge>
            ))}
          </HStack>
        )}

        <Grid templateColumns={{ base: "1fr", sm: "repeat(3, minmax(0, 1fr))" }} gap={{ base: "2", sm: "5" }} pt="3" borderTopWidth="1px" borderColor="border.muted">
          <Similarity kind="hybrid" label={reranked ? t("retrievalTest.hybridRerank") : t("retrievalTest.hybrid")} value={hit.similarity} strong />
          <Similarity kind="term" label={t("retrievalTest.term")} value={hit.termSimilarity} />
          <Similarity kind="vector" label={t("retrievalTest.vector")} value={hit.vectorSimilarity} />
        </Grid>
      </Stack>
    </Box>
  );
}
