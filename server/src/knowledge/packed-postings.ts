import os from "node:os";
import type { DataSource } from "typeorm";

/**
 * A knowledge base's postings packed for keyword search (retrieval/keyword-search.ts). `chunk_term` holds one row
 * per (knowledge base, term, chunk), which SQL reads and sums at about 1.7 µs a posting on the embedded database:
 * the keyword stage grows with every chunk. A pack holds the same postings as one row per term: the chunks as
 * 32-bit positions in the knowledge base's chunk list (`chunk_term_pack`: chunk ids in id order, their documents
 * and lengths) and their field-weighted frequencies as 32-bit floats, both big-endian (PostgreSQL's int4send and
 * float4send, so that the database builds a pack without the postings passing through the server). Keyword search
 * reads a question's rows and sums them in the server, ~0.1 µs a posting.
 *
 * A pack is exact for the version of the postings it was built from (`chunk_term_stats.version`, which changes with
 * every change to them, migrations/1764500000003-packed-postings.ts). Once they changed, keyword search leaves out
 * the pack's postings of the chunks changed since (`chunk_term_change`) and reads their current terms from the chunks
 * themselves; past CHANGED_CHUNKS_READ of them (retrieval/keyword-search.ts) it reads every posting in SQL. The
 * packer takes a pack's version and chunk list from one snapshot, so a change committed while it works is a change
 * since the pack, never lost (packPostings). It packs a knowledge base once its postings stayed the same for a
 * whole pass interval, not while documents are still being parsed into it, and deletes the change records its pack
 * covers.
 */

/** How often the packer looks for knowledge bases whose pack is stale. */
export const PACK_INTERVAL_MS = 10_000;
/**
 * A knowledge base is packed again no sooner than this many times the last packing's duration after it, so that
 * packing takes at most ~5 % of the database's time however often a large knowledge base changes (on the embedded
 * database, other statements wait while a pack is built: ~1 s for 5,800 chunks).
 */
const PACK_SPACING = 20;
/**
 * Postings packed by one statement at least (0.15–0.3 s on the embedded database at 46,288 chunks), and at least as
 * many as the knowledge base has chunks: each slice reads the whole chunk list, which should not cost more than its postings.
 */
const PACK_SLICE_POSTINGS = 50_000;
/** Rows (an old pack's, change records) deleted by one statement. */
const PACK_SLICE_ROWS = 5_000;
/** A build whose process has not worked on it for this long is taken over: that process died. */
const BUILD_ABANDONED_AFTER_MS = 60_000;

/** A knowledge base's chunk list, as a pack numbers its chunks. */
export interface PackedChunks {
  version: string;
  chunkIds: string[];
  documentIds: string[];
  /** Each chunk's length in terms (BM25's document length). */
  lengths: Int32Array;
}

/** One term's postings in a pack: positions in the chunk list and frequencies, one each per chunk holding the term. */
export interface PackedTerm {
  positions: Int32Array;
  tfs: Float32Array;
}

export function unpackTerm(positions: Buffer, tfs: Buffer): PackedTerm {
  return { positions: readInt32s(positions), tfs: readFloat32s(tfs) };
}

export function unpackChunks(row: { version: string; chunk_ids: string[]; document_ids: string[]; lengths: Buffer }): PackedChunks {
  // A document's chunks share one string for its id instead of one each.
  const documentIds = new Map<string, string>();
  const intern = (id: string) => documentIds.get(id) ?? (documentIds.set(id, id), id);
  return { version: row.version, chunkIds: row.chunk_ids, documentIds: row.document_ids.map(intern), lengths: readInt32s(row.lengths) };
}

function readInt32s(bytes: Buffer): Int32Array {
  return new Int32Array(inMachineOrder(bytes), 0, bytes.length >> 2);
}

function readFloat32s(bytes: Buffer): Float32Array {
  return new Float32Array(inMachineOrder(bytes), 0, bytes.length >> 2);
}

const LITTLE_ENDIAN = os.endianness() === "LE";

