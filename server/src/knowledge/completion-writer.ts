import type { DataSource } from "typeorm";
import { completeDocuments, type DocumentCompletion } from "./chunk-store";

type Finished = { chunkCount: number; tokenCount: number } | null;

interface Waiting {
  completion: DocumentCompletion;
  resolve(finished: Finished): void;
  reject(error: unknown): void;
}

/** Most completions in one statement: SciFact's abstracts make ~1 chunk each, a long document's last batch up to 32. */
const MAX_COMPLETIONS_PER_STATEMENT = 64;

/**
 * Group commit of parse completions: the completions that arrive while one statement is being written go
 * together in the next (completeDocuments), so that documents parsed side by side cost one statement — one
 * transaction, one pass of the chunk triggers — instead of one each. Nothing waits for company: a completion
 * that finds the database idle is written at once. Each caller still learns its own document's outcome only
 * once its statement committed, so a job is never acknowledged before its chunks are stored. When a statement
 * of several fails, each is written again alone, so that one document's failure is its own.
 */
class CompletionWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: DataSource) {}

  complete(completion: DocumentCompletion): Promise<Finished> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ completion, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_COMPLETIONS_PER_STATEMENT);
        try {
          const finished = await completeDocuments(this.db, batch.map((w) => w.completion));
          batch.forEach((w, i) => w.resolve(finished[i]));
        } catch (error) {
          if (batch.length === 1) batch[0].reject(error);
          else for (const w of batch) await completeDocuments(this.db, [w.completion]).then(([finished]) => w.resolve(finished), w.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

const writers = new WeakMap<DataSource, CompletionWriter>();

/**
 * Marks a parse done and stores its last chunks, atomically, written together with the other completions that
 * arrive meanwhile. Null when the document's run is no longer `runId` (cancelled or parsed again): then nothing
 * was stored.
 */
export function completeDocument(db: DataSource, completion: DocumentCompletion): Promise<Finished> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new CompletionWriter(db)));
  return writer.complete(completion);
}
