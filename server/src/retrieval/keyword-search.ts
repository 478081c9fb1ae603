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
    // Collection statistics (n, average length, df) over every chunk of the knowledge bases, whatever the
    // filters: idf must come from one collection. Every chunk holding a query term is in `matched`, so the
    // document frequencies are counted there, in the same pass that reads the term frequencies.
    `WITH corpus AS (
       SELECT count(*)::float8 AS n, greatest(avg(c.term_count), 1)::float8 AS avgdl FROM chunk c WHERE c.knowledge_base_id = ANY($1)
     ),
     matched AS MATERIALIZED (
       SELECT c.id, c.knowledge_base_id, c.document_id, c.available, c.term_count, q.term, (c.terms ->> q.term)::float8 AS f
       FROM chunk c JOIN unnest($2::text[]) AS q(term) ON c.terms ? q.term
       WHERE c.knowledge_base_id = ANY($1) AND c.terms ?| $2::text[]
     ),
     idf AS (
       SELECT q.term, ln(1 + (corpus.n - coalesce(df.df, 0) + 0.5) / (coalesce(df.df, 0) + 0.5)) AS idf
       FROM unnest($2::text[]) AS q(term) CROSS JOIN corpus
       LEFT JOIN (SELECT term, count(*)::float8 AS df FROM matched GROUP BY term) df ON df.term = q.term
     )
     SELECT c.id,
       sum(idf.idf * (c.f * ${BM25_K1 + 1}) / (c.f + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * c.term_count / corpus.avgdl))) AS bm25,
       (SELECT sum(idf) FROM idf) AS idf_total
     FROM matched c
     JOIN idf ON idf.term = c.term
     JOIN document d ON d.id = c.document_id
     CROSS JOIN corpus
     WHERE ${retrievableChunks("$1", "$4")} AND ($5::varchar[] IS NULL OR c.id = ANY($5))
     GROUP BY c.id
     ORDER BY bm25 DESC, c.id
     LIMIT $3`,
    [scope.knowledgeBaseIds, terms, limit, scope.documentIds?.length ? scope.documentIds : null, scope.chunkIds ?? null],
  );
  return rows.map((r) => ({ chunkId: r.id, bm25: r.bm25, similarity: r.idf_total > 0 ? Math.min(1, r.bm25 / r.idf_total) : 0 }));
}
