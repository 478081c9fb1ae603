import { Box, Button, Flex, Grid, Input, NativeSelect, Stack, Text, Textarea } from "@chakra-ui/react";
import { useLazyQuery, useQuery } from "@apollo/client/react";
import { useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuFlaskConical, LuFolderOpen, LuPlay, LuRotateCcw } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { CrossLanguagesField } from "../../components/CrossLanguagesField";
import { FormField } from "../../components/FormField";
import { notify } from "../../components/toaster";
import { topKProblem } from "../../components/topKRange";
import { useTopKRange } from "../../components/useTopKRange";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../errors";
import { CrossLanguageChoicesDocument, RerankModelsDocument, RetrieveDocument, type KnowledgeBaseSettingsFragment, type RetrievalInput } from "../../graphql/gql/graphql";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";
import { SectionHeading } from "./SectionHeading";
import { EmptyState, PAGE_SIZE, RetrievalResults, type DocumentChoice } from "./testing/RetrievalResults";
import { round2, WeightSlider } from "./WeightSlider";
import { useFixed } from "./useFixed";


interface Settings {
  similarityThreshold: number;
  /** The API's weight; the form shows keyword similarity weight, its complement (§9: the two sum to 1). */
  vectorSimilarityWeight: number;
  rerankModel: string;
  topK: string;
  /** Languages the question is also searched in, translated by the default chat model. */
  crossLanguages: string[];
}

/** What the results on screen were retrieved with: changing the form afterwards does not relabel them. */
interface Test {
  question: string;
  settings: Settings;
}

function defaultsOf(kb: KnowledgeBaseSettingsFragment): Settings {
  return {
    similarityThreshold: kb.similarityThreshold,
    vectorSimilarityWeight: kb.vectorSimilarityWeight,
    rerankModel: kb.rerankModel ?? "",
    topK: String(kb.topK),
    crossLanguages: [],
  };
}

const sameSettings = (a: Settings, b: Settings) =>
  a.similarityThreshold === b.similarityThreshold && a.vectorSimilarityWeight === b.vectorSimilarityWeight && a.rerankModel === b.rerankModel && a.topK.trim() === b.topK.trim() && a.crossLanguages.join() === b.crossLanguages.join();

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