/** 32-bit big-endian values copied into a buffer of their own (aligned for a typed array), in this machine's order: ~8× faster than reading them one by one. */
function inMachineOrder(bytes: Buffer): ArrayBuffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length - (bytes.length % 4));
  bytes.copy(copy, 0, 0, copy.length);
  if (LITTLE_ENDIAN) copy.swap32();
  return copy.buffer;
}

/**
 * Packs a knowledge base's postings as they are now, unless its pack is current or another process is building it.
 * Returns whether it packed.
 *
 * It is built in slices, each its own short statement, so that on the embedded database (where every other statement
 * waits while one runs) no one waits for a whole pack: at 92,576 chunks, one statement took 37 s.
 * 1. One snapshot gives the version and the chunk list the pack numbers its chunks by, stored with the claim
 *    (`chunk_term_pack_build`), which keeps other processes from building it meanwhile.
 * 2. The terms, in their order, PACK_SLICE_POSTINGS (`slicePostings`) postings at a time or one per chunk, whichever is
 *    more, are written as rows of that version beside the pack in use. A slice reads the postings as they are when it runs: a chunk that changed since the snapshot
 *    may be packed as it was or as it is, but it is a change since the pack's version, which keyword search reads
 *    from the chunk itself, leaving out whatever the pack holds of it.
 * 3. One statement makes the new pack the one in use; then the old pack's rows and the change records the new one
 *    covers are deleted, slice by slice too.
 */
export async function packPostings(db: DataSource, knowledgeBaseId: string, slicePostings = PACK_SLICE_POSTINGS): Promise<boolean> {
  const claimed = await claimBuild(db, knowledgeBaseId);
  if (claimed === null) return false;
  const { version } = claimed;
  const postingsPerSlice = Math.max(slicePostings, claimed.chunks);
  try {
    let after: string | null = null;
    for (;;) {
      // The last term of the next slice: the one `postingsPerSlice` postings on, or none for the rest.
      const [bound]: { term: string }[] = await db.query(
        `SELECT term FROM chunk_term WHERE knowledge_base_id = $1 AND ($2::text IS NULL OR term > $2) ORDER BY term OFFSET $3 LIMIT 1`,
        [knowledgeBaseId, after, postingsPerSlice - 1],
      );
      if (!(await packSlice(db, knowledgeBaseId, version, after, bound?.term ?? null))) return false;
      if (!bound) break;
      after = bound.term;
    }
    const [used]: unknown[] = await db.query(
      `WITH built AS (DELETE FROM chunk_term_pack_build WHERE knowledge_base_id = $1 AND version = $2 RETURNING *),
         used AS (
           INSERT INTO chunk_term_pack (knowledge_base_id, version, chunk_ids, document_ids, lengths)
           SELECT knowledge_base_id, version, chunk_ids, document_ids, lengths FROM built
           ON CONFLICT (knowledge_base_id) DO UPDATE SET version = EXCLUDED.version, chunk_ids = EXCLUDED.chunk_ids, document_ids = EXCLUDED.document_ids, lengths = EXCLUDED.lengths
           RETURNING version
         )
       SELECT version FROM used`,
      [knowledgeBaseId, version],
    );
    if (!used) return false;
    await deleteOtherVersions(db, knowledgeBaseId, version);
    await deleteCoveredChanges(db, knowledgeBaseId, version);
    return true;
  } catch (error) {
    // The claim goes, so that the next pass builds again at once; the rows written go when it starts.
    await db.query(`DELETE FROM chunk_term_pack_build WHERE knowledge_base_id = $1 AND version = $2`, [knowledgeBaseId, version]).catch(() => undefined);
    throw error;
  }
}

/**
 * Claims the knowledge base's next pack, with the version and chunk list of one snapshot, unless its pack is current
 * or another process is building it (a claim left untouched for BUILD_ABANDONED_AFTER_MS is taken over: its process died).
 * The rows a build left unfinished go first. Returns the version claimed and how many chunks its list has.
 */
