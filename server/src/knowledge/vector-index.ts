import type { DataSource, EntityManager } from "typeorm";

/**
 * Chunk vectors live in one untyped `vector` column; HNSW needs a fixed dimension, so each dimension in
 * use gets its own partial index over `embedding::vector(n)` (pgvector indexes at most 2,000 dimensions
 * of `vector`, 4,000 of `halfvec`, so larger models are indexed as half precision). A nearest-neighbour
 * query uses the index only when it repeats the same expression and predicate: `vectorExpression`.
 *
 * Up to EXACT_SCAN_LIMIT chunks in a search's scope, searches compute exact distances — fast at that size,
 * and unlike a filtered HNSW walk they miss nothing — and no index is kept: maintaining HNSW costs
 * every insert of the dimension, in every knowledge base (on the embedded database 7.5 ms per 1,024-dimension
 * chunk, a third of SciFact's ingestion time). The index of a dimension is built once one knowledge base of it
 * outgrows the limit, not the installation's chunks together: many small knowledge bases are searched exactly
 * and would pay for an index that none of their searches uses. (A search over several knowledge bases whose
 * chunks add up past the limit before any one does scans exactly, more slowly.) Searches use it only for a
 * question that shares no word with any chunk (retrieval.service.ts): the others score the keyword stage's candidates.
 * On the embedded database none is built (chunk-store.ts, ensureVectorIndex): those questions scan exactly there.
 */

export const EXACT_SCAN_LIMIT = 50_000;

const MAX_VECTOR_INDEX_DIMENSION = 2000;
const MAX_HALFVEC_INDEX_DIMENSION = 4000;

export function vectorCast(dimension: number): string {
  if (!Number.isInteger(dimension) || dimension < 1) throw new Error(`Invalid embedding dimension ${dimension}`);
  return dimension <= MAX_VECTOR_INDEX_DIMENSION ? `vector(${dimension})` : `halfvec(${dimension})`;
}

/** Writes pgvector's binary form of a vector at `offset`: its dimension and a reserved field (16 bits each), then each value as a big-endian float4. */
function packVector(vector: number[], into: Buffer, offset: number): void {
  into.writeInt16BE(vector.length, offset);
  into.writeInt16BE(0, offset + 2);
  vector.forEach((value, i) => into.writeFloatBE(value, offset + 4 + 4 * i));
}

/**
 * A query vector as a statement parameter, in pgvector's binary format. node-postgres sends a Buffer as binary, so
 * the database reads it without parsing a thousand numbers from text: the vector stage's statement took 2.35 ms at
 * p50 on the embedded database instead of 3.61. Written `$n::vector` in SQL (the binary format is vector's, not halfvec's).
 */
export function vectorParameter(vector: number[]): Buffer {
  const packed = Buffer.alloc(4 + 4 * vector.length);
  packVector(vector, packed, 0);
  return packed;
}

/**
 * Vectors as one `$n::vector[]` parameter in binary: PostgreSQL's array format (dimensions, a nulls flag, the element
 * type, then the length and lower bound of the one dimension) around each vector's own, prefixed by its length.
 * `elementType` is the vector type's OID in this database (vectorTypeOf).
 */
export function vectorArrayParameter(vectors: number[][], elementType: number): Buffer {
  const size = vectors.reduce((sum, vector) => sum + 8 + 4 * vector.length, 20);
  const packed = Buffer.alloc(vectors.length === 0 ? 12 : size);
  packed.writeInt32BE(vectors.length === 0 ? 0 : 1, 0);
  packed.writeInt32BE(0, 4);
  packed.writeUInt32BE(elementType, 8);
  if (vectors.length === 0) return packed;
  packed.writeInt32BE(vectors.length, 12);
  packed.writeInt32BE(1, 16);
  let offset = 20;
  for (const vector of vectors) {
    packed.writeInt32BE(4 + 4 * vector.length, offset);
    packVector(vector, packed, offset + 4);
    offset += 8 + 4 * vector.length;
  }
  return packed;
}

const vectorTypes = new WeakMap<DataSource, Promise<number>>();

/**
 * The OID of pgvector's `vector` type in this database (an extension's type has none fixed), asked once per data
 * source, through `manager` (inside a transaction, its own).
 */
export function vectorTypeOf(manager: EntityManager): Promise<number> {
  let oid = vectorTypes.get(manager.connection);
  if (!oid) {
    oid = manager.query(`SELECT 'vector'::regtype::oid AS oid`).then(([row]: { oid: number | string }[]) => Number(row.oid));
    oid.catch(() => vectorTypes.delete(manager.connection));
    vectorTypes.set(manager.connection, oid);
  }
  return oid;
}

/** The indexed expression for chunks of this dimension. */
export function vectorExpression(dimension: number): string {
  return `(embedding::${vectorCast(dimension)})`;
}

/**
 * Cosine distance from the chunk to a query vector parameter (vectorParameter), e.g. `$1`, through the index; in
 * parentheses, since `<=>` binds more loosely than arithmetic (`1 - a <=> b` is `(1 - a) <=> b`).
 */
export function cosineDistance(dimension: number, parameter: string): string {
  return `(${vectorExpression(dimension)} <=> ${parameter}::vector::${vectorCast(dimension)})`;
}

export const vectorIndexName = (dimension: number): string => `chunk_embedding_${dimension}_hnsw`;

/**
 * DDL creating the index of one dimension (no-op when it exists); null when pgvector cannot index it. CONCURRENTLY, so
 * that on PostgreSQL the chunk table takes writes while it is built (minutes at 90,000 chunks): ingestion goes on.
 */
export function vectorIndexStatement(dimension: number): string | null {
  if (dimension > MAX_HALFVEC_INDEX_DIMENSION) return null;
  const operators = dimension <= MAX_VECTOR_INDEX_DIMENSION ? "vector_cosine_ops" : "halfvec_cosine_ops";
  return `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${vectorIndexName(dimension)} ON chunk USING hnsw (${vectorExpression(dimension)} ${operators}) WHERE dimension = ${dimension}`;
}
