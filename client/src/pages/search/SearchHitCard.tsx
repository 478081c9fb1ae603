import { Badge, Box, Checkbox, Flex, Icon, Link, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuDatabase, LuExternalLink, LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { documentPath } from "../../components/conversation/CitationMarker";
import type { SearchHitCardFragment } from "../../graphql/gql/graphql";
import { useFixed } from "../../hooks/useFixed";

interface SearchHitCardProps {
  hit: SearchHitCardFragment;
  ticked: boolean;
  onTick: (on: boolean) => void;
}

/** One matching chunk: tickable for merging, its document (opened at the chunk) and knowledge base, the text with the question's terms marked. */
export function SearchHitCard({ hit, ticked, onTick }: SearchHitCardProps) {
  const { t } = useTranslation();
  const fixed = useFixed();
  const { chunk } = hit;
  return (
    <Box bg="bg.panel" borderWidth="1px" borderColor={ticked ? "brand.emphasized" : "border"} rounded="l3" p="4" data-testid="search-hit" data-chunk={chunk.id} data-document={hit.documentName}>
      <Stack gap="2.5">
        <Flex gap="2.5" align="center" minWidth="0">
          <Checkbox.Root checked={ticked} onCheckedChange={(details) => onTick(details.checked === true)} colorPalette="brand" size="sm" data-testid="search-hit-tick">
            <Checkbox.HiddenInput aria-label={t("search.results.tick", { name: hit.documentName })} />
            <Checkbox.Control />
          </Checkbox.Root>
          <Link asChild fontSize="sm" fontWeight="medium" color="fg" minWidth="0" _hover={{ color: "brand.fg" }}>
            <RouterLink to={documentPath(chunk.documentId, { page: chunk.page, chunkId: chunk.id })} target="_blank" data-testid="search-hit-document">
              <Icon as={LuFileText} color="fg.muted" flexShrink={0} />
              <Text as="span" truncate>
                {hit.documentName}
              </Text>
              <Icon as={LuExternalLink} boxSize="3" color="fg.subtle" flexShrink={0} />
            </RouterLink>
          </Link>
          {chunk.page != null && (
            <Badge size="sm" variant="subtle" flexShrink={0}>
              {t("retrievalTest.page", { page: chunk.page })}
            </Badge>
          )}
          <Badge size="sm" variant="outline" flexShrink={1} minWidth="0" maxWidth="40%" title={hit.knowledgeBaseName}>
            <Icon as={LuDatabase} boxSize="3" />
            <Text as="span" truncate>
              {hit.knowledgeBaseName}
            </Text>
          </Badge>
          <Text ms="auto" fontFamily="mono" fontSize="xs" color="fg.muted" flexShrink={0} title={t("search.results.similarity")} data-testid="search-hit-similarity">
            {fixed(hit.similarity)}
          </Text>
        </Flex>
        <Text
          fontSize="sm"
          lineHeight="tall"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          lineClamp={6}
          css={{ "& em": { fontStyle: "normal", bg: "yellow.subtle", color: "yellow.fg", px: "0.5", rounded: "l1", fontWeight: "semibold" } }}
          // The one field rendered as HTML: the server escapes the text and adds only <em> marks around matches.
          dangerouslySetInnerHTML={{ __html: hit.highlight }}
          data-testid="search-hit-text"
        />
      </Stack>
    </Box>
  );
}
