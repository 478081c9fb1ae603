import type { Services } from "../platform/services";
import { ingestDocument, failureOf, type ChunkSink } from "../ingestion/pipeline";
import { appendLogLine, logMessage, type LogMessage, type ParseLog } from "../ingestion/parse-log";
import { countIngestedDocument, timed } from "../ingestion/stage-timings";
import { ParseError } from "../ingestion/types";
import { onLexiconPreparation } from "../models/builtin/lexicon";
import { deleteChunks, ensureVectorIndex, insertChunks } from "./chunk-store";
import { completeDocument } from "./completion-writer";
import { Document, RUN } from "./document.entity";
import type { Run } from "../platform/runs/cancellable-runs";
import { PublishedState } from "../platform/runs/published-state";
import { parseRuns, publishProgress } from "./document-events";
import { KnowledgeBase } from "./knowledge-base.entity";

/**
 * A document's parse run, the knowledge domain's side of ingestion: it takes the document for the run,
 * counts the attempt, follows cancellation, keeps the progress and log, hands ingestion (ingestion/pipeline.ts)
 * the ports it works through — among them the step that stores chunks — and completes or fails the document.
 * Progress is published as it goes; the database is written at the start, at most once a second while running
 * (the latest progress always, platform/runs/published-state.ts), and at the end.
 */

/** Attempts of one run: a failure is retried (a model provider may be down for a moment), a third ends it. */
export const PARSE_ATTEMPTS = 3;
const PROGRESS_WRITE_INTERVAL_MS = 1000;

export class ParseCancelled extends Error {
  constructor() {
    super("Parsing was cancelled");
  }
}

/** Keeps the document's progress and log, publishes every change and writes it to the database now and then (PublishedState). */
class Progress {
  private log: ParseLog;
  private readonly state: PublishedState;

  constructor(
    private readonly services: Services,
    private readonly document: Document,
    private readonly runId: string,
    private readonly run: Run,
  ) {
    this.log = { progressMsg: document.progressMsg, progressLog: document.progressLog };
    this.state = new PublishedState(() => publishProgress(services.platform, document), () => this.store(), PROGRESS_WRITE_INTERVAL_MS);
  }

  get messages(): ParseLog {
    return this.log;
  }

  async report(progress: number, message?: LogMessage): Promise<void> {
    if (message) this.log = appendLogLine(this.log, message);
    this.document.progress = Math.max(this.document.progress, Math.min(progress, 0.99));
    Object.assign(this.document, this.log);
    await this.state.changed();
    this.throwIfCancelled();
  }

  /** No more progress writes: the run's end is written next. */
  stop(): Promise<void> {
    return this.state.stop();
  }

  private async store(): Promise<boolean> {
    // Only while this run is the document's: a cancel or a new run in between must not be overwritten.
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows]: [unknown[], number] = await this.services.platform.db.query(
      `UPDATE document SET progress = $3, progress_msg = $4, progress_log = $5 WHERE id = $1 AND run_id = $2 RETURNING id`,
      [this.document.id, this.runId, this.document.progress, this.log.progressMsg, JSON.stringify(this.log.progressLog)],
    );
    if (rows.length === 0) this.run.abort();
    return rows.length > 0;
  }

  throwIfCancelled(): void {
    if (this.run.signal.aborted) throw new ParseCancelled();
  }
}

/** The document with its knowledge base, in one query (on small documents every round trip counts), if this run is still its own. */
async function documentOfRun(services: Services, documentId: string, runId: string): Promise<{ document: Document; kb: KnowledgeBase } | null> {
  const found = await services.platform.db
    .getRepository(Document)
    .createQueryBuilder("d")
    .innerJoinAndMapOne("d.knowledgeBase", KnowledgeBase, "kb", "kb.id = d.knowledgeBaseId")
    .where("d.id = :documentId", { documentId })
    .getOne();
  if (!found || found.runId !== runId || found.run !== RUN.running) return null;
  const { knowledgeBase: kb, ...fields } = found as Document & { knowledgeBase: KnowledgeBase };
  return { document: Object.assign(new Document(), fields), kb };
}

/**
 * Counts the attempt, and says it in the log, before it starts: if it takes the process down, the next start
 * knows. False when another process counted it first.
 */
async function countAttempt(services: Services, document: Document, runId: string): Promise<boolean> {
  const attempt = document.parseAttempts + 1;
  if (attempt === 1) Object.assign(document, appendLogLine(document, logMessage("parseLog.received")));
  else if (attempt <= PARSE_ATTEMPTS) Object.assign(document, appendLogLine(document, logMessage("parseLog.receivedAgain", { attempt, attempts: PARSE_ATTEMPTS })));
  const [counted]: [unknown[], number] = await services.platform.db.query(
    `UPDATE document SET parse_attempts = $3, progress_msg = $4, progress_log = $5 WHERE id = $1 AND run_id = $2 AND parse_attempts = $6 RETURNING id`,
    [document.id, runId, attempt, document.progressMsg, JSON.stringify(document.progressLog), document.parseAttempts],
  );
  if (counted.length === 0) return false;
  document.parseAttempts = attempt;
  return true;
}