async function claimBuild(db: DataSource, knowledgeBaseId: string): Promise<{ version: string; chunks: number } | null> {
  const version = await db.transaction("REPEATABLE READ", async (tx) => {
    const [current]: { version: string; packed: string | null }[] = await tx.query(
      `SELECT s.version, p.version AS packed FROM chunk_term_stats s LEFT JOIN chunk_term_pack p USING (knowledge_base_id) WHERE s.knowledge_base_id = $1`,
      [knowledgeBaseId],
    );
    if (!current || current.version === current.packed) return null;
    // The chunks in id order, from the snapshot that read the version.
    const [claimed]: { chunks: number | null }[] = await tx.query(
      `INSERT INTO chunk_term_pack_build (knowledge_base_id, version, chunk_ids, document_ids, lengths)
       SELECT $1::varchar, $2::bigint, coalesce(array_agg(id ORDER BY id), '{}'), coalesce(array_agg(document_id ORDER BY id), '{}'),
         coalesce(string_agg(int4send(term_count), ''::bytea ORDER BY id), ''::bytea)
       FROM chunk WHERE knowledge_base_id = $1
       ON CONFLICT (knowledge_base_id) DO UPDATE SET version = EXCLUDED.version, chunk_ids = EXCLUDED.chunk_ids, document_ids = EXCLUDED.document_ids,
         lengths = EXCLUDED.lengths, touched_at = now()
       WHERE chunk_term_pack_build.touched_at < now() - $3::interval
       RETURNING array_length(chunk_ids, 1) AS chunks`,
      [knowledgeBaseId, current.version, `${BUILD_ABANDONED_AFTER_MS} milliseconds`],
    );
    return claimed ? { version: current.version, packed: current.packed, chunks: claimed.chunks ?? 0 } : null;
  });
  if (!version) return null;
  await deleteOtherVersions(db, knowledgeBaseId, version.packed ?? "0");
  return { version: version.version, chunks: version.chunks };
}

/**
 * Packs the terms after `after` up to `last` (all that follow, if none) for the build of `version`, and marks the claim
 * as worked on. False when the claim is no longer this build's: taken over, or the knowledge base deleted.
 */
function packSlice(db: DataSource, knowledgeBaseId: string, version: string, after: string | null, last: string | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [build]: unknown[] = await tx.query(`UPDATE chunk_term_pack_build SET touched_at = now() WHERE knowledge_base_id = $1 AND version = $2 RETURNING version`, [
      knowledgeBaseId,
      version,
    ]);
    if (!build) return false;
    // The chunk list comes from an array, whose length the planner does not know (it guesses 10): left to itself it
    // looks each of its ids up in the slice's postings, 35 s a slice at 46,288 chunks, instead of hashing them once
    // (0.2 s). A nested loop stays only where it must: the list's one row beside its array.
    await tx.query(`SET LOCAL enable_nestloop = off`);
    // Within a group both aggregates see the rows in the same order, so positions and frequencies pair up.
    await tx.query(
      `INSERT INTO chunk_term_packed (knowledge_base_id, term, version, positions, tfs)
       SELECT $1::varchar, t.term, $2::bigint, string_agg(int4send(c.position), ''::bytea), string_agg(float4send(t.tf), ''::bytea)
       FROM chunk_term t JOIN (
         SELECT u.id, (u.n - 1)::int AS position FROM chunk_term_pack_build b, unnest(b.chunk_ids) WITH ORDINALITY AS u(id, n) WHERE b.knowledge_base_id = $1
       ) c ON c.id = t.chunk_id
       WHERE t.knowledge_base_id = $1 AND ($3::text IS NULL OR t.term > $3) AND ($4::text IS NULL OR t.term <= $4)
       GROUP BY t.term`,
      [knowledgeBaseId, version, after, last],
    );
    return true;
  });
}

/** Deletes the knowledge base's packed rows of any version but `kept`. */
function deleteOtherVersions(db: DataSource, knowledgeBaseId: string, kept: string): Promise<void> {
  return deleteInSlices(db, "chunk_term_packed", "knowledge_base_id, term, version", "version <> $2", [knowledgeBaseId, kept]);
}

/**
 * Deletes the change records the pack of `version` covers (a large upload leaves one per chunk). Keyword search reads
 * only those newer than the pack in use, so they may go after it took its place.
 */
