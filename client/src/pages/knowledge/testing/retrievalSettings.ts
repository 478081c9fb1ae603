import { topKProblem, type TopKRange } from "../../../components/topKRange";
import type { FieldProblems } from "../../../errors";
import type { KnowledgeBaseSettingsFragment, RetrievalInput } from "../../../graphql/gql/graphql";

export interface RetrievalSettings {
  similarityThreshold: number;
  /** The API's weight; the form shows keyword similarity weight, its complement (§9: the two sum to 1). */
  vectorSimilarityWeight: number;
  rerankModel: string;
  topK: string;
  /** Languages the question is also searched in, translated by the default chat model. */
  crossLanguages: string[];
}

/** What the results on screen were retrieved with: changing the form afterwards does not relabel them. */
export interface RetrievalRun {
  question: string;
  settings: RetrievalSettings;
}

/** The knowledge base's own retrieval settings, where a test starts. */
export function defaultsOf(kb: KnowledgeBaseSettingsFragment): RetrievalSettings {
  return {
    similarityThreshold: kb.similarityThreshold,
    vectorSimilarityWeight: kb.vectorSimilarityWeight,
    rerankModel: kb.rerankModel ?? "",
    topK: String(kb.topK),
    crossLanguages: [],
  };
}

export const sameSettings = (a: RetrievalSettings, b: RetrievalSettings) =>
  a.similarityThreshold === b.similarityThreshold && a.vectorSimilarityWeight === b.vectorSimilarityWeight && a.rerankModel === b.rerankModel && a.topK.trim() === b.topK.trim() && a.crossLanguages.join() === b.crossLanguages.join();

/** A question is required and top K is a whole number within the range the server declares. */
export function checkRetrieval(question: string, settings: RetrievalSettings, topKRange: TopKRange): FieldProblems {
  const found: FieldProblems = {};
  if (!question.trim()) found.question = { key: "retrievalTest.questionRequired" };
  const topKFault = topKProblem(settings.topK, topKRange, "errors.knowledge.between");
  if (topKFault) found.topK = topKFault;
  return found;
}

/** The request for one page of a run's results, limited to some documents (none: all of them). */
export function retrievalInputOf(run: RetrievalRun, knowledgeBaseId: string, documentIds: string[], page: number, pageSize: number): RetrievalInput {
  return {
    question: run.question,
    knowledgeBaseIds: [knowledgeBaseId],
    documentIds: documentIds.length > 0 ? documentIds : null,
    similarityThreshold: run.settings.similarityThreshold,
    vectorSimilarityWeight: run.settings.vectorSimilarityWeight,
    rerankModel: run.settings.rerankModel || null,
    topK: Number(run.settings.topK),
    page,
    pageSize,
    crossLanguages: run.settings.crossLanguages.length > 0 ? run.settings.crossLanguages : null,
  };
}
