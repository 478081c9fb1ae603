import type { DataSource, EntityManager } from "typeorm";
import type { ParseLog } from "../ingestion/parse-log";
import { isEmbedded } from "../platform/database";
import type { IngestedChunk } from "../ingestion/pipeline";
import { indexText } from "./search-terms";
import { EXACT_SCAN_LIMIT, vectorArrayParameter, vectorIndexName, vectorIndexStatement, vectorTypeOf } from "./vector-index";

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
/** When each knowledge base was last checked, per dimension ("dimension:id"). */
const lastIndexCheck = new Map<string, number>();
const INDEX_CHECK_INTERVAL_MS = 60_000;

/**
 * Builds the HNSW index of a dimension once the knowledge base being written to outgrows exact search (vector-index.ts);
 * checked at most once a minute per process and knowledge base. Not on the embedded database, where every other
 * statement waits while one runs: building it over 92,576 chunks took 235 s, and it then costs every chunk inserted of
 * the dimension 7.5 ms; there the rare question that shares no word with any chunk scans the knowledge base's vectors
 * exactly instead (0.13–0.23 s per 20,000 chunks of 1,024 dimensions, measured on a busy machine).
 */
export async function ensureVectorIndex(db: DataSource, dimension: number, knowledgeBaseId: string, limit = EXACT_SCAN_LIMIT): Promise<void> {
  const key = `${dimension}:${knowledgeBaseId}`;
  if (isEmbedded(db) || indexedDimensions.has(dimension) || Date.now() - (lastIndexCheck.get(key) ?? 0) < INDEX_CHECK_INTERVAL_MS) return;
  lastIndexCheck.set(key, Date.now());
  if (await indexVectorsWhenLarge(db, dimension, knowledgeBaseId, limit)) indexedDimensions.add(dimension);
}

/**
 * The check itself, at once: builds the index of the dimension when the knowledge base has more chunks than exact
 * search serves (`limit`); true when it has. Its count is the postings' collection statistics, one row.
 */
export async function indexVectorsWhenLarge(db: DataSource, dimension: number, knowledgeBaseId: string, limit = EXACT_SCAN_LIMIT): Promise<boolean> {
  const [stats]: { chunks: number }[] = await db.query(`SELECT chunks FROM chunk_term_stats WHERE knowledge_base_id = $1`, [knowledgeBaseId]);
  if (!stats || stats.chunks <= limit) return false;
  const statement = vectorIndexStatement(dimension);
  if (statement) await buildVectorIndex(db, dimension, statement);
  return true;
}

// Any fixed number: with the dimension, the advisory lock that keeps two processes from building one index at once.
const INDEX_LOCK = 7_335_105;

/**
 * Builds the index of a dimension, in one process at a time (a session's advisory lock, on one connection: another
 * process finds it taken and leaves the build to its holder). A build stopped halfway (its process died) leaves an
 * invalid index that `IF NOT EXISTS` would keep forever: it is dropped, and built again.
 */
