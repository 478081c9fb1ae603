import { In } from "typeorm";
import type { SignedIn } from "../auth/principal";
import { Chunk } from "../knowledge/chunk.entity";
import { Document } from "../knowledge/document.entity";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import { highlight, queryTerms } from "../knowledge/search-terms";
import { vectorLiteral } from "../knowledge/vector-index";
import type { ModelsService } from "../models/models.service";
import { FieldChecks } from "../platform/errors";
import type { Platform } from "../platform";
import { keywordSearch } from "./keyword-search";
import { vectorSearch } from "./vector-search";

/**
 * The one retrieval service: the testing page, chat, flows and the REST API all call `retrieve`.
 * Candidates come from BM25 keyword search and from vector search; each candidate gets both scores, and
 * hybrid similarity = w · term similarity + (1 − w) · vector similarity (or, with a rerank model, the
 * rerank score in place of the vector similarity) — §9, w being the keyword similarity weight.
 */

export interface RetrievalRequest {
  question: string;
  knowledgeBaseIds: string[];
  documentIds?: string[];
  /** Hybrid similarity under this is dropped (0..1). */
  similarityThreshold?: number;
  /** Weight of vector (or rerank) similarity, 0..1; keyword similarity weighs 1 − this (RAGFlow's vector_similarity_weight). */
  vectorSimilarityWeight?: number;
  rerankModel?: string | null;
  /** Candidates taken from vector search (RAGFlow's top_k: the size of the kNN candidate set). */
  topK?: number;
  page?: number;
  pageSize?: number;
  highlight?: boolean;
}

export interface RetrievalHit {
  chunk: Chunk;
  documentName: string;
  similarity: number;
  termSimilarity: number;
  vectorSimilarity: number;
  /** The content with matched terms in <em>…</em>, HTML-escaped; only when asked for. */
  highlight?: string;
}

export interface DocumentAggregate {
  documentId: string;
  documentName: string;
  count: number;
}

export interface RetrievalResult {
  /** Hits at or above the threshold, over all pages. */
  total: number;
  hits: RetrievalHit[];
  documents: DocumentAggregate[];
  timings: { keywordMs: number; vectorMs: number; rerankMs: number; totalMs: number };
}

export const RETRIEVAL_DEFAULTS = { similarityThreshold: 0.2, vectorSimilarityWeight: 0.3, topK: 1024, page: 1, pageSize: 30 };
/** How many of the best candidates a rerank model re-scores. */
const RERANK_WINDOW = 64;
/**
 * Candidates taken from each of the two searches, at most top-K: enough that the union holds every chunk
 * that can reach the page asked for (a chunk below the first 128 of both lists practically never does),
 * few enough that scoring the union stays within a few milliseconds.
 */
const CANDIDATES = 128;

const empty = (): RetrievalResult => ({ total: 0, hits: [], documents: [], timings: { keywordMs: 0, vectorMs: 0, rerankMs: 0, totalMs: 0 } });

