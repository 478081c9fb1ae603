import type { DataSource } from "typeorm";

/**
 * BM25 inside PostgreSQL over the chunks' term-frequency maps (knowledge/search-terms.ts, GIN-indexed).
 * Document frequencies and the average length come from the chunks of the knowledge bases searched,
 * at query time, so they are always current and never mix tenants. Frequencies are already
 * field-weighted (BM25F-like); they are saturated with k1 = 1.2 and length-normalised with b = 0.75,
 * the usual values (Robertson & Zaragoza, 2009).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface KeywordScope {
  knowledgeBaseIds: string[];
  documentIds?: string[];
  /** Score only these chunks (candidates the vector search found). */
  chunkIds?: string[];
  /** Only chunks that contain at least one of these terms (vector search restricted to the text matches). */
  anyOfTerms?: string[];
}

export interface KeywordHit {
  chunkId: string;
  /** Σ idf · saturated tf over the matched query terms. */
  bm25: number;
  /** bm25 over Σ idf of all query terms: 1 when every term occurs once in a text of average length. */
  similarity: number;
}

/**
 * SQL restricting chunks `c` (joined to their documents `d`) to what retrieval may return: enabled chunks
 * of enabled documents that are not being parsed, in the knowledge bases of `scope` (a varchar[]
 * parameter) and, when `documents` (a varchar[] parameter) is not null, in those documents.
 */
export function retrievableChunks(scope: string, documents: string): string {
  return `c.knowledge_base_id = ANY(${scope}) AND c.available AND d.enabled AND d.run <> '1' AND (${documents}::varchar[] IS NULL OR c.document_id = ANY(${documents}))`;
}

export async function keywordSearch(db: DataSource, terms: string[], scope: KeywordScope, limit: number): Promise<KeywordHit[]> {
  if (terms.length === 0 || limit <= 0) return [];
  const rows: { id: string; bm25: number; idf_total: number }[] = await db.query(
    // Collection statistics (n, average length, df) over every chunk of the knowledge bases, whatever
    // the document filter: idf must come from the same collection as df, or a filter makes it negative.
    `WITH corpus AS (
       SELECT count(*)::float8 AS n, greatest(avg(c.term_count), 1)::float8 AS avgdl FROM chunk c WHERE c.knowledge_base_id = ANY($1)
     ),
     query AS (
       SELECT t.term, ln(1 + (corpus.n - df.df + 0.5) / (df.df + 0.5)) AS idf
       FROM unnest($2::text[]) AS t(term) CROSS JOIN corpus
       CROSS JOIN LATERAL (SELECT count(*)::float8 AS df FROM chunk c WHERE c.knowledge_base_id = ANY($1) AND c.terms ? t.term) df
     )
     SELECT c.id,
       sum(query.idf * (tf.f * ${BM25_K1 + 1}) / (tf.f + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * c.term_count / corpus.avgdl))) AS bm25,
       (SELECT sum(idf) FROM query) AS idf_total
     FROM chunk c
     JOIN document d ON d.id = c.document_id
     CROSS JOIN corpus
     JOIN query ON c.terms ? query.term
     CROSS JOIN LATERAL (SELECT (c.terms ->> query.term)::float8 AS f) tf
     WHERE ${retrievableChunks("$1", "$4")} AND c.terms ?| $2::text[] AND ($5::varchar[] IS NULL OR c.id = ANY($5))
     GROUP BY c.id
     ORDER BY bm25 DESC, c.id
     LIMIT $3`,
    [scope.knowledgeBaseIds, terms, limit, scope.documentIds?.length ? scope.documentIds : null, scope.chunkIds ?? null],
  );
  return rows.map((r) => ({ chunkId: r.id, bm25: r.bm25, similarity: r.idf_total > 0 ? Math.min(1, r.bm25 / r.idf_total) : 0 }));
}
