import type { DataSource, EntityManager } from "typeorm";
import type { BlockPosition } from "../ingestion/types";
import { indexText } from "./search-terms";
import { vectorIndexStatement } from "./vector-index";

/**
 * The SQL behind chunks: rows are written in batches through `unnest` (one statement per batch, which
 * matters on the embedded database where every statement crosses into WebAssembly), together with their
 * vector and search terms, and the counters of their document and knowledge base move in the same transaction.
 */

export interface StoredChunk {
  id: string;
  knowledgeBaseId: string;
  documentId: string;
  tenantId: string;
  ordinal: number;
  kind: "text" | "manual" | "raptor";
  content: string;
  title: string;
  keywords: string[];
  questions: string[];
  fields: Record<string, string> | null;
  positions: BlockPosition[];
  imageKey: string | null;
  available: boolean;
  tokenCount: number;
  producedBy: Record<string, string>;
  vector: number[];
}

const COLUMNS: [string, string][] = [
  ["id", "varchar"],
  ["knowledge_base_id", "varchar"],
  ["document_id", "varchar"],
  ["tenant_id", "varchar"],
  ["ordinal", "int"],
  ["kind", "varchar"],
  ["content", "text"],
  ["title", "text"],
  ["keywords", "jsonb"],
  ["questions", "jsonb"],
  ["fields", "jsonb"],
  ["positions", "jsonb"],
  ["page", "int"],
  ["top", "real"],
  ["image_key", "varchar"],
  ["available", "bool"],
  ["token_count", "int"],
  ["produced_by", "jsonb"],
  ["dimension", "int"],
  ["embedding", "vector"],
  ["terms", "jsonb"],
  ["term_count", "int"],
];

/** Six decimals keep cosine similarities exact to ~1e-6 and make the statement a third shorter. */
function vectorLiteral(vector: number[]): string {
  return `[${vector.map((x) => (Math.round(x * 1e6) / 1e6).toString()).join(",")}]`;
}

const indexedDimensions = new Set<number>();

/** Creates the HNSW index of a dimension the first time this process stores vectors of it. */
export async function ensureVectorIndex(db: DataSource, dimension: number): Promise<void> {
  if (indexedDimensions.has(dimension)) return;
  const statement = vectorIndexStatement(dimension);
  if (statement) await db.query(statement);
  indexedDimensions.add(dimension);
}

/** Upserts chunks (a manual chunk added twice with the same text replaces itself, as in RAGFlow). */
export async function insertChunks(manager: EntityManager, chunks: StoredChunk[]): Promise<void> {
  if (chunks.length === 0) return;
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const chunk of chunks) {
    const indexed = indexText({ title: chunk.title, keywords: chunk.keywords, questions: chunk.questions, content: chunk.content });
    const first = chunk.positions[0];
    const row = [
      chunk.id,
      chunk.knowledgeBaseId,
      chunk.documentId,
      chunk.tenantId,
      chunk.ordinal,
      chunk.kind,
      chunk.content,
      chunk.title,
      JSON.stringify(chunk.keywords),
      JSON.stringify(chunk.questions),
      chunk.fields ? JSON.stringify(chunk.fields) : null,
      JSON.stringify(chunk.positions),
      first?.page ?? null,
      first?.top ?? null,
      chunk.imageKey,
      chunk.available,
      chunk.tokenCount,
      JSON.stringify(chunk.producedBy),
      chunk.vector.length,
      vectorLiteral(chunk.vector),
      JSON.stringify(indexed.terms),
      indexed.termCount,
    ];
    row.forEach((value, i) => columns[i].push(value));
  }
  const names = COLUMNS.map(([name]) => name);
  const unnested = COLUMNS.map(([, type], i) => `$${i + 1}::${type === "vector" || type === "jsonb" ? "text" : type}[]`);
  const casts = COLUMNS.map(([name, type]) => (type === "vector" || type === "jsonb" ? `t.${name}::${type}` : `t.${name}`));
  const updates = names.filter((n) => n !== "id" && n !== "created_at").map((n) => `${n} = excluded.${n}`);
  await manager.query(
    `INSERT INTO chunk (${names.join(", ")})
     SELECT ${casts.join(", ")} FROM unnest(${unnested.join(", ")}) AS t(${names.join(", ")})
     ON CONFLICT (id) DO UPDATE SET ${updates.join(", ")}, created_at = now()`,
    columns,
  );
}

/** Adds to a document's and its knowledge base's chunk and token counters (negative to remove). */
export async function moveCounters(manager: EntityManager, documentId: string, knowledgeBaseId: string, chunks: number, tokens: number): Promise<void> {
  if (chunks === 0 && tokens === 0) return;
  await manager.query(`UPDATE document SET chunk_count = chunk_count + $2, token_count = token_count + $3 WHERE id = $1`, [documentId, chunks, tokens]);
  await manager.query(`UPDATE knowledge_base SET chunk_count = chunk_count + $2, token_count = token_count + $3 WHERE id = $1`, [knowledgeBaseId, chunks, tokens]);
}

/** Deletes the chunks of a document (all, or those ids) and moves the counters; returns how many went. */
export async function deleteChunks(manager: EntityManager, documentId: string, knowledgeBaseId: string, ids?: string[]): Promise<number> {
  const rows: { count: string; tokens: string | null }[] = await manager.query(
    `WITH gone AS (DELETE FROM chunk WHERE document_id = $1 ${ids ? "AND id = ANY($2)" : ""} RETURNING token_count)
     SELECT count(*) AS count, sum(token_count) AS tokens FROM gone`,
    ids ? [documentId, ids] : [documentId],
  );
  const count = Number(rows[0].count);
  await moveCounters(manager, documentId, knowledgeBaseId, -count, -Number(rows[0].tokens ?? 0));
  return count;
}
