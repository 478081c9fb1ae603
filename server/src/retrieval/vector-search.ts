import type { DataSource } from "typeorm";
import { cosineDistance, EXACT_SCAN_LIMIT, vectorLiteral } from "../knowledge/vector-index";
import { retrievableChunks, type KeywordScope } from "./keyword-search";

/**
 * Nearest chunks by cosine similarity, among the chunks of knowledge bases that share one embedding
 * model (one dimension). Up to EXACT_SCAN_LIMIT chunks in scope the distances are computed exactly
 * (knowledge/vector-index.ts says why); above it the HNSW index of the dimension serves the query, with
 * pgvector's iterative scan so that the scope filter still yields `limit` rows.
 */
const HNSW_EF_SEARCH = 200;

export interface VectorHit {
  chunkId: string;
  /** Cosine similarity, -1..1 (in practice 0..1). */
  similarity: number;
}

export async function vectorSearch(db: DataSource, vector: number[], scope: KeywordScope, limit: number, chunksInScope: number): Promise<VectorHit[]> {
  if (limit <= 0 || vector.length === 0) return [];
  const dimension = vector.length;
  const params: unknown[] = [scope.knowledgeBaseIds, vectorLiteral(vector), dimension, limit, scope.documentIds?.length ? scope.documentIds : null, scope.anyOfTerms?.length ? scope.anyOfTerms : null];
  const exact = chunksInScope <= EXACT_SCAN_LIMIT;
  // The HNSW index matches only its own expression, so the plain column distance makes the planner scan.
  const distance = exact ? "(c.embedding <=> $2::vector)" : cosineDistance(dimension, "$2");
  const query = `SELECT c.id, 1 - ${distance} AS similarity
     FROM chunk c JOIN document d ON d.id = c.document_id
     WHERE c.dimension = $3 AND ${retrievableChunks("$1", "$5")} AND ($6::text[] IS NULL OR c.terms ?| $6::text[])
     ORDER BY ${distance}
     LIMIT $4`;
  const rows: { id: string; similarity: number }[] = exact
    ? await db.query(query, params)
    : await db.transaction(async (m) => {
        await m.query(`SET LOCAL hnsw.ef_search = ${HNSW_EF_SEARCH}`);
        await m.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
        return m.query(query, params);
      });
  return rows.map((r) => ({ chunkId: r.id, similarity: Number(r.similarity) }));
}
