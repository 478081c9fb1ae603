import { Badge, Box, Button, Center, Flex, Grid, HStack, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCombine } from "react-icons/lu";
import { useNavigate } from "react-router-dom";
import { LoadFailed } from "../../components/LoadFailed";
import { Pager } from "../../components/Pager";
import { useFormatters } from "../../format";
import type { SearchChunksQuery, SearchFacetFieldsFragment } from "../../graphql/gql/graphql";
import { SearchHitCard } from "./SearchHitCard";
import { mergeAddress } from "../../documents/chunkMerge";
import { CHUNK_PAGE_SIZE, toggleTicked, type ChunkFilters } from "./searchState";

type ChunkResult = SearchChunksQuery["searchChunks"];

interface FacetListProps {
  title: string;
  all: string;
  facets: SearchFacetFieldsFragment[];
  chosen: string | null;
  onChoose: (id: string | null) => void;
  testId: string;
}

/** A filter: "all" and each choice with how many matching chunks it holds. */
function FacetList({ title, all, facets, chosen, onChoose, testId }: FacetListProps) {
  const format = useFormatters();
  const row = (id: string | null, label: string, count: number | null) => {
    const active = chosen === id;
    return (
      <Button
        key={id ?? "all"}
        variant={active ? "subtle" : "ghost"}
        colorPalette={active ? "brand" : "gray"}
        size="sm"
        justifyContent="space-between"
        width="full"
        fontWeight={active ? "semibold" : "normal"}
        onClick={() => onChoose(id)}
        aria-pressed={active}
        data-testid={`${testId}-option`}
        data-active={active || undefined}
      >
        <Text as="span" truncate title={label}>
          {label}
        </Text>
        {count !== null && (
          <Badge size="sm" variant="subtle" rounded="full" flexShrink={0}>
            {format.number(count)}
          </Badge>
        )}
      </Button>
    );
  };
  return (
    <Stack gap="1" data-testid={testId}>
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide" px="2">
        {title}
      </Text>
      {row(null, all, null)}
      {facets.map((facet) => row(facet.id, facet.name, facet.count))}
    </Stack>
  );
}

interface SearchResultsProps {
  /** The unfiltered search's first page: the filters' choices and counts. */
  facets: ChunkResult | undefined;
  result: ChunkResult | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  filters: ChunkFilters;
  onFilters: (filters: ChunkFilters) => void;
  page: number;
  onPage: (page: number) => void;
  ticked: string[];
  onTicked: (ticked: string[]) => void;
}

/** The matching chunks of a search: filters by knowledge base and document, the ticked chunks' merge, the list and its pages. */
export function SearchResults({ facets, result, loading, error, onRetry, filters, onFilters, page, onPage, ticked, onTicked }: SearchResultsProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigate = useNavigate();
  const documents = (facets?.documents ?? []).filter((d) => !filters.knowledgeBaseId || d.knowledgeBaseId === filters.knowledgeBaseId);

  return (
    <Grid templateColumns={{ base: "1fr", md: "220px minmax(0, 1fr)" }} gap="5" alignItems="start">
      <Stack gap="5" position={{ md: "sticky" }} top="4" data-testid="search-filters">
        {(facets?.knowledgeBases.length ?? 0) > 1 && (
          <FacetList
            title={t("search.filters.knowledgeBases")}
            all={t("search.filters.allKnowledgeBases")}
            facets={facets!.knowledgeBases}
            chosen={filters.knowledgeBaseId}
            onChoose={(knowledgeBaseId) => onFilters({ knowledgeBaseId, documentId: null })}
            testId="search-kb-filter"
          />
        )}
        {documents.length > 0 && (
          <FacetList
            title={t("search.filters.documents")}
            all={t("search.filters.allDocuments")}
            facets={documents}
            chosen={filters.documentId}
            onChoose={(documentId) => onFilters({ ...filters, documentId })}
            testId="search-document-filter"
          />
        )}
      </Stack>

      <Stack gap="3" minWidth="0">
        <Flex gap="3" align="center" justify="space-between" wrap="wrap">
          <Text fontSize="sm" color="fg.muted" data-testid="search-total">
            {result ? t("search.results.total", { count: result.total, formatted: format.number(result.total), ms: Math.round(result.retrievalMs) }) : "\u00a0"}
          </Text>
          <HStack gap="2">
            {ticked.length > 0 && (
              <Button size="xs" variant="ghost" onClick={() => onTicked([])} data-testid="search-untick">
                {t("search.results.untick")}
              </Button>
            )}
            <Button size="sm" variant="outline" colorPalette="brand" disabled={ticked.length === 0} onClick={() => navigate(mergeAddress(ticked))} data-testid="search-merge">
              <LuCombine /> {t("search.results.merge", { count: ticked.length })}
            </Button>
          </HStack>
        </Flex>

        {error ? (
          <LoadFailed error={error} onRetry={onRetry} />
        ) : loading && !result ? (
          <Stack gap="3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height="28" rounded="l3" />
            ))}
          </Stack>
        ) : result && result.hits.length === 0 ? (
          <Center py="12" flexDirection="column" gap="1" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="search-no-results">
            <Text fontWeight="medium">{t("search.results.none")}</Text>
            <Text fontSize="sm" color="fg.muted">
              {t("search.results.noneHint")}
            </Text>
          </Center>
        ) : (
          <Box opacity={loading ? 0.6 : 1} transition="opacity 0.15s">
            <Stack gap="3" data-testid="search-hits">
              {result?.hits.map((hit) => (
                <SearchHitCard key={hit.chunk.id} hit={hit} ticked={ticked.includes(hit.chunk.id)} onTick={(on) => onTicked(toggleTicked(ticked, hit.chunk.id, on))} />
              ))}
            </Stack>
          </Box>
        )}
        {result && <Pager page={page} pageSize={CHUNK_PAGE_SIZE} total={result.total} onPage={onPage} />}
      </Stack>
    </Grid>
  );
}