/** Where ingestion's chunks go: the chunk table, batch by batch (the last batch is stored with the completion). */
function chunkTable(services: Services, knowledgeBaseId: string): ChunkSink {
  const { db } = services.platform;
  return {
    prepare: (dimension) => ensureVectorIndex(db, dimension, knowledgeBaseId),
    store: (chunks) => insertChunks(db.manager, chunks),
  };
}

export async function runParse(services: Services, documentId: string, runId: string): Promise<void> {
  const { db, storage } = services.platform;
  const taken = await timed("start", async () => {
    const found = await documentOfRun(services, documentId, runId);
    return found && (await countAttempt(services, found.document, runId)) ? found : null;
  });
  if (!taken) return;
  const { document, kb } = taken;
  if (document.parseAttempts > PARSE_ATTEMPTS) {
    await failDocument(services, documentId, runId, ParseError.because("errors.parsing.tooManyAttempts", { attempts: PARSE_ATTEMPTS }));
    return;
  }
  // A cancel from any process aborts the run's signal, and with it the model calls in flight.
  const run = parseRuns(services.platform).start(document.id);
  const progress = new Progress(services, document, runId, run);
  // A parse that waits for the built-in models says why, step by step (only where the build did not prepare them).
  const stopFollowingModels = onLexiconPreparation(
    (preparation) => void progress.report(document.progress, logMessage("parseLog.preparingModels", { percent: Math.round(preparation.fraction * 100) })).catch(() => undefined),
  );
  const abort = new AbortController();
  run.signal.addEventListener("abort", () => abort.abort(), { once: true });
  const startedAt = document.processBeginAt ? new Date(document.processBeginAt).getTime() : Date.now();

  try {
    await progress.report(0.01);
    // A retried or resumed job may have stored part of its chunks before it stopped.
    if (document.chunkCount > 0) await deleteChunks(db.manager, document.id);
    const ingested = await ingestDocument(
      {
        id: document.id,
        knowledgeBaseId: document.knowledgeBaseId,
        tenantId: document.tenantId,
        name: document.name,
        suffix: document.suffix,
        size: document.size,
        chunkMethod: document.chunkMethod,
        config: document.parserConfig,
        language: kb.language,
        embeddingModel: kb.embeddingModel,
      },
      {
        models: services.models,
        parsers: services.parsers,
        storage,
        read: () => storage.getBuffer(document.storageKey),
        report: (fraction, message) => progress.report(fraction, message),
        throwIfCancelled: () => progress.throwIfCancelled(),
        abort,
        sink: chunkTable(services, document.knowledgeBaseId),
      },
    );

    await progress.stop();
    const duration = Math.max((Date.now() - startedAt) / 1000, 0.001);
    const log = appendLogLine(progress.messages, logMessage("parseLog.done", { seconds: duration.toFixed(2) }));
    const finished = await timed("write", () => completeDocument(db, {
      documentId: document.id,
      knowledgeBaseId: document.knowledgeBaseId,
      runId,
      chunks: ingested.lastBatch,
      log,
      processDuration: duration,
      pageCount: ingested.pageCount,
    }));
    // Cancelled or superseded meanwhile: nothing was stored.
    if (!finished) throw new ParseCancelled();
    countIngestedDocument();
    Object.assign(document, { run: RUN.done, progress: 1, ...log, processDuration: duration, pageCount: ingested.pageCount, ...finished });
    publishProgress(services.platform, document);
  } catch (error) {
    abort.abort();
    await progress.stop();
    if (error instanceof ParseCancelled || run.signal.aborted) {
      // The user cancelled: whatever was stored meanwhile goes, and the document stays "cancelled".
      await deleteChunks(db.manager, document.id);
      return;
    }
    if (error instanceof ParseError) {
      await failDocument(services, document.id, runId, error);
      return;
    }
    throw error;
  } finally {
    stopFollowingModels();
    run.end();
  }
}

/** Marks a document failed with its reason, unless another run took it over meanwhile. */
export async function failDocument(services: Services, documentId: string, runId: string, error: Error): Promise<void> {
  const { db } = services.platform;
  const document = await db.getRepository(Document).findOneBy({ id: documentId });
  if (!document || document.runId !== runId) return;
  const duration = document.processBeginAt ? (Date.now() - new Date(document.processBeginAt).getTime()) / 1000 : 0;
  const failure = failureOf(error);
  const log = appendLogLine(document, logMessage("parseLog.failed", { reason: failure ?? error.message }));
  await db.transaction(async (m) => {
    await deleteChunks(m, document.id);
    await m.update(Document, { id: documentId, runId }, {
      run: RUN.failed,
      runId: null,
      progress: -1,
      progressMsg: log.progressMsg,
      processDuration: duration,
      // TypeORM cannot type a partial update of a JSON record
      progressLog: log.progressLog as never,
      failure: failure as never,
    });
  });
  publishProgress(services.platform, await db.getRepository(Document).findOneByOrFail({ id: documentId }));
}