async function buildVectorIndex(db: DataSource, dimension: number, statement: string): Promise<void> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }]: { locked: boolean }[] = await runner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [INDEX_LOCK, dimension]);
    if (!locked) return;
    try {
      const [left]: { valid: boolean }[] = await runner.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [vectorIndexName(dimension)]);
      if (left && !left.valid) await runner.query(`DROP INDEX CONCURRENTLY ${vectorIndexName(dimension)}`);
      await runner.query(statement);
    } finally {
      await runner.query(`SELECT pg_advisory_unlock($1, $2)`, [INDEX_LOCK, dimension]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * The upsert of chunks as SQL whose parameters start at `$firstParameter` (a manual chunk added twice with
 * the same text replaces itself, as in RAGFlow), with `condition` (SQL) deciding whether rows go in at all. The
 * vectors go in binary (`vectorType` is the vector type's OID: vectorTypeOf), the other columns as arrays of their values.
 */
function chunkUpsert(chunks: StoredChunk[], firstParameter: number, vectorType: number, condition = "true"): { sql: string; params: unknown[] } {
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
      chunk.vector,
      JSON.stringify(indexed.terms),
      indexed.termCount,
    ];
    row.forEach((value, i) => columns[i].push(value));
  }
  const names = COLUMNS.map(([name]) => name);
  const unnested = COLUMNS.map(([, type], i) => `$${firstParameter + i}::${type === "jsonb" ? "text" : type}[]`);
  const casts = COLUMNS.map(([name, type]) => (type === "jsonb" ? `t.${name}::${type}` : `t.${name}`));
  const updates = names.filter((n) => n !== "id" && n !== "created_at").map((n) => `${n} = excluded.${n}`);
  return {
    sql: `INSERT INTO chunk (${names.join(", ")})
     SELECT ${casts.join(", ")} FROM unnest(${unnested.join(", ")}) AS t(${names.join(", ")}) WHERE ${condition}
     ON CONFLICT (id) DO UPDATE SET ${updates.join(", ")}, created_at = now()`,
    params: COLUMNS.map(([, type], i) => (type === "vector" ? vectorArrayParameter(columns[i] as number[][], vectorType) : columns[i])),
  };
}

export async function insertChunks(manager: EntityManager, chunks: StoredChunk[]): Promise<void> {
  if (chunks.length === 0) return;
  const { sql, params } = chunkUpsert(chunks, 1, await vectorTypeOf(manager));
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
 * Marks parses done and stores their last chunks in one statement (atomic, and one round trip to the database
 * for all of them). A document whose run is no longer its completion's `runId` — it was cancelled or parsed
 * again meanwhile — is left as it is and its chunks are not stored: its entry in the answer is null. The counts
 * returned are the document's once the statement's triggers have added these chunks: a run's chunk ids are new
 * (its document's old chunks went when it began).
 */
export async function completeDocuments(db: DataSource, completions: DocumentCompletion[]): Promise<({ chunkCount: number; tokenCount: number } | null)[]> {
  const column = <T>(value: (c: DocumentCompletion) => T) => completions.map(value);
  const fixed = [
    column((c) => c.documentId),
    column((c) => c.runId),
    column((c) => c.log.progressMsg),
    column((c) => c.processDuration),
    column((c) => c.pageCount),
    column((c) => c.chunks.length),
    column((c) => c.chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0)),
    column((c) => JSON.stringify(c.log.progressLog)),
  ];
  const upsert = chunkUpsert(
    completions.flatMap((c) => c.chunks),
    fixed.length + 1,
    await vectorTypeOf(db.manager),
    "t.document_id IN (SELECT id FROM done)",
  );
  const rows: { id: string; chunk_count: number; token_count: string }[] = await db.query(
    `WITH done AS (
       UPDATE document d SET run = '3', run_id = NULL, progress = 1, progress_msg = c.progress_msg, progress_log = c.progress_log::jsonb,
         process_duration = c.process_duration, page_count = c.page_count, updated_at = now()
       FROM unnest($1::varchar[], $2::varchar[], $3::text[], $4::float8[], $5::int[], $6::int[], $7::bigint[], $8::text[])
         AS c(id, run_id, progress_msg, process_duration, page_count, chunks, tokens, progress_log)
       WHERE d.id = c.id AND d.run_id = c.run_id
       RETURNING d.id, d.chunk_count + c.chunks AS chunk_count, d.token_count + c.tokens AS token_count
     ),
     stored AS (${upsert.sql} RETURNING id)
     SELECT id, chunk_count, token_count FROM done`,
    [...fixed, ...upsert.params],
  );
  const finished = new Map(rows.map((row) => [row.id, { chunkCount: Number(row.chunk_count), tokenCount: Number(row.token_count) }]));
  return completions.map((c) => finished.get(c.documentId) ?? null);
}

/** Deletes the chunks of a document (all, or those ids); returns how many went. */
export async function deleteChunks(manager: EntityManager, documentId: string, ids?: string[]): Promise<number> {
  const [, count]: [unknown[], number] = await manager.query(`DELETE FROM chunk WHERE document_id = $1 ${ids ? "AND id = ANY($2)" : ""}`, ids ? [documentId, ids] : [documentId]);
  return count;
}
