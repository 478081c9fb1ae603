import { Box, Button, Center, Container, Heading, HStack, Icon, Spinner, Stack, Text } from "@chakra-ui/react";
import { skipToken, useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuDatabase, LuHistory, LuPlus, LuSearch } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { CreateKnowledgeBaseDialog } from "../../components/CreateKnowledgeBaseDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import { SearchChunksDocument, SearchKnowledgeBasesDocument, StartSearchDocument } from "../../graphql/gql/graphql";
import { SearchAnswer } from "./SearchAnswer";
import { SearchBox } from "./SearchBox";
import { SearchHistory } from "./SearchHistory";
import { SearchResults } from "./SearchResults";
import { chunkQueryInput, LAST_KNOWLEDGE_BASES_KEY, NO_FILTERS, rememberedKnowledgeBases, sameSearch, type ChunkFilters, type SearchParams } from "./searchState";
import { useSearchAnswer } from "./useSearchAnswer";

/**
 * `/search`: a question over the knowledge bases the user chooses (the last choice remembered). The matching chunks
 * come first (retrieval only); the summary answer streams above them, with citations, related questions and a mind
 * map; every search is kept, and `?record=<id>` shows a kept one again as it was stored.
 */
export default function SearchPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const recordId = params.get("record");
  const knowledgeBases = useQuery(SearchKnowledgeBasesDocument);
  const choices = knowledgeBases.data?.knowledgeBases.items ?? [];
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [draft, setDraft] = useState("");
  const [active, setActive] = useState<SearchParams | null>(null);
  const [filters, setFilters] = useState<ChunkFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [ticked, setTicked] = useState<string[]>([]);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [startSearch, starting] = useMutation(StartSearchDocument);
  // While a new search is being kept, the previous one's answer is not shown; if keeping it fails, no answer is.
  const [awaiting, setAwaiting] = useState(false);
  const [startFailed, setStartFailed] = useState(false);
  const answer = useSearchAnswer(awaiting || startFailed ? null : recordId);

  // The remembered knowledge bases, once the list says which still exist.
  useEffect(() => {
    if (chosen === null && knowledgeBases.data) setChosen(rememberedKnowledgeBases(window.localStorage.getItem(LAST_KNOWLEDGE_BASES_KEY), choices.map((kb) => kb.id)));
  }, [chosen, knowledgeBases.data, choices]);

  function choose(ids: string[]) {
    setChosen(ids);
    window.localStorage.setItem(LAST_KNOWLEDGE_BASES_KEY, JSON.stringify(ids));
  }

  function show(search: SearchParams) {
    setActive(search);
    setDraft(search.question);
    setFilters(NO_FILTERS);
    setPage(1);
    setTicked([]);
  }

  // Back to the bare address (the browser's back button): the landing again.
  useEffect(() => {
    setStartFailed(false);
    if (recordId === null && !awaiting) setActive(null);
  }, [recordId]); // eslint-disable-line react-hooks/exhaustive-deps

  // A kept search opened by its address (history, my space, a reload) is shown with the question it was asked.
  const record = answer.record;
  useEffect(() => {
    if (!record) return;
    const kept = { question: record.question, knowledgeBaseIds: record.knowledgeBaseIds, documentIds: record.documentIds ?? null };
    if (!active || !sameSearch(active, kept)) show(kept);
    // Only a different record changes what is shown; `active` changing is this page's own doing.
  }, [record?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  async function run(question: string, knowledgeBaseIds: string[]) {
    const search = { question: question.trim(), knowledgeBaseIds, documentIds: null };
    show(search);
    setAwaiting(true);
    setStartFailed(false);
    try {
      const { data } = await startSearch({ variables: { input: search } });
      if (data) setParams({ record: data.startSearch.id });
    } catch (error) {
      setStartFailed(true);
      notify.error(describeError(error, i18n));
    } finally {
      setAwaiting(false);
    }
  }

  // The unfiltered first page gives the filters their choices and counts; the shown page may be narrowed by them.
  const facets = useQuery(SearchChunksDocument, active ? { variables: { input: chunkQueryInput(active, NO_FILTERS, 1) } } : skipToken);
  const chunks = useQuery(SearchChunksDocument, active ? { variables: { input: chunkQueryInput(active, filters, page) } } : skipToken);
  const chunkResult = (chunks.data ?? chunks.previousData)?.searchChunks;

  if (knowledgeBases.error) return <LoadFailed error={knowledgeBases.error} onRetry={() => void knowledgeBases.refetch()} />;
  if (knowledgeBases.loading && !knowledgeBases.data) {
    return (
      <Center py="24">
        <Spinner color="brand.solid" />
      </Center>
    );
  }

  const historyButton = (
    <Button size="sm" variant="outline" onClick={() => setHistoryOpen(true)} data-testid="search-history-button">
      <LuHistory /> {t("search.history.title")}
    </Button>
  );
  const showing = active !== null || recordId !== null;

  return (
    <Container maxWidth="6xl" py={showing ? "6" : "0"} px={{ base: "4", md: "6" }}>
      {choices.length === 0 ? (
        <Center minHeight="60vh" flexDirection="column" gap="4" textAlign="center" data-testid="search-empty">
          <Icon as={LuDatabase} boxSize="10" color="fg.subtle" />
          <Heading size="lg">{t("search.empty.title")}</Heading>
          <Text color="fg.muted" maxWidth="md">
            {t("search.empty.description")}
          </Text>
          <Button colorPalette="brand" onClick={() => setCreating(true)} data-testid="search-create-kb">
            <LuPlus /> {t("search.empty.create")}
          </Button>
          <CreateKnowledgeBaseDialog open={creating} onClose={() => setCreating(false)} pageOf={(id) => `/knowledge/dataset?id=${id}`} />
        </Center>
      ) : !showing ? (
        <Center minHeight="70vh" flexDirection="column" gap="6" data-testid="search-landing">
          <Stack gap="2" align="center" textAlign="center">
            <HStack gap="3" color="brand.fg">
              <Icon as={LuSearch} boxSize="8" />
              <Heading size="3xl" letterSpacing="-0.02em" color="fg">
                {t("search.landing.title")}
              </Heading>
            </HStack>
            <Text color="fg.muted">{t("search.landing.description")}</Text>
          </Stack>
          <Box width="full" maxWidth="3xl">
            <SearchBox question={draft} onQuestion={setDraft} choices={choices} chosen={chosen ?? []} onChosen={choose} onSearch={() => void run(draft, chosen ?? [])} busy={starting.loading} prominent />
          </Box>
          {historyButton}
        </Center>
      ) : (
        <Stack gap="5">
          <HStack gap="3" align="start">
            <SearchBox question={draft} onQuestion={setDraft} choices={choices} chosen={chosen ?? []} onChosen={choose} onSearch={() => void run(draft, chosen ?? [])} busy={starting.loading} prominent={false} />
            {historyButton}
          </HStack>
          {startFailed ? null : (
            <SearchAnswer
              record={record}
              loading={answer.loading || awaiting}
              error={answer.error}
              onRetry={() => void answer.refetch()}
              onAsk={(question) => void run(question, active?.knowledgeBaseIds ?? chosen ?? [])}
            />
          )}
          {active && (
            <SearchResults
              facets={facets.data?.searchChunks}
              result={chunkResult}
              loading={chunks.loading}
              error={chunks.error}
              onRetry={() => void chunks.refetch()}
              filters={filters}
              onFilters={(next) => {
                setFilters(next);
                setPage(1);
              }}
              page={page}
              onPage={setPage}
              ticked={ticked}
              onTicked={setTicked}
            />
          )}
        </Stack>
      )}
      <SearchHistory
        open={historyOpen}
        onClose={() => setHistoryOpen(false)}
        currentId={recordId}
        onOpen={(id) => setParams({ record: id })}
        onDeleted={(id) => {
          if (id === recordId) {
            setParams({});
            setActive(null);
          }
        }}
      />
    </Container>
  );
}
