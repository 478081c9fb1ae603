import type { DataSource, EntityManager } from "typeorm";
import type { ParseLog } from "../ingestion/parse-log";
import type { IngestedChunk } from "../ingestion/pipeline";
import { indexText } from "./search-terms";
import { EXACT_SCAN_LIMIT, vectorIndexStatement, vectorLiteral } from "./vector-index";

/**
 * The SQL behind chunks: rows are written in batches through `unnest` (one statement per batch, which
 * matters on the embedded database where every statement crosses into WebAssembly), together with their
 * vector and search terms. The counters of their document and knowledge base follow the rows through
 * triggers (migration LiveCounters), in the same statement: nothing here moves them by hand.
 */

/** A chunk row: one that ingestion made, a manual one, or a RAPTOR summary. */
export interface StoredChunk extends Omit<IngestedChunk, "kind" | "available"> {
  kind: "text" | "manual" | "raptor";
  available: boolean;
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

const indexedDimensions = new Set<number>();
const lastIndexCheck = new Map<number, number>();
const INDEX_CHECK_INTERVAL_MS = 60_000;

/** Builds the HNSW index of a dimension once its chunks outgrow exact search; checked at most once a minute per process. */
export async function ensureVectorIndex(db: DataSource, dimension: number): Promise<void> {
  if (indexedDimensions.has(dimension) || Date.now() - (lastIndexCheck.get(dimension) ?? 0) < INDEX_CHECK_INTERVAL_MS) return;
  lastIndexCheck.set(dimension, Date.now());
  const [{ large }]: { large: boolean }[] = await db.query(
    `SELECT count(*) > $2 AS large FROM (SELECT 1 FROM chunk WHERE dimension = $1 LIMIT $2 + 1) c`,
    [dimension, EXACT_SCAN_LIMIT],
  );
  if (!large) return;
  const statement = vectorIndexStatement(dimension);
  if (statement) await db.query(statement);
  indexedDimensions.add(dimension);
}

/**
 * The upsert of chunks as SQL whose parameters start at `$firstParameter` (a manual chunk added twice with
 * the same text replaces itself, as in RAGFlow), with `condition` (SQL) deciding whether rows go in at all.
 */
function chunkUpsert(chunks: StoredChunk[], firstParameter: number, condition = "true"): { sql: string; params: unknown[] } {
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
  const unnested = COLUMNS.map(([, type], i) => `$${firstParameter + i}::${type === "vector" || type === "jsonb" ? "text" : type}[]`);
  const casts = COLUMNS.map(([name, type]) => (type === "vector" || type === "jsonb" ? `t.${name}::${type}` : `t.${name}`));
  const updates = names.filter((n) => n !== "id" && n !== "created_at").map((n) => `${n} = excluded.${n}`);
  return {
    sql: `INSERT INTO chunk (${names.join(", ")})
     SELECT ${casts.join(", ")} FROM unnest(${unnested.join(", ")}) AS t(${names.join(", ")}) WHERE ${condition}
     ON CONFLICT (id) DO UPDATE SET ${updates.join(", ")}, created_at = now()`,
    params: columns,
  };
}

export async function insertChunks(manager: EntityManager, chunks: StoredChunk[]): Promise<void> {
  if (chunks.length === 0) return;
  const { sql, params } = chunkUpsert(chunks, 1);
  await manager.query(sql, params);
}

export interface DocumentCompletion {
  documentId: string;
  knowledgeBaseId: string;
  runId: string;
  /** The last chunks of the run, stored with the completion. */
  chunks: StoredChunk[];
  log: ParseLog;
  processDuration: number;
  pageCount: number | null;
}

/**
 * Marks a parse done and stores its last chunks in one statement (atomic, and one round trip to the
 * database). Nothing happens when the document's run is no longer `runId` — it was cancelled or parsed
 * again meanwhile: then it returns null. The counts returned are the document's once the statement's
 * triggers have added these chunks: a run's chunk ids are new (its document's old chunks went when it began).
 */
export async function completeDocument(db: DataSource, completion: DocumentCompletion): Promise<{ chunkCount: number; tokenCount: number } | null> {
  const tokens = completion.chunks.reduce((sum, c) => sum + c.tokenCount, 0);
  const { documentId, runId, log, processDuration, pageCount } = completion;
  const fixed = [documentId, runId, log.progressMsg, processDuration, pageCount, completion.chunks.length, tokens, JSON.stringify(log.progressLog)];
  const upsert = chunkUpsert(completion.chunks, fixed.length + 1, "EXISTS (SELECT 1 FROM done)");
  const rows: { chunk_count: number; token_count: string }[] = await db.query(
    `WITH done AS (
       UPDATE document SET run = '3', run_id = NULL, progress = 1, progress_msg = $3, progress_log = $8, process_duration = $4, page_count = $5, updated_at = now()
       WHERE id = $1 AND run_id = $2 RETURNING chunk_count + $6::int AS chunk_count, token_count + $7::bigint AS token_count
     ),
     stored AS (${upsert.sql} RETURNING id)
     SELECT chunk_count, token_count FROM done`,
    [...fixed, ...upsert.params],
  );
  return rows.length === 0 ? null : { chunkCount: Number(rows[0].chunk_count), tokenCount: Number(rows[0].token_count) };
}

/** Deletes the chunks of a document (all, or those ids); returns how many went. */
export async function deleteChunks(manager: EntityManager, documentId: string, ids?: string[]): Promise<number> {
  const [, count]: [unknown[], number] = await manager.query(`DELETE FROM chunk WHERE document_id = $1 ${ids ? "AND id = ANY($2)" : ""}`, ids ? [documentId, ids] : [documentId]);
  return count;
}
