import type { DataSource } from "typeorm";
import type { QueryTerm } from "./query-terms";
import { retrievablePostings } from "./retrievable";

/**
 * BM25 inside PostgreSQL over the postings of the query's terms (chunk_term, one index range per term;
 * kept by triggers from the chunks' term maps, knowledge/search-terms.ts). Document frequencies come from
 * the same postings, N and the average length from chunk_term_stats, over the knowledge bases searched:
 * always current, never mixing tenants. Frequencies are already field-weighted (BM25F-like); they are
 * saturated with k1 = 1.2 and length-normalised with b = 0.75, the usual values (Robertson & Zaragoza, 2009).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface KeywordScope {
  knowledgeBaseIds: string[];
  documentIds?: string[];
}

export interface KeywordHit {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  /** Σ idf · saturated tf over the matched query terms. */
  bm25: number;
  /**
   * 0..1: 1 − e^(−bm25 / Σ idf of the question's terms). bm25 / Σ idf is 1 when every term occurs once in a
   * text of average length (0.63 then); the exponential saturation keeps the order of all scores (a cut at
   * 1 would tie the best ones) and an absolute scale that thresholds can rely on.
   */
  similarity: number;
}

/** The `limit` chunks that score best on the terms, among those retrieval may return. */
export async function keywordSearch(db: DataSource, terms: QueryTerm[], scope: KeywordScope, limit: number): Promise<KeywordHit[]> {
  if (terms.length === 0 || limit <= 0) return [];
  const rows: { id: string; document_id: string; knowledge_base_id: string; bm25: number; idf_total: number }[] = await db.query(
    // Collection statistics cover every chunk of the knowledge bases, whatever the filters: idf must come
    // from one collection. The document frequencies are counted (a window over each term's postings) in the
    // pass that reads the postings, before the filters; Σ idf of all query terms normalises the score.
    `WITH corpus AS (
       SELECT greatest(sum(chunks), 1)::float8 AS n, greatest(sum(length)::float8 / greatest(sum(chunks), 1), 1) AS avgdl
       FROM chunk_term_stats WHERE knowledge_base_id = ANY($1)
     ),
     p AS (
       SELECT term, chunk_id, document_id, knowledge_base_id, tf, length, count(*) OVER (PARTITION BY term) AS df
       FROM chunk_term WHERE knowledge_base_id = ANY($1) AND term = ANY($2)
     )
     SELECT p.chunk_id AS id, min(p.document_id) AS document_id, min(p.knowledge_base_id) AS knowledge_base_id,
       sum(q.weight * ln(1 + (corpus.n - p.df + 0.5) / (p.df + 0.5)) * (p.tf * ${BM25_K1 + 1}) / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.length / corpus.avgdl))) AS bm25,
       (SELECT sum(ln(1 + (corpus.n - d.df + 0.5) / (d.df + 0.5))) FROM corpus, unnest($5::text[]) AS o(term),
          LATERAL (SELECT count(*) AS df FROM chunk_term t WHERE t.knowledge_base_id = ANY($1) AND t.term = o.term) d) AS idf_total
     FROM p JOIN unnest($2::text[], $6::float8[]) AS q(term, weight) ON q.term = p.term CROSS JOIN corpus
     WHERE ${retrievablePostings("$1", "$4")}
     GROUP BY p.chunk_id
     ORDER BY bm25 DESC, p.chunk_id
     LIMIT $3`,
    [
      scope.knowledgeBaseIds,
      terms.map((t) => t.term),
      limit,
      scope.documentIds?.length ? scope.documentIds : null,
      terms.filter((t) => t.original).map((t) => t.term),
      terms.map((t) => t.weight),
    ],
  );
  return rows.map((r) => ({
    chunkId: r.id,
    documentId: r.document_id,
    knowledgeBaseId: r.knowledge_base_id,
    bm25: r.bm25,
    similarity: r.idf_total > 0 ? 1 - Math.exp(-r.bm25 / r.idf_total) : 0,
  }));
}
