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
  /** Σ weight · idf · saturated tf over the matched query terms. */
  bm25: number;
  /**
   * 0..1: 1 − e^(−bm25 / Σ weight·idf of the question's own terms, words and bigrams). The ratio is 1 when every
   * such term occurs once in a text of average length (0.63 then); the exponential saturation keeps the order of
   * all scores (a cut at 1 would tie the best ones) and an absolute scale that thresholds can rely on. In that sum a
   * term found in no chunk weighs as one found in a single chunk: else, in a small knowledge base, the question's
   * unknown words (an abbreviation, a word the texts say otherwise) would weigh several times more than every word
   * that matched, and a passage that answers the question would fall under the default threshold.
   */
  similarity: number;
}

/** The `limit` chunks that score best on the terms, among those retrieval may return. */
export async function keywordSearch(db: DataSource, terms: QueryTerm[], scope: KeywordScope, limit: number): Promise<KeywordHit[]> {
  if (terms.length === 0 || limit <= 0) return [];
  const rows: { id: string; document_id: string; knowledge_base_id: string; bm25: number; idf_total: number }[] = await db.query(
    // Collection statistics cover every chunk of the knowledge bases, whatever the filters: idf must come
    // from one collection. Each query term's document frequency is counted first (an index-only count of
    // its postings), then its postings are read by a parameterised index scan each (OFFSET 0 keeps the
    // planner from turning that into a scan of the whole table); Σ weight·idf of the question's own terms
    // normalises the score, each term's document frequency taken as at least 1 there (see `similarity`). The
    // postings are summed per chunk before the retrievable rule is checked, once a chunk instead of once a
    // posting; a chunk's document and knowledge base are grouped on, not aggregated (min() of a text compares by
    // collation, row by row). All arithmetic is float8: an integer column next to a decimal literal would make
    // PostgreSQL compute in numeric, which costs more than reading the postings.
    `WITH corpus AS (
       SELECT greatest(sum(chunks), 1)::float8 AS n, greatest(sum(length)::float8 / greatest(sum(chunks), 1), 1) AS avgdl
       FROM chunk_term_stats WHERE knowledge_base_id = ANY($1)
     ),
     q AS (
       SELECT q.term, q.weight, q.original, ln(1 + (corpus.n - df.df + 0.5) / (df.df + 0.5)) AS idf,
         ln(1 + (corpus.n - greatest(df.df, 1) + 0.5) / (greatest(df.df, 1) + 0.5)) AS norm_idf
       FROM unnest($2::text[], $5::float8[], $6::bool[]) AS q(term, weight, original) CROSS JOIN corpus,
         LATERAL (SELECT count(*)::float8 AS df FROM chunk_term t WHERE t.knowledge_base_id = ANY($1) AND t.term = q.term) df
     )
     SELECT p.chunk_id AS id, p.document_id, p.knowledge_base_id, p.bm25, (SELECT sum(weight * norm_idf) FROM q WHERE original) AS idf_total
     FROM (
       SELECT t.chunk_id, t.document_id, t.knowledge_base_id,
         sum(q.weight * q.idf * t.tf * (${BM25_K1}::float8 + 1) / (t.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * t.length / corpus.avgdl))) AS bm25
       FROM q CROSS JOIN corpus,
         LATERAL (SELECT chunk_id, document_id, knowledge_base_id, tf, length FROM chunk_term t WHERE t.knowledge_base_id = ANY($1) AND t.term = q.term OFFSET 0) t
       GROUP BY t.chunk_id, t.document_id, t.knowledge_base_id
     ) p
     WHERE ${retrievablePostings("$1", "$4")}
     ORDER BY p.bm25 DESC, p.chunk_id
     LIMIT $3`,
    [
      scope.knowledgeBaseIds,
      terms.map((t) => t.term),
      limit,
      scope.documentIds?.length ? scope.documentIds : null,
      terms.map((t) => t.weight),
      terms.map((t) => t.source === "question" || t.source === "bigram"),
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
