import { xxh64 } from "@node-rs/xxhash";
import type { Services } from "../services";
import { completeDocument, deleteChunks, ensureVectorIndex, insertChunks, type StoredChunk } from "../knowledge/chunk-store";
import { Document, RUN } from "../knowledge/document.entity";
import { parseRuns, publishProgress } from "../knowledge/document-events";
import { appendLogLine, logMessage, type LogMessage, type ParseLog } from "../knowledge/parse-log";
import { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { onLexiconPreparation } from "../models/builtin/lexicon";
import type { EmbeddingModel } from "../models/model-types";
import { countTokens } from "../models/tokens";
import { chunkMethod } from "./chunkers/registry";
import { generateKeywords } from "./enrichment/keywords";
import { generateQuestions } from "./enrichment/questions";
import type { EnrichmentContext } from "./enrichment/context";
import { parserFor } from "./parsers/registry";
import { DomainError } from "../platform/errors";
import type { Run } from "../platform/runs/cancellable-runs";
import { chunkParsed, type Chunked } from "./chunking";
import type { ParsePhase } from "./sandbox/messages";
import { ParseError, type ChunkDraft, type FailureReason, type ParsedDocument } from "./types";

/**
 * One document through ingestion: read the stored file, parse, chunk (per window of `task_page_size`
 * pages), enrich (keywords, questions), embed in batches, store chunks with their vectors and search
 * terms. RAPTOR summaries and the knowledge graph are knowledge-base tasks the user starts
 * (knowledge/kb-tasks), as in RAGFlow v0.24, not steps of every parse. Progress is published as it
 * goes; the database is written at the start, at most once a second while running, and at the end,
 * because on the embedded database every write costs the one thread that also parses and embeds.
 */

const EMBED_BATCH = 32;
/** Attempts of one run: a failure is retried (a model provider may be down for a moment), a third ends it. */
export const PARSE_ATTEMPTS = 3;
const PROGRESS_WRITE_INTERVAL_MS = 1000;

export class ParseCancelled extends Error {
  constructor() {
    super("Parsing was cancelled");
  }
}

/** Keeps the document's progress and log, publishes every change and writes it to the database now and then. */
class Progress {
  private log: ParseLog;
  private lastWrite = Date.now();

  constructor(
    private readonly services: Services,
    private readonly document: Document,
    private readonly runId: string,
    private readonly run: Run,
  ) {
    this.log = { progressMsg: document.progressMsg, progressLog: document.progressLog };
  }

  get messages(): ParseLog {
    return this.log;
  }

  async report(progress: number, message?: LogMessage): Promise<void> {
    if (message) this.log = appendLogLine(this.log, message);
    this.document.progress = Math.max(this.document.progress, Math.min(progress, 0.99));
    Object.assign(this.document, this.log);
    publishProgress(this.services.platform, this.document);
    if (Date.now() - this.lastWrite >= PROGRESS_WRITE_INTERVAL_MS) {
      this.lastWrite = Date.now();
      // Only while this run is the document's: a cancel or a new run in between must not be overwritten.
      // TypeORM answers an UPDATE with [rows, affected count].
      const [rows]: [unknown[], number] = await this.services.platform.db.query(
        `UPDATE document SET progress = $3, progress_msg = $4, progress_log = $5 WHERE id = $1 AND run_id = $2 RETURNING id`,
        [this.document.id, this.runId, this.document.progress, this.log.progressMsg, JSON.stringify(this.log.progressLog)],
      );
      if (rows.length === 0) this.run.abort();
    }
    this.throwIfCancelled();
  }

  throwIfCancelled(): void {
    if (this.run.signal.aborted) throw new ParseCancelled();
  }
}

/** A chunk's id: xxHash64 of its text, document and place (RAPTOR summaries use it too). */
export function chunkId(documentId: string, ordinal: number, content: string): string {
  return xxh64(`${content}${documentId}${ordinal}`).toString(16).padStart(16, "0");
}

/**
 * Chunk vectors mixed with the document name's vector at `nameWeight` (RAGFlow's filename_embd_weight).
 * The name is embedded in the same call as the first texts; pass its vector back for later batches.
 */
export async function embedWithName(
  model: EmbeddingModel,
  texts: string[],
  name: { text: string; vector: number[] | null; weight: number },
  signal?: AbortSignal,
): Promise<{ vectors: number[][]; nameVector: number[] | null }> {
  const needsName = name.weight > 0 && !name.vector;
  const { vectors } = await model.embed(needsName ? [name.text, ...texts] : texts, { purpose: "document", signal });
  const nameVector = needsName ? vectors.shift()! : name.vector;
  if (!nameVector || name.weight <= 0) return { vectors, nameVector };
  const w = name.weight;
  return { vectors: vectors.map((v) => v.map((x, i) => w * nameVector[i] + (1 - w) * x)), nameVector };
}

/** What a chunk is embedded from: its questions when it has any (RAGFlow's rule), else its own embedding text. */
function embeddingInput(draft: ChunkDraft): string {
  if (draft.embeddingText) return draft.embeddingText;
  return draft.questions?.length ? draft.questions.join("\n") : draft.text;
}

export async function runIngestion(services: Services, documentId: string, runId: string): Promise<void> {
  const { db, storage } = services.platform;
  // The document with its knowledge base, in one query: on small documents every round trip counts.
  const found = await db
    .getRepository(Document)
    .createQueryBuilder("d")
    .innerJoinAndMapOne("d.knowledgeBase", KnowledgeBase, "kb", "kb.id = d.knowledgeBaseId")
    .where("d.id = :documentId", { documentId })
    .getOne();
  if (!found || found.runId !== runId || found.run !== RUN.running) return;
  const { knowledgeBase: kb, ...fields } = found as Document & { knowledgeBase: KnowledgeBase };
  const document = Object.assign(new Document(), fields);
  // Counted, and said in the log, before the attempt starts: if it takes the process down, the next start knows.
  const attempt = document.parseAttempts + 1;
  if (attempt === 1) Object.assign(document, appendLogLine(document, logMessage("parseLog.received")));
  else if (attempt <= PARSE_ATTEMPTS) Object.assign(document, appendLogLine(document, logMessage("parseLog.receivedAgain", { attempt, attempts: PARSE_ATTEMPTS })));
  const [counted]: [unknown[], number] = await db.query(
    `UPDATE document SET parse_attempts = $3, progress_msg = $4, progress_log = $5 WHERE id = $1 AND run_id = $2 AND parse_attempts = $6 RETURNING id`,
    [documentId, runId, attempt, document.progressMsg, JSON.stringify(document.progressLog), document.parseAttempts],
  );
  if (counted.length === 0) return;
  if (attempt > PARSE_ATTEMPTS) {
    await failDocument(services, documentId, runId, ParseError.because("errors.parsing.tooManyAttempts", { attempts: PARSE_ATTEMPTS }));
    return;
  }
  const config = document.parserConfig;
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

    const parser = parserFor(document.name);
    const method = chunkMethod(document.chunkMethod);
    if (!method) throw ParseError.because("errors.parsing.unknownChunkMethod", { method: document.chunkMethod });
    const data = document.size > 0 ? await storage.getBuffer(document.storageKey) : Buffer.alloc(0);
    let parsed: ParsedDocument = { blocks: [], notes: [] };
    let chunked: Chunked | undefined;
    // parsing reports 0.05–0.35, chunking 0.35–0.5
    const phaseProgress = (phase: ParsePhase, fraction: number) => (phase === "parse" ? 0.05 + 0.3 * fraction : 0.35 + 0.15 * fraction);
    if (data.length > 0) {
      if (!parser) throw ParseError.because("errors.parsing.noParser", { suffix: document.suffix });
      ({ document: parsed, chunked } = await services.parsers.parse({
        parser: parser.name,
        data,
        fileName: document.name,
        pages: config.pages ?? undefined,
        layoutRecognize: (config.layout_recognize ?? "DeepDOC") !== "Plain Text",
        language: kb.language,
        chunking: method.usesModels ? undefined : { method: method.name, config },
        signal: abort.signal,
        progress: (phase, fraction, message) => void progress.report(phaseProgress(phase, fraction), message).catch(() => abort.abort()),
      }));
      progress.throwIfCancelled();
      for (const note of parsed.notes) await progress.report(0.35, note);
    }
    await progress.report(
      0.35,
      data.length === 0 ? logMessage("parseLog.empty") : parsed.pageCount ? logMessage("parseLog.parsedPages", { count: parsed.pageCount, parser: parser!.name }) : logMessage("parseLog.parsed", { parser: parser!.name }),
    );

    const modelFor = async <T extends "chat" | "img2txt">(type: T, id: string | null | undefined) => ({ model: await services.models.client(kb.tenantId, type, id), id: id || (await services.models.defaults(kb.tenantId))[type] });
    chunked ??= await chunkParsed(parsed, method, {
      fileName: document.name,
      config,
      language: kb.language,
      chat: () => modelFor("chat", config.llm_id),
      img2txt: async () => {
        const id = (await services.models.defaults(kb.tenantId)).img2txt;
        return id && !id.endsWith("@Builtin") ? { model: await services.models.client(kb.tenantId, "img2txt", id), id } : null;
      },
      signal: abort.signal,
      progress: (fraction, message) => void progress.report(phaseProgress("chunk", fraction), message).catch(() => abort.abort()),
    });
    const { drafts } = chunked;
    for (const note of chunked.notes) await progress.report(0.5, note);
    await progress.report(0.5, logMessage("parseLog.chunked", { count: drafts.length, method: logMessage(`chunkMethods.${method.name}.label`) }));

    const embedding = await services.models.client(kb.tenantId, "embedding", kb.embeddingModel);
    const enrichment: EnrichmentContext = {
      chat: () => modelFor("chat", config.llm_id),
      embed: async (texts) => (await embedding.embed(texts, { purpose: "document", signal: abort.signal })).vectors,
      language: kb.language,
      signal: abort.signal,
      progress: (fraction, message) => void progress.report(0.5 + 0.1 * fraction, message).catch(() => abort.abort()),
    };
    const producedBy: Record<string, string> = {};
    const texts = drafts.map((d) => d.text);
    if ((config.auto_keywords ?? 0) > 0 && drafts.length > 0) {
      const { keywords, producedBy: by, notes } = await generateKeywords(texts, config.auto_keywords!, enrichment);
      for (const note of notes) await progress.report(0.55, note);
      drafts.forEach((d, i) => (d.keywords = [...(d.keywords ?? []), ...keywords[i]]));
      producedBy.keywords = by;
      await progress.report(0.55, logMessage("parseLog.keywords", { by }));
    }
    if ((config.auto_questions ?? 0) > 0 && drafts.length > 0) {
      const { questions, producedBy: by, notes } = await generateQuestions(texts, config.auto_questions!, enrichment);
      for (const note of notes) await progress.report(0.6, note);
      drafts.forEach((d, i) => (d.questions = [...(d.questions ?? []), ...questions[i]]));
      producedBy.questions = by;
      await progress.report(0.6, logMessage("parseLog.questions", { by }));
    }

    const name = { text: document.name, vector: null as number[] | null, weight: config.filename_embd_weight ?? 0.1 };
    let dimensionReady = false;
    let stored = 0;
    let tokens = 0;
    const finalRows: StoredChunk[] = [];
    for (let start = 0; start < drafts.length; start += EMBED_BATCH) {
      const batch = drafts.slice(start, start + EMBED_BATCH);
      const embedded = await embedWithName(embedding, batch.map(embeddingInput), name, abort.signal);
      const batchVectors = embedded.vectors;
      name.vector = embedded.nameVector;
      if (!dimensionReady) {
        await ensureVectorIndex(db, batchVectors[0].length);
        dimensionReady = true;
      }
      const rows: StoredChunk[] = [];
      for (const [j, draft] of batch.entries()) {
        const ordinal = start + j;
        let imageKey: string | null = null;
        const id = chunkId(document.id, ordinal, draft.text);
        if (draft.image) {
          imageKey = `${document.knowledgeBaseId}/${document.id}-images/${id}`;
          await storage.put(imageKey, draft.image.data, draft.image.mimeType);
        }
        const tokenCount = countTokens(draft.text);
        tokens += tokenCount;
        rows.push({
          id,
          knowledgeBaseId: document.knowledgeBaseId,
          documentId: document.id,
          tenantId: document.tenantId,
          ordinal,
          kind: "text",
          content: draft.text,
          title: draft.title ?? "",
          keywords: draft.keywords ?? [],
          questions: draft.questions ?? [],
          fields: draft.fields ?? null,
          positions: draft.positions ?? [],
          imageKey,
          available: true,
          tokenCount,
          producedBy,
          vector: batchVectors[j],
        });
      }
      stored += rows.length;
      // The last batch is stored with the completion, in one transaction (one commit per small document).
      if (stored < drafts.length) await insertChunks(db.manager, rows);
      else finalRows.push(...rows);
      await progress.report(0.6 + (0.3 * stored) / drafts.length);
    }
    if (drafts.length > 0) await progress.report(0.9, logMessage("parseLog.indexed", { count: stored, tokens }));

    const duration = (Date.now() - startedAt) / 1000;
    const log = appendLogLine(progress.messages, logMessage("parseLog.done", { seconds: duration.toFixed(2) }));
    const finished = await completeDocument(db, {
      documentId: document.id,
      knowledgeBaseId: document.knowledgeBaseId,
      runId,
      chunks: finalRows,
      log,
      processDuration: Math.max(duration, 0.001),
      pageCount: parsed.pageCount ?? null,
    });
    // Cancelled or superseded meanwhile: nothing was stored.
    if (!finished) throw new ParseCancelled();
    Object.assign(document, {
      run: RUN.done,
      progress: 1,
      ...log,
      processDuration: Math.max(duration, 0.001),
      pageCount: parsed.pageCount ?? null,
      chunkCount: finished.chunkCount,
      tokenCount: finished.tokenCount,
    });
    publishProgress(services.platform, document);
  } catch (error) {
    abort.abort();
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

/** The reason as a message key, when the error has one (a limit of the parse, a model provider's refusal). */
export function failureOf(error: Error): FailureReason | null {
  if (error instanceof ParseError) return error.reason;
  if (error instanceof DomainError) return { messageKey: error.messageKey, params: error.params };
  return null;
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