function RetrievalTest({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const { t, i18n } = useTranslation();
  const fixed = useFixed();
  const topKRange = useTopKRange();
  const defaults = defaultsOf(kb);
  const [question, setQuestion] = useState("");
  const [settings, setSettings] = useState<Settings>(defaults);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [test, setTest] = useState<Test | null>(null);
  const [page, setPage] = useState(1);
  const [documentFilter, setDocumentFilter] = useState<string[]>([]);
  const [documentChoices, setDocumentChoices] = useState<DocumentChoice[]>([]);
  const latest = useRef(0);
  const resultsTop = useRef<HTMLDivElement>(null);
  const { data: rerankData } = useQuery(RerankModelsDocument);
  const { data: languageData } = useQuery(CrossLanguageChoicesDocument);
  const [retrieve, { data, previousData, loading, error: retrieveError }] = useLazyQuery(RetrieveDocument, { fetchPolicy: "network-only", notifyOnNetworkStatusChange: true });

  const rerankModels = rerankData?.availableModels ?? [];
  const error = (field: string) => problemText(i18n, problems[field]);
  const keywordWeight = round2(1 - settings.vectorSimilarityWeight);
  const result = (data ?? previousData)?.retrieve;
  const reranked = !!test?.settings.rerankModel;
  const rerankModelName = reranked ? (rerankModels.find((model) => model.id === test?.settings.rerankModel)?.modelName ?? test?.settings.rerankModel ?? null) : null;

  function edit<K extends keyof Settings>(key: K, value: Settings[K]) {
    setSettings((current) => ({ ...current, [key]: value }));
    setProblems((current) => ({ ...current, [key]: undefined }));
  }

  function check(): FieldProblems {
    const found: FieldProblems = {};
    if (!question.trim()) found.question = { key: "retrievalTest.questionRequired" };
    const topKFault = topKProblem(settings.topK, topKRange, "errors.knowledge.between");
    if (topKFault) found.topK = topKFault;
    return found;
  }

  /** Runs `run` and shows its results; a result that a newer run overtook is dropped. */
  async function fetchPage(run: Test, documentIds: string[], pageNumber: number, keepChoices: boolean) {
    const input: RetrievalInput = {
      question: run.question,
      knowledgeBaseIds: [kb.id],
      documentIds: documentIds.length > 0 ? documentIds : null,
      similarityThreshold: run.settings.similarityThreshold,
      vectorSimilarityWeight: run.settings.vectorSimilarityWeight,
      rerankModel: run.settings.rerankModel || null,
      topK: Number(run.settings.topK),
      page: pageNumber,
      pageSize: PAGE_SIZE,
      crossLanguages: run.settings.crossLanguages.length > 0 ? run.settings.crossLanguages : null,
    };
    const ticket = ++latest.current;
    try {
      const { data: answer, error: failure } = await retrieve({ variables: { input } });
      if (failure) throw failure;
      if (ticket !== latest.current || !answer) return;
      if (!keepChoices) setDocumentChoices(answer.retrieve.documents);
    } catch (failure) {
      if (ticket !== latest.current) return;
      const fromServer = fieldProblemsOf(failure);
      if (!hasNoProblems(fromServer)) setProblems(fromServer);
      notify.error(describeError(failure, i18n));
    }
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const found = check();
    setProblems(found);
    if (!hasNoProblems(found)) return;
    const run: Test = { question: question.trim(), settings };
    setTest(run);
    setPage(1);
    setDocumentFilter([]);
    void fetchPage(run, [], 1, false);
  }

  function submitOnShortcut(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  }

  function filterDocuments(selected: string[]) {
    if (!test) return;
    setDocumentFilter(selected);
    setPage(1);
    void fetchPage(test, selected, 1, true);
  }

  function turnPage(next: number) {
    if (!test) return;
    setPage(next);
    resultsTop.current?.scrollIntoView({ block: "start", behavior: "smooth" });
    void fetchPage(test, documentFilter, next, true);
  }

  return (
    <Grid templateColumns={{ base: "minmax(0, 1fr)", xl: "20rem minmax(0, 1fr)" }} gap="6" alignItems="start">
      <Box position={{ xl: "sticky" }} top={{ xl: "24" }}>
        <form onSubmit={submit} noValidate data-testid="retrieval-form">
          <Stack gap="5" bg="bg.panel" borderWidth="1px" rounded="l3" p="5">
            <FormField label={t("retrievalTest.question")} required error={error("question")}>
              <Textarea
                name="question"
                rows={4}
                autoresize
                maxHeight="60"
                placeholder={t("retrievalTest.questionPlaceholder")}
                value={question}
                onChange={(event) => {
                  setQuestion(event.target.value);
                  setProblems((current) => ({ ...current, question: undefined }));
                }}
                onKeyDown={submitOnShortcut}
                data-testid="retrieval-question"
              />
            </FormField>

            <Stack gap="4" pt="4" borderTopWidth="1px" borderColor="border.muted">
              <Flex justify="space-between" align="center" gap="2">
                <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
                  {t("retrievalTest.settings")}
                </Text>
                {!sameSettings(settings, defaults) && (
                  <Button
                    size="2xs"
                    variant="ghost"
                    onClick={() => {
                      setSettings(defaults);
                      setProblems((current) => ({ ...current, topK: undefined }));
                    }}
                    title={t("retrievalTest.defaultsHelp")}
                    data-testid="retrieval-restore-defaults"
                  >
                    <LuRotateCcw /> {t("retrievalTest.restoreDefaults")}
                  </Button>
                )}
              </Flex>
              <FormField label={t("retrievalTest.similarityThreshold")} helper={t("retrievalTest.similarityThresholdHelp")} error={error("similarityThreshold")}>
                <WeightSlider value={settings.similarityThreshold} onChange={(value) => edit("similarityThreshold", value)} label={t("retrievalTest.similarityThreshold")} testId="retrieval-threshold" />
              </FormField>
              <FormField
                label={t("retrievalTest.keywordWeight")}
                helper={t(settings.rerankModel ? "retrievalTest.rerankWeight" : "retrievalTest.vectorWeight", { value: fixed(settings.vectorSimilarityWeight) })}
                error={error("vectorSimilarityWeight")}
              >
                <WeightSlider value={keywordWeight} onChange={(value) => edit("vectorSimilarityWeight", round2(1 - value))} label={t("retrievalTest.keywordWeight")} testId="retrieval-keyword-weight" />
              </FormField>
              <FormField label={t("retrievalTest.rerankModel")} helper={t("retrievalTest.rerankHelp")} error={error("rerankModel")}>
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field name="rerankModel" value={settings.rerankModel} onChange={(event) => edit("rerankModel", event.target.value)} data-testid="retrieval-rerank">
                    <option value="">{t("retrievalTest.noRerank")}</option>
                    {settings.rerankModel && !rerankModels.some((model) => model.id === settings.rerankModel) && <option value={settings.rerankModel}>{settings.rerankModel}</option>}
                    {rerankModels.map((model) => (
                      <option key={model.id} value={model.id}>
                        {model.builtin ? t("kb.config.builtinModel", { model: model.modelName }) : `${model.modelName} · ${model.provider}`}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField label={t("retrievalTest.topK")} required helper={t("retrievalTest.topKHelp")} error={error("topK")}>
                <Input size="sm" type="number" name="topK" min={topKRange.min} max={topKRange.max} value={settings.topK} onChange={(event) => edit("topK", event.target.value)} data-testid="retrieval-topk" />
              </FormField>
              <CrossLanguagesField value={settings.crossLanguages} languages={languageData?.knowledgeBaseLanguages ?? []} onChange={(languages) => edit("crossLanguages", languages)} testId="retrieval-cross-languages" />
            </Stack>

            <Stack gap="1.5">
              <Button type="submit" colorPalette="brand" loading={loading} data-testid="retrieval-run">
                <LuPlay /> {t("retrievalTest.run")}
              </Button>
              <Text fontSize="xs" color="fg.subtle" textAlign="center">
                {t("retrievalTest.shortcut", { keys: isMac ? "⌘ + Enter" : "Ctrl + Enter" })}
              </Text>
            </Stack>
          </Stack>
        </form>
      </Box>

      <Box minWidth="0" ref={resultsTop} scrollMarginTop="24">
        {result?.crossLanguage && (
          <Text fontSize="sm" color={result.crossLanguage.translated ? "fg.muted" : "fg.warning"} mb="3" whiteSpace="pre-line" data-testid="retrieval-cross-language-note">
            {result.crossLanguage.translated ? t("retrievalTest.crossLanguagesSearched", { query: result.crossLanguage.query }) : t("retrievalTest.crossLanguagesUnavailable")}
          </Text>
        )}
        {test ? (
          <RetrievalResults
            result={result}
            loading={loading}
            failure={retrieveError ? describeError(retrieveError, i18n) : null}
            onRetry={() => void fetchPage(test, documentFilter, page, documentChoices.length > 0)}
            reranked={reranked}
            rerankModelName={rerankModelName}
            page={page}
            documentChoices={documentChoices}
            documentFilter={documentFilter}
            onDocumentFilter={filterDocuments}
            onPage={turnPage}
          />
        ) : kb.chunkCount === 0 ? (
          <EmptyState icon={LuFolderOpen} title={t("retrievalTest.noChunksTitle")} body={t("retrievalTest.noChunksBody")} testId="retrieval-no-chunks">
            <Button asChild size="sm" variant="outline">
              <RouterLink to={`/knowledge/dataset?id=${kb.id}`}>{t("retrievalTest.toDataset")}</RouterLink>
            </Button>
          </EmptyState>
        ) : (
          <EmptyState icon={LuFlaskConical} title={t("retrievalTest.idleTitle")} body={t("retrievalTest.idleBody")} testId="retrieval-idle" />
        )}
      </Box>
    </Grid>
  );
}

export default function TestingPage() {
  return (
    <KnowledgeBaseLayout section="testing">
      {(kb) => (
        <>
          <SectionHeading page="testing" />
          <RetrievalTest key={kb.id} kb={kb} />
        </>
      )}
    </KnowledgeBaseLayout>
  );
}
