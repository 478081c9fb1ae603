import type { DataSource } from "typeorm";
import { cosineDistance, EXACT_SCAN_LIMIT, vectorParameter } from "../knowledge/vector-index";
import type { KeywordScope } from "./keyword-search";
import { retrievableChunks } from "./retrievable";

/**
 * Vector similarity: of given chunks to a query vector, and nearest chunks among the chunks of knowledge
 * bases that share one embedding model (one dimension). Up to EXACT_SCAN_LIMIT chunks in scope the
 * nearest are found exactly (knowledge/vector-index.ts says why); above it the HNSW index of the
 * dimension serves the query, with pgvector's iterative scan so that the scope filter still yields `limit` rows.
 */
const HNSW_EF_SEARCH = 200;

export interface VectorHit {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  /** Cosine similarity, -1..1 (in practice 0..1). */
  similarity: number;
  documentName: string;
}

export interface ChunkSimilarity {
  /** Cosine similarity to the query vector; null when the chunk has no vector of the query's dimension. */
  similarity: number | null;
  /** The name of the chunk's document, read in the same statement: the hits' and aggregates' labels. */
  documentName: string;
}

/** Cosine similarity to `vector` of each of `chunkIds` that still exists, with its document's name. */
export async function vectorSimilarities(db: DataSource, vector: number[], chunkIds: string[]): Promise<Map<string, ChunkSimilarity>> {
  if (chunkIds.length === 0) return new Map();
  const rows: { id: string; similarity: number | null; name: string }[] = await db.query(
    `SELECT c.id, CASE WHEN c.dimension = $3 THEN 1 - (c.embedding <=> $2::vector) END AS similarity, d.name
     FROM chunk c JOIN document d ON d.id = c.document_id WHERE c.id = ANY($1)`,
    [chunkIds, vectorParameter(vector), vector.length],
  );
  return new Map(rows.map((r) => [r.id, { similarity: r.similarity === null ? null : Number(r.similarity), documentName: r.name }]));
}

export async function nearestChunks(db: DataSource, vector: number[], scope: KeywordScope, limit: number, chunksInScope: number): Promise<VectorHit[]> {
  if (limit <= 0 || vector.length === 0) return [];
  const dimension = vector.length;
  const params: unknown[] = [scope.knowledgeBaseIds, vectorParameter(vector), dimension, limit, scope.documentIds?.length ? scope.documentIds : null];
  const exact = chunksInScope <= EXACT_SCAN_LIMIT;
  // The HNSW index matches only its own expression, so the plain column distance makes the planner scan.
  const distance = exact ? "(c.embedding <=> $2::vector)" : cosineDistance(dimension, "$2");
  const query = `SELECT c.id, c.document_id, c.knowledge_base_id, d.name, 1 - ${distance} AS similarity
     FROM chunk c JOIN document d ON d.id = c.document_id
     WHERE c.dimension = $3 AND ${retrievableChunks("$1", "$5")}
     ORDER BY ${distance}
     LIMIT $4`;
  const rows: { id: string; document_id: string; knowledge_base_id: string; name: string; similarity: number }[] = exact
    ? await db.query(query, params)
    : await db.transaction(async (m) => {
        await m.query(`SET LOCAL hnsw.ef_search = ${HNSW_EF_SEARCH}`);
        await m.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
        return m.query(query, params);
      });
  return rows.map((r) => ({ chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, documentName: r.name, similarity: Number(r.similarity) }));
}
