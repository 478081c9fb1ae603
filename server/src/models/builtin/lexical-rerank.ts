import type { RerankModel, RerankResult } from "../model-types";
import { countTokens } from "../tokens";
import { LexicalScorer } from "./lexical-scoring";
import { wordStatistics } from "./lexicon";

let shared: Promise<LexicalScorer> | undefined;

export function lexicalScorer(): Promise<LexicalScorer> {
  shared ??= wordStatistics().then((statistics) => new LexicalScorer(statistics));
  shared.catch(() => (shared = undefined));
  return shared;
}

/**
 * "cairn-lexical-rerank": scores each document against the query with Cairn's lexical scorer
 * (lexical-scoring.ts): BM25 per term with WordNet and jieba IDFs, Porter2 stems and jieba words,
 * WordNet-related stems, Chinese bigrams and a proximity bonus. Scores are absolute, in 0..1 (1: every
 * query term present and well represented), not relative to the batch — except that document length
 * is judged against the batch's average length, as BM25 judges it against the collection's.
 */
export class BuiltinLexicalRerank implements RerankModel {
  async rerank(query: string, documents: string[], options?: { signal?: AbortSignal }): Promise<RerankResult> {
    const scorer = await lexicalScorer();
    options?.signal?.throwIfAborted();
    const terms = scorer.analyzeQuery(query);
    const analyzed = documents.map((d) => scorer.analyzeText(d));
    const averageLength = analyzed.reduce((sum, a) => sum + a.length, 0) / Math.max(analyzed.length, 1);
    const scores = analyzed.map((a) => Math.min(1, Math.max(0, scorer.score(terms, a, averageLength).score)));
    const tokens = countTokens(query) * documents.length + documents.reduce((sum, d) => sum + countTokens(d), 0);
    return { scores, usage: { promptTokens: tokens, completionTokens: 0, totalTokens: tokens } };
  }
}
