import { useLazyQuery, useQuery } from "@apollo/client/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { useTopKRange } from "../../../components/useTopKRange";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../../errors";
import { RerankModelsDocument, RetrieveDocument, type KnowledgeBaseSettingsFragment } from "../../../graphql/gql/graphql";
import { checkRetrieval, defaultsOf, retrievalInputOf, type RetrievalRun, type RetrievalSettings } from "./retrievalSettings";
import { PAGE_SIZE, type DocumentChoice } from "./RetrievalResults";

/**
 * A retrieval test of one knowledge base: the question and settings being edited, the run whose results are shown,
 * its page and document filter. Only the newest request's answer is shown.
 */
export function useRetrievalTest(kb: KnowledgeBaseSettingsFragment) {
  const topKRange = useTopKRange();
  const { i18n } = useTranslation();
  const defaults = defaultsOf(kb);
  const [question, setQuestion] = useState("");
  const [settings, setSettings] = useState<RetrievalSettings>(defaults);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [run, setRun] = useState<RetrievalRun | null>(null);
  const [page, setPage] = useState(1);
  const [documentFilter, setDocumentFilter] = useState<string[]>([]);
  const [documentChoices, setDocumentChoices] = useState<DocumentChoice[]>([]);
  const latest = useRef(0);
  const { data: rerankData } = useQuery(RerankModelsDocument);
  const [retrieve, { data, previousData, loading, error }] = useLazyQuery(RetrieveDocument, { fetchPolicy: "network-only", notifyOnNetworkStatusChange: true });
  const rerankModels = rerankData?.availableModels ?? [];
  const rerankModel = run?.settings.rerankModel;

  const clearProblem = (field: string) => setProblems((current) => ({ ...current, [field]: undefined }));

  /** Runs `shown` and shows its results; a result that a newer run overtook is dropped. */
  async function fetchPage(shown: RetrievalRun, documentIds: string[], pageNumber: number, keepChoices: boolean) {
    const ticket = ++latest.current;
    try {
      const { data: answer, error: failure } = await retrieve({ variables: { input: retrievalInputOf(shown, kb.id, documentIds, pageNumber, PAGE_SIZE) } });
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

  return {
    topKRange,
    question,
    setQuestion(value: string) {
      setQuestion(value);
      clearProblem("question");
    },
    settings,
    edit<K extends keyof RetrievalSettings>(key: K, value: RetrievalSettings[K]) {
      setSettings((current) => ({ ...current, [key]: value }));
      clearProblem(key);
    },
    defaults,
    restoreDefaults() {
      setSettings(defaults);
      clearProblem("topK");
    },
    problemText: (field: string) => problemText(i18n, problems[field]),
    rerankModels,
    /** Checks the form and, when it passes, starts a new run from its first page over every document. */
    submit() {
      const found = checkRetrieval(question, settings, topKRange);
      setProblems(found);
      if (!hasNoProblems(found)) return;
      const next: RetrievalRun = { question: question.trim(), settings };
      setRun(next);
      setPage(1);
      setDocumentFilter([]);
      void fetchPage(next, [], 1, false);
    },
    run,
    result: (data ?? previousData)?.retrieve,
    loading,
    failure: error ? describeError(error, i18n) : null,
    reranked: !!rerankModel,
    rerankModelName: rerankModel ? (rerankModels.find((model) => model.id === rerankModel)?.modelName ?? rerankModel) : null,
    page,
    documentChoices,
    documentFilter,
    filterDocuments(selected: string[]) {
      if (!run) return;
      setDocumentFilter(selected);
      setPage(1);
      void fetchPage(run, selected, 1, true);
    },
    turnPage(next: number) {
      if (!run) return;
      setPage(next);
      void fetchPage(run, documentFilter, next, true);
    },
    retry() {
      if (run) void fetchPage(run, documentFilter, page, documentChoices.length > 0);
    },
  };
}

export type RetrievalTestState = ReturnType<typeof useRetrievalTest>;