export class RetrievalService {
  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBases: KnowledgeBaseService,
    private readonly models: ModelsService,
  ) {}

  private validate(request: RetrievalRequest): void {
    const checks = new FieldChecks();
    checks.check(request.knowledgeBaseIds.length > 0, "knowledgeBaseIds", "errors.retrieval.knowledgeBaseRequired");
    for (const [field, value] of [
      ["similarityThreshold", request.similarityThreshold],
      ["vectorSimilarityWeight", request.vectorSimilarityWeight],
    ] as const) {
      if (value !== undefined) checks.check(Number.isFinite(value) && value >= 0 && value <= 1, field, "errors.knowledge.between", { min: 0, max: 1 });
    }
    if (request.topK !== undefined) checks.check(Number.isInteger(request.topK) && request.topK >= 1, "topK", "errors.knowledge.atLeast", { limit: 1 });
    if (request.page !== undefined) checks.check(Number.isInteger(request.page) && request.page >= 1, "page", "errors.knowledge.atLeast", { limit: 1 });
    if (request.pageSize !== undefined) checks.check(Number.isInteger(request.pageSize) && request.pageSize >= 1, "pageSize", "errors.knowledge.atLeast", { limit: 1 });
    checks.throwIfAny();
  }

  async retrieve(principal: SignedIn, request: RetrievalRequest): Promise<RetrievalResult> {
    this.validate(request);
    const kbs = await Promise.all([...new Set(request.knowledgeBaseIds)].map((id) => this.knowledgeBases.accessible(principal, id)));
    return this.search(kbs, request);
  }

  /** Retrieval over knowledge bases the caller may already use (checked by `retrieve`, or by a chat assistant's owner). */
  async search(kbs: KnowledgeBase[], request: RetrievalRequest): Promise<RetrievalResult> {
    const started = performance.now();
    const question = request.question.trim();
    const terms = queryTerms(question);
    if (!question || kbs.length === 0) return empty();
    const { db } = this.platform;
    const page = request.page ?? RETRIEVAL_DEFAULTS.page;
    const pageSize = request.pageSize ?? RETRIEVAL_DEFAULTS.pageSize;
    // top_k bounds only the vector candidates, as in RAGFlow, where every text match is a candidate whatever
    // the kNN size (its suite expects top_k 1 to still find all four chunks that contain the word).
    const candidates = Math.max(CANDIDATES, page * pageSize);
    const vectorCandidates = Math.min(request.topK ?? RETRIEVAL_DEFAULTS.topK, candidates);
    const vectorWeight = request.vectorSimilarityWeight ?? RETRIEVAL_DEFAULTS.vectorSimilarityWeight;
    const threshold = request.similarityThreshold ?? RETRIEVAL_DEFAULTS.similarityThreshold;
    const scope = { knowledgeBaseIds: kbs.map((kb) => kb.id), documentIds: request.documentIds };

    const keywordStarted = performance.now();
    const keywordHits = await keywordSearch(db, terms, scope, candidates);
    const keywordMs = performance.now() - keywordStarted;
    // RAGFlow takes as candidates only chunks that match the text query (its kNN search is filtered by that
    // same query, §5.3 step 2): a chunk sharing no word with the question is never retrieved just because its
    // vector is near, which the built-in embedding makes common for short texts. Only when no chunk matches
    // at all does vector search stand alone, so that a question without lexical overlap still finds something.
    const vectorScope = keywordHits.length > 0 ? { ...scope, anyOfTerms: terms } : scope;

    // Knowledge bases embedded by different models are searched apart, each with its own query vector.
    const vectorStarted = performance.now();
    const byModel = new Map<string, KnowledgeBase[]>();
    for (const kb of kbs) byModel.set(kb.embeddingModel, [...(byModel.get(kb.embeddingModel) ?? []), kb]);
    const vectorScores = new Map<string, number>();
    const queryVectors = new Map<string, number[]>();
    for (const [modelId, group] of byModel) {
      const model = await this.models.client(group[0].tenantId, "embedding", modelId);
      const [vector] = (await model.embed([question], { purpose: "query" })).vectors;
      for (const kb of group) queryVectors.set(kb.id, vector);
      const inScope = group.reduce((sum, kb) => sum + kb.chunkCount, 0);
      for (const hit of await vectorSearch(db, vector, { ...vectorScope, knowledgeBaseIds: group.map((kb) => kb.id) }, vectorCandidates, inScope)) {
        vectorScores.set(hit.chunkId, hit.similarity);
      }
    }
    const vectorMs = performance.now() - vectorStarted;

    // Every candidate needs both scores: the ones only one search found get the other one here.
    const termScores = new Map(keywordHits.map((h) => [h.chunkId, h.similarity]));
    const candidateIds = [...new Set([...termScores.keys(), ...vectorScores.keys()])];
    if (candidateIds.length === 0) return { ...empty(), timings: { keywordMs, vectorMs, rerankMs: 0, totalMs: performance.now() - started } };
    const chunks = await db.getRepository(Chunk).findBy({ id: In(candidateIds) });
    const missingVector = chunks.filter((c) => !vectorScores.has(c.id));
    for (const [kbId, vector] of queryVectors) {
      const ids = missingVector.filter((c) => c.knowledgeBaseId === kbId).map((c) => c.id);
      if (ids.length === 0) continue;
      const rows: { id: string; similarity: number }[] = await db.query(
        `SELECT id, 1 - (embedding <=> $2::vector) AS similarity FROM chunk WHERE id = ANY($1) AND dimension = $3`,
        [ids, vectorLiteral(vector), vector.length],
      );
      for (const row of rows) vectorScores.set(row.id, Number(row.similarity));
    }
    const missingTerms = chunks.filter((c) => !termScores.has(c.id)).map((c) => c.id);
    if (missingTerms.length > 0 && terms.length > 0) {
      for (const hit of await keywordSearch(db, terms, { ...scope, chunkIds: missingTerms }, missingTerms.length)) termScores.set(hit.chunkId, hit.similarity);
    }

    let scored = chunks.map((chunk) => {
      const termSimilarity = termScores.get(chunk.id) ?? 0;
      const vectorSimilarity = Math.max(0, vectorScores.get(chunk.id) ?? 0);
      return { chunk, termSimilarity, vectorSimilarity, similarity: (1 - vectorWeight) * termSimilarity + vectorWeight * vectorSimilarity };
    });
    scored.sort((a, b) => b.similarity - a.similarity || a.chunk.id.localeCompare(b.chunk.id));

    let rerankMs = 0;
    if (request.rerankModel) {
      const rerankStarted = performance.now();
      const window = scored.slice(0, RERANK_WINDOW);
      const model = await this.models.client(kbs[0].tenantId, "rerank", request.rerankModel);
      const { scores } = await model.rerank(question, window.map((s) => s.chunk.content));
      window.forEach((s, i) => (s.similarity = (1 - vectorWeight) * s.termSimilarity + vectorWeight * scores[i]));
      scored = [...window.sort((a, b) => b.similarity - a.similarity || a.chunk.id.localeCompare(b.chunk.id)), ...scored.slice(RERANK_WINDOW).map((s) => ({ ...s, similarity: 0 }))];
      rerankMs = performance.now() - rerankStarted;
    }

    // RAGFlow ignores the threshold when vector similarity has no weight.
    const kept = vectorWeight <= 0 ? scored : scored.filter((s) => s.similarity >= threshold);
    const documents = await db.getRepository(Document).find({ where: { id: In([...new Set(kept.map((s) => s.chunk.documentId))]) }, select: { id: true, name: true } });
    const names = new Map(documents.map((d) => [d.id, d.name]));
    const counts = new Map<string, number>();
    for (const s of kept) counts.set(s.chunk.documentId, (counts.get(s.chunk.documentId) ?? 0) + 1);
    const termSet = new Set(terms);
    const hits: RetrievalHit[] = kept.slice((page - 1) * pageSize, page * pageSize).map((s) => ({
      ...s,
      documentName: names.get(s.chunk.documentId) ?? "",
      ...(request.highlight ? { highlight: highlight(s.chunk.content, termSet) } : {}),
    }));
    return {
      total: kept.length,
      hits,
      documents: [...counts.entries()]
        .map(([documentId, count]) => ({ documentId, documentName: names.get(documentId) ?? "", count }))
        .sort((a, b) => b.count - a.count || a.documentName.localeCompare(b.documentName)),
      timings: { keywordMs, vectorMs, rerankMs, totalMs: performance.now() - started },
    };
  }
}
