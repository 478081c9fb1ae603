import { In } from "typeorm";
import type { SignedIn } from "../policies/principal";
import { Chunk } from "../knowledge/chunk.entity";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { RETRIEVAL_DEFAULTS, type KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import { highlight } from "../knowledge/search-terms";
import type { ModelsService } from "../models/models.service";
import { FieldChecks } from "../platform/errors";
import type { Platform } from "../platform";
import { keywordSearch } from "./keyword-search";
import { weightedQueryTerms } from "./query-terms";
import { nearestChunks, vectorSimilarities } from "./vector-search";

/**
 * The one retrieval service: the testing page, chat, flows and the REST API all call `retrieve`.
 * Candidates are the best BM25 matches (the question's terms plus WordNet synonyms, query-terms.ts), or,
 * when no chunk shares a term with the question, the nearest vectors; each candidate gets both scores, and
 * hybrid similarity = w · term similarity + (1 − w) · vector similarity (or, with a rerank model, the
 * rerank score in place of the vector similarity) — §9, w being the keyword similarity weight — plus the
 * knowledge base's page rank.
 */

/** Knowledge bases looked up ahead for one principal (`RetrievalService.lookUp`), by id. */
export type KnowledgeBaseLookups = ReadonlyMap<string, Promise<KnowledgeBase>>;

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

/**
 * How many of the best candidates a rerank model re-scores (RAGFlow's RERANK_LIMIT), or more when the page
 * asked for lies deeper; with a rerank model only these are results, as in RAGFlow.
 */
const RERANK_WINDOW = 64;
/**
 * Chunks scored in full (both similarities): the best text matches, or the nearest vectors when nothing
 * matches. On SciFact, 512 candidates rank exactly as 128 do (nDCG@10 to four decimals); fewer would
 * cost recall deeper than the first page.
 */
const CANDIDATES = 128;

interface Candidate {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  termSimilarity: number;
  vectorSimilarity: number;
}
type Scored = Candidate & { similarity: number };

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

  async retrieve(principal: SignedIn, request: RetrievalRequest, lookedUp?: KnowledgeBaseLookups): Promise<RetrievalResult> {
    this.validate(request);
    const kbs = await Promise.all([...new Set(request.knowledgeBaseIds)].map((id) => lookedUp?.get(id) ?? this.knowledgeBases.accessible(principal, id, "use")));
    return this.search(kbs, request);
  }

  /**
   * Looks the knowledge bases up for `principal` now, for a `retrieve` to come that passes them in: a flow's run reads
   * those its components name while it is claimed, so that its Retrieval does not wait for the database once more.
   * A refusal is told by that `retrieve`, as if it had looked the knowledge base up itself.
   */
  lookUp(principal: SignedIn, ids: readonly string[]): KnowledgeBaseLookups {
    return new Map(
      [...new Set(ids)].map((id) => {
        const found = this.knowledgeBases.accessible(principal, id, "use");
        found.catch(() => undefined); // a refusal no retrieve comes to ask for is no one's error
        return [id, found];
      }),
    );
  }

  /**
   * As `retrieve`, over knowledge bases the caller has just been found to use (the REST route looks each one
   * up to word its own refusal): the same checks of the request, without looking them up again.
   */
  async retrieveFrom(kbs: KnowledgeBase[], request: Omit<RetrievalRequest, "knowledgeBaseIds">): Promise<RetrievalResult> {
    const unique = [...new Map(kbs.map((kb) => [kb.id, kb])).values()];
    const full = { ...request, knowledgeBaseIds: unique.map((kb) => kb.id) };
    this.validate(full);
    return this.search(unique, full);
  }

  /**
   * Retrieval over knowledge bases the caller may already use (checked by `retrieve`, or by a chat assistant's
   * owner). It is the heaviest database work there is, so it waits for a fair slot of its tenant's
   * (platform/fair-scheduler.ts): the testing page, the REST API and every chat answer alike.
   */
  async search(kbs: KnowledgeBase[], request: RetrievalRequest): Promise<RetrievalResult> {
    if (!request.question.trim() || kbs.length === 0) return empty();
    return this.platform.heavyWork.run(kbs[0].tenantId, () => this.scoreAndLoad(kbs, request));
  }

  private async scoreAndLoad(kbs: KnowledgeBase[], request: RetrievalRequest): Promise<RetrievalResult> {
    const started = performance.now();
    const question = request.question.trim();
    const { db } = this.platform;
    const terms = await weightedQueryTerms(question);
    const page = request.page ?? RETRIEVAL_DEFAULTS.page;
    const pageSize = request.pageSize ?? RETRIEVAL_DEFAULTS.pageSize;
    const candidateCount = Math.max(CANDIDATES, page * pageSize);
    const vectorWeight = request.vectorSimilarityWeight ?? RETRIEVAL_DEFAULTS.vectorSimilarityWeight;
    const threshold = request.similarityThreshold ?? RETRIEVAL_DEFAULTS.similarityThreshold;
    const scope = { knowledgeBaseIds: kbs.map((kb) => kb.id), documentIds: request.documentIds };

    // Knowledge bases embedded by different models are searched apart, each with its own query vector. The
    // question is embedded while the database reads the postings: the two run on different threads.
    const byModel = new Map<string, KnowledgeBase[]>();
    for (const kb of kbs) byModel.set(kb.embeddingModel, [...(byModel.get(kb.embeddingModel) ?? []), kb]);
    const queryVectors = [...byModel].map(async ([modelId, group]) => {
      const model = await this.models.client(group[0].tenantId, "embedding", modelId);
      const [vector] = (await model.embed([question], { purpose: "query" })).vectors;
      return { group, vector };
    });
    // Settled at once so that a failed embedding cannot go unhandled while the keyword search runs; awaited below.
    for (const pending of queryVectors) pending.catch(() => undefined);

    const keywordStarted = performance.now();
    const keywordHits = await keywordSearch(db, terms, scope, candidateCount);
    const keywordMs = performance.now() - keywordStarted;

    const vectorStarted = performance.now();
    let candidates: Candidate[] = keywordHits.map((hit) => ({ ...hit, termSimilarity: hit.similarity, vectorSimilarity: 0 }));
    const names = new Map<string, string>();
    for (const { group, vector } of await Promise.all(queryVectors)) {
      const groupIds = new Set(group.map((kb) => kb.id));
      if (keywordHits.length > 0) {
        // As in RAGFlow (§5.3, its kNN search is filtered by the text query), the candidates are chunks that
        // share words with the question: a chunk that shares none is never retrieved just because its
        // vector is near, which the built-in embedding makes common for short texts. Each gets its vector similarity.
        const inGroup = candidates.filter((c) => groupIds.has(c.knowledgeBaseId));
        const similarities = await vectorSimilarities(db, vector, inGroup.map((c) => c.chunkId));
        for (const c of inGroup) {
          const found = similarities.get(c.chunkId);
          c.vectorSimilarity = Math.max(0, found?.similarity ?? 0);
          if (found) names.set(c.documentId, found.documentName);
        }
      } else {
        // No chunk shares a word with the question: vector search stands alone, bounded by top-K.
        const limit = Math.min(request.topK ?? RETRIEVAL_DEFAULTS.topK, candidateCount);
        const inScope = group.reduce((sum, kb) => sum + kb.chunkCount, 0);
        const nearest = await nearestChunks(db, vector, { ...scope, knowledgeBaseIds: [...groupIds] }, limit, inScope);
        for (const hit of nearest) names.set(hit.documentId, hit.documentName);
        candidates = [...candidates, ...nearest.map((hit) => ({ ...hit, termSimilarity: 0, vectorSimilarity: Math.max(0, hit.similarity) }))];
      }
    }
    const vectorMs = performance.now() - vectorStarted;

    // As in RAGFlow, a knowledge base's page rank (0–100) is added to the similarity of its chunks, so that
    // chunks of a knowledge base ranked higher come first when several are searched together.
    const pagerank = new Map(kbs.map((kb) => [kb.id, kb.pagerank]));
    const hybrid = (c: Candidate) => (1 - vectorWeight) * c.termSimilarity + vectorWeight * c.vectorSimilarity + (pagerank.get(c.knowledgeBaseId) ?? 0);
    let scored = candidates.map((c) => ({ ...c, similarity: hybrid(c) }));
    const byRank = (a: Scored, b: Scored) => b.similarity - a.similarity || a.chunkId.localeCompare(b.chunkId);
    scored.sort(byRank);

    const contents = new Map<string, Chunk>();
    const load = async (ids: string[]) => {
      const missing = ids.filter((id) => !contents.has(id));
      if (missing.length > 0) for (const chunk of await db.getRepository(Chunk).findBy({ id: In(missing) })) contents.set(chunk.id, chunk);
    };
    let rerankMs = 0;
    if (request.rerankModel && scored.length > 0) {
      const rerankStarted = performance.now();
      const window = scored.slice(0, Math.max(RERANK_WINDOW, page * pageSize));
      await load(window.map((s) => s.chunkId));
      const model = await this.models.client(kbs[0].tenantId, "rerank", request.rerankModel);
      const { scores } = await model.rerank(question, window.map((s) => contents.get(s.chunkId)?.content ?? ""));
      // As in RAGFlow, the rerank score stands in the vector similarity's place, so the three numbers add up.
      window.forEach((s, i) => {
        s.vectorSimilarity = scores[i] ?? 0;
        s.similarity = hybrid(s);
      });
      scored = window.sort(byRank);
      rerankMs = performance.now() - rerankStarted;
    }

    // RAGFlow ignores the threshold when vector similarity has no weight.
    const kept = vectorWeight <= 0 ? scored : scored.filter((s) => s.similarity >= threshold);
    const pageHits = kept.slice((page - 1) * pageSize, page * pageSize);
    await load(pageHits.map((s) => s.chunkId));
    const counts = new Map<string, number>();
    for (const s of kept) counts.set(s.documentId, (counts.get(s.documentId) ?? 0) + 1);
    const termSet = new Set(terms.filter((t) => t.source !== "synonym").map((t) => t.term));
    const hits: RetrievalHit[] = pageHits.flatMap((s) => {
      const chunk = contents.get(s.chunkId);
      if (!chunk) return []; // deleted since it was scored
      const hit = { chunk, documentName: names.get(s.documentId) ?? "", similarity: s.similarity, termSimilarity: s.termSimilarity, vectorSimilarity: s.vectorSimilarity };
      return [request.highlight ? { ...hit, highlight: highlight(chunk.content, termSet) } : hit];
    });
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
