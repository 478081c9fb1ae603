import type { DataSource } from "typeorm";
import { GroupedStatement } from "../platform/grouped-statement";
import { completeDocuments, type DocumentCompletion } from "./chunk-store";

type Finished = { chunkCount: number; tokenCount: number } | null;

/** Most completions in one statement: SciFact's abstracts make ~1 chunk each, a long document's last batch up to 32. */
const MAX_COMPLETIONS_PER_STATEMENT = 64;

/**
 * Group commit of parse completions (GroupedStatement): documents parsed side by side cost one statement — one
 * transaction, one pass of the chunk triggers — instead of one each. Each caller learns its own document's outcome
 * only once its statement committed, so a job is never acknowledged before its chunks are stored.
 */
const writers = new WeakMap<DataSource, GroupedStatement<DocumentCompletion, Finished>>();

/**
 * Marks a parse done and stores its last chunks, atomically, written together with the other completions that
 * arrive meanwhile. Null when the document's run is no longer `runId` (cancelled or parsed again): then nothing
 * was stored.
 */
export function completeDocument(db: DataSource, completion: DocumentCompletion): Promise<Finished> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new GroupedStatement((completions) => completeDocuments(db, completions), { maxItems: MAX_COMPLETIONS_PER_STATEMENT })));
  return writer.submit(completion);
}