function deleteCoveredChanges(db: DataSource, knowledgeBaseId: string, version: string): Promise<void> {
  return deleteInSlices(db, "chunk_term_change", "knowledge_base_id, version, chunk_id", "version <= $2", [knowledgeBaseId, version]);
}

/**
 * Deletes a knowledge base's rows of `table` that `condition` selects, PACK_SLICE_ROWS at a time, each slice its own
 * statement. `key` is the table's primary key; `params` are the knowledge base's id ($1) and the condition's.
 */
async function deleteInSlices(db: DataSource, table: "chunk_term_packed" | "chunk_term_change", key: string, condition: string, params: unknown[]): Promise<void> {
  for (;;) {
    const deleted: unknown[] = await db.query(
      `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE knowledge_base_id = $1 AND ${condition} LIMIT ${PACK_SLICE_ROWS}) RETURNING 1`,
      params,
    );
    if (deleted.length < PACK_SLICE_ROWS) return;
  }
}

/**
 * Packs stale knowledge bases in the background: every interval (PACK_INTERVAL_MS), those whose postings did not change
 * since the previous look, one at a time. Every server process runs one; a build's claim keeps them apart.
 */
export class PostingsPacker {
  private staleBefore = new Map<string, string>();
  /** When each knowledge base packed lately may be packed again (Date.now() milliseconds). */
  private packableAfter = new Map<string, number>();
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly intervalMs = PACK_INTERVAL_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.enqueue(() => this.packQuiet()).catch(() => undefined), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Packs every stale knowledge base now, quiet or not (benchmarks, tests); returns how many it packed. */
  packAll(): Promise<number> {
    return this.enqueue(async () => {
      let packed = 0;
      for (const { knowledgeBaseId } of await this.stale()) if (await this.pack(knowledgeBaseId)) packed++;
      return packed;
    });
  }

  /** Runs a pass after those before it; a failed pass is logged, and the next one runs all the same. */
  private enqueue<T>(pass: () => Promise<T>): Promise<T> {
    const result = this.running.then(pass);
    this.running = result.then(
      () => undefined,
      (error) => console.error("[knowledge] packing postings failed:", error),
    );
    return result;
  }

  private async packQuiet(): Promise<void> {
    const stale = await this.stale();
    const seenBefore = this.staleBefore;
    this.staleBefore = new Map(stale.map((s) => [s.knowledgeBaseId, s.version]));
    for (const [knowledgeBaseId, after] of this.packableAfter) if (after <= Date.now()) this.packableAfter.delete(knowledgeBaseId);
    for (const { knowledgeBaseId, version } of stale) {
      if (this.timer === null || !this.db.isInitialized) return;
      const quiet = seenBefore.get(knowledgeBaseId) === version;
      if (!quiet || this.packableAfter.has(knowledgeBaseId)) continue;
      // One knowledge base failing (deleted while packed, say) leaves the others to be packed.
      await this.pack(knowledgeBaseId).catch((error) => console.error(`[knowledge] packing the postings of knowledge base ${knowledgeBaseId} failed:`, error));
    }
  }

  private async pack(knowledgeBaseId: string): Promise<boolean> {
    const started = Date.now();
    const packed = await packPostings(this.db, knowledgeBaseId);
    const finished = Date.now();
    this.packableAfter.set(knowledgeBaseId, finished + PACK_SPACING * (finished - started));
    return packed;
  }

  /** The knowledge bases whose pack is stale or missing; first forgets the changes of knowledge bases deleted. */
  private async stale(): Promise<{ knowledgeBaseId: string; version: string }[]> {
    await this.db.query(`DELETE FROM chunk_term_change c WHERE NOT EXISTS (SELECT 1 FROM chunk_term_stats s WHERE s.knowledge_base_id = c.knowledge_base_id)`);
    const rows: { knowledge_base_id: string; version: string }[] = await this.db.query(
      `SELECT s.knowledge_base_id, s.version FROM chunk_term_stats s LEFT JOIN chunk_term_pack p USING (knowledge_base_id) WHERE p.version IS DISTINCT FROM s.version`,
    );
    return rows.map((r) => ({ knowledgeBaseId: r.knowledge_base_id, version: r.version }));
  }
}
