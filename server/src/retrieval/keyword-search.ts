import type { DataSource } from "typeorm";
import { anyTermQuery } from "../knowledge/search-terms";

/**
 * BM25 inside PostgreSQL over the analysed terms of chunks (knowledge/search-terms.ts). Document
 * frequencies and the average length come from the chunks in scope at query time — the knowledge bases
 * searched, enabled chunks of enabled documents — so they are always current and never mix tenants.
 * Scoring is BM25F-like: a term's frequency is the sum of its occurrences in the text and, with field
 * weights, in the title (A) and the keywords and generated questions (B), saturated with k1 = 1.2 and
 * length-normalised with b = 0.75 (Robertson & Zaragoza's usual values).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** How much an occurrence in the title, or in the keywords and questions, counts against one in the text. */
export const TITLE_WEIGHT = 2;
export const KEYWORD_WEIGHT = 3;

export interface KeywordScope {
  knowledgeBaseIds: string[];
  documentIds?: string[];
  /** Score only these chunks (candidates the vector search found). */
  chunkIds?: string[];
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
  const tsquery = anyTermQuery(terms);
  if (!tsquery || limit <= 0) return [];
  const params: unknown[] = [scope.knowledgeBaseIds, terms, tsquery, limit, scope.documentIds?.length ? scope.documentIds : null, scope.chunkIds ?? null];
  const rows: { id: string; bm25: number; idf_total: number }[] = await db.query(
    `WITH scope AS (
       SELECT c.id, c.search, c.term_count FROM chunk c JOIN document d ON d.id = c.document_id
       WHERE ${retrievableChunks("$1", "$5")}
     ),
     corpus AS (SELECT count(*)::float8 AS n, greatest(avg(term_count), 1)::float8 AS avgdl FROM scope),
     terms AS (
       SELECT t.term, ln(1 + (corpus.n - df.df + 0.5) / (df.df + 0.5)) AS idf
       FROM unnest($2::text[]) AS t(term)
       CROSS JOIN corpus
       CROSS JOIN LATERAL (SELECT count(*)::float8 AS df FROM scope WHERE scope.search @@ quote_literal(t.term)::tsquery) df
     ),
     matched AS (
       SELECT s.id, s.term_count, u.lexeme, u.weights FROM scope s, unnest(s.search) AS u(lexeme, positions, weights)
       WHERE s.search @@ $3::tsquery AND u.lexeme = ANY($2::text[]) AND ($6::varchar[] IS NULL OR s.id = ANY($6))
     )
     SELECT m.id,
       sum(terms.idf * (tf.f * ${BM25_K1 + 1}) / (tf.f + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * m.term_count / corpus.avgdl))) AS bm25,
       (SELECT sum(idf) FROM terms) AS idf_total
     FROM matched m
     JOIN terms ON terms.term = m.lexeme
     CROSS JOIN corpus
     CROSS JOIN LATERAL (
       SELECT sum(CASE w WHEN 'A' THEN ${TITLE_WEIGHT} WHEN 'B' THEN ${KEYWORD_WEIGHT} ELSE 1 END)::float8 AS f FROM unnest(m.weights) AS w
     ) tf
     GROUP BY m.id
     ORDER BY bm25 DESC, m.id
     LIMIT $4`,
    params,
  );
  return rows.map((r) => ({ chunkId: r.id, bm25: r.bm25, similarity: r.idf_total > 0 ? Math.min(1, r.bm25 / r.idf_total) : 0 }));
}
