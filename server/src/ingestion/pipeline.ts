import { xxh64 } from "@node-rs/xxhash";
import type { EmbeddingModel } from "../models/model-types";
import type { ModelsService } from "../models/models.service";
import { countTokens } from "../models/tokens";
import { DomainError } from "../platform/errors";
import type { ObjectStore } from "../platform/storage";
import { chunkParsed, type Chunked } from "./chunking";
import { chunkMethod } from "./chunkers/registry";
import type { EnrichmentContext } from "./enrichment/context";
import { generateKeywords } from "./enrichment/keywords";
import { generateQuestions } from "./enrichment/questions";
import { logMessage, type LogMessage } from "./parse-log";
import { parserFor } from "./parsers/registry";
import type { ParserSandbox } from "./sandbox/parser-sandbox";
import type { ParsePhase } from "./sandbox/messages";
import { timed, type IngestionStage } from "./stage-timings";
import { ParseError, type BlockPosition, type ChunkDraft, type ChunkMethod, type FailureReason, type FileParser, type ParsedDocument, type ParserConfig } from "./types";

/**
 * One document through ingestion, as a list of stages: read the stored file, parse, chunk (per window of
 * `task_page_size` pages), enrich (keywords, questions), embed in batches and hand the chunks over. Ingestion
 * writes no table: the knowledge domain owns the document (knowledge/parse-run.ts) and hands in the ports below,
 * among them the step that stores chunks. RAPTOR summaries and the knowledge graph are knowledge-base tasks the
 * user starts (knowledge/kb-tasks), as in RAGFlow v0.24, not stages of every parse.
 */

const EMBED_BATCH = 32;

/** The document being ingested, as its owner hands it over. */
export interface IngestionSubject {
  id: string;
  knowledgeBaseId: string;
  tenantId: string;
  name: string;
  suffix: string;
  size: number;
  chunkMethod: string;
  config: ParserConfig;
  language: string;
  embeddingModel: string;
}

/** A chunk ready to be stored: text, search fields, where it came from, and its vector. */
export interface IngestedChunk {
  id: string;
  knowledgeBaseId: string;
  documentId: string;
  tenantId: string;
  ordinal: number;
  kind: "text";
  content: string;
  title: string;
  keywords: string[];
  questions: string[];
  fields: Record<string, string> | null;
  positions: BlockPosition[];
  imageKey: string | null;
  available: true;
  tokenCount: number;
  producedBy: Record<string, string>;
  vector: number[];
}

/** The owner's step that keeps chunks: ready the vector index for a dimension, then store chunks batch by batch. */
export interface ChunkSink {
  prepare(dimension: number): Promise<void>;
  store(chunks: IngestedChunk[]): Promise<void>;
}

/** What ingestion reads from, reports to and hands its chunks to. */
export interface IngestionPorts {
  models: ModelsService;
  parsers: ParserSandbox;
  /** Where the file's pictures that become chunk images are put. */
  storage: ObjectStore;
  read(): Promise<Buffer>;
  /** Progress in 0..1 with an optional log line; throws when the run was cancelled meanwhile. */
  report(progress: number, message?: LogMessage): Promise<void>;
  throwIfCancelled(): void;
  /** Aborts model calls and the parse process when the run stops. */
  abort: AbortController;
  sink: ChunkSink;
}

export interface Ingested {
  /** The last batch of chunks, not yet stored: the owner stores it with the document's completion, in one transaction. */
  lastBatch: IngestedChunk[];
  stored: number;
  tokens: number;
  pageCount: number | null;
}

/** What the stages pass along. */
interface IngestionState {
  method: ChunkMethod;
  parser: FileParser | undefined;
  data: Buffer;
  parsed: ParsedDocument;
  chunked?: Chunked;
  drafts: ChunkDraft[];
  producedBy: Record<string, string>;
  result: Ingested;
}

interface IngestionRun {
  subject: IngestionSubject;
  ports: IngestionPorts;
  /** A report that may not throw: callbacks of the parse process and the models abort the run instead. */
  reportSoftly(progress: number, message?: LogMessage): void;
  chatModel: EnrichmentContext["chat"];
  /** The knowledge base's embedding model, asked for once. */
  embeddingModel(): Promise<EmbeddingModel>;
}

type Stage = (state: IngestionState, run: IngestionRun) => Promise<void>;

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

/** The reason as a message key, when the error has one (a limit of the parse, a model provider's refusal). */
export function failureOf(error: Error): FailureReason | null {
  if (error instanceof ParseError) return error.reason;
  if (error instanceof DomainError) return { messageKey: error.messageKey, params: error.params };
  return null;
}

// parsing reports 0.05–0.35, chunking 0.35–0.5, enrichment 0.5–0.6, embedding 0.6–0.9
const phaseProgress = (phase: ParsePhase, fraction: number) => (phase === "parse" ? 0.05 + 0.3 * fraction : 0.35 + 0.15 * fraction);

const readFile: Stage = async (state, { subject, ports }) => {
  state.data = subject.size > 0 ? await ports.read() : Buffer.alloc(0);
};

/** In the parse process; a chunk method that calls no model chunks there too. */
const parse: Stage = async (state, run) => {
  const { subject, ports } = run;
  const { parser, method, data } = state;
  if (data.length > 0) {
    if (!parser) throw ParseError.because("errors.parsing.noParser", { suffix: subject.suffix });
    ({ document: state.parsed, chunked: state.chunked } = await ports.parsers.parse({
      parser: parser.name,
      data,
      fileName: subject.name,
      pages: subject.config.pages ?? undefined,
      layoutRecognize: (subject.config.layout_recognize ?? "DeepDOC") !== "Plain Text",
      language: subject.language,
      chunking: method.usesModels ? undefined : { method: method.name, config: subject.config },
      signal: ports.abort.signal,
      progress: (phase, fraction, message) => run.reportSoftly(phaseProgress(phase, fraction), message),
    }));
    ports.throwIfCancelled();
    for (const note of state.parsed.notes) await ports.report(0.35, note);
  }
  const { pageCount } = state.parsed;
  state.result.pageCount = pageCount ?? null;
  await ports.report(
    0.35,
    data.length === 0 ? logMessage("parseLog.empty") : pageCount ? logMessage("parseLog.parsedPages", { count: pageCount, parser: parser!.name }) : logMessage("parseLog.parsed", { parser: parser!.name }),
  );
};

/** Here, for chunk methods that call models (pictures described, Q&A, tags, knowledge graphs). */
const chunk: Stage = async (state, run) => {
  const { subject, ports } = run;
  const { method } = state;
  state.chunked ??= await chunkParsed(state.parsed, method, {
    fileName: subject.name,
    config: subject.config,
    language: subject.language,
    chat: run.chatModel,
    img2txt: async () => {
      const id = (await ports.models.defaults(subject.tenantId)).img2txt;
      return id && !id.endsWith("@Builtin") ? { model: await ports.models.client(subject.tenantId, "img2txt", id), id } : null;
    },
    signal: ports.abort.signal,
    progress: (fraction, message) => run.reportSoftly(phaseProgress("chunk", fraction), message),
  });
  state.drafts = state.chunked.drafts;
  for (const note of state.chunked.notes) await ports.report(0.5, note);
  await ports.report(0.5, logMessage("parseLog.chunked", { count: state.drafts.length, method: logMessage(`chunkMethods.${method.name}.label`) }));
};

function enrichmentContext(run: IngestionRun): EnrichmentContext {
  const { subject, ports } = run;
  return {
    chat: run.chatModel,
    embed: async (texts) => (await (await run.embeddingModel()).embed(texts, { purpose: "document", signal: ports.abort.signal })).vectors,
    language: subject.language,
    signal: ports.abort.signal,
    progress: (fraction, message) => run.reportSoftly(0.5 + 0.1 * fraction, message),
  };
}

/** Keywords (auto_keywords per chunk), added to the chunk's own. */
const keywords: Stage = async (state, run) => {
  const count = run.subject.config.auto_keywords ?? 0;
  if (count <= 0 || state.drafts.length === 0) return;
  const { keywords, producedBy, notes } = await generateKeywords(state.drafts.map((d) => d.text), count, enrichmentContext(run));
  for (const note of notes) await run.ports.report(0.55, note);
  state.drafts.forEach((d, i) => (d.keywords = [...(d.keywords ?? []), ...keywords[i]]));
  state.producedBy.keywords = producedBy;
  await run.ports.report(0.55, logMessage("parseLog.keywords", { by: producedBy }));
};

/** Questions (auto_questions per chunk), which the chunk is then embedded from. */
const questions: Stage = async (state, run) => {
  const count = run.subject.config.auto_questions ?? 0;
  if (count <= 0 || state.drafts.length === 0) return;
  const { questions, producedBy, notes } = await generateQuestions(state.drafts.map((d) => d.text), count, enrichmentContext(run));
  for (const note of notes) await run.ports.report(0.6, note);
  state.drafts.forEach((d, i) => (d.questions = [...(d.questions ?? []), ...questions[i]]));
  state.producedBy.questions = producedBy;
  await run.ports.report(0.6, logMessage("parseLog.questions", { by: producedBy }));
};

/** Embeds a batch at a time and hands each batch to the owner's sink, except the last, which the owner stores with the completion. */
const embedAndHandOver: Stage = async (state, run) => {
  const { subject, ports } = run;
  const { drafts, producedBy, result } = state;
  const embedding = await run.embeddingModel();
  const name = { text: subject.name, vector: null as number[] | null, weight: subject.config.filename_embd_weight ?? 0.1 };
  for (let start = 0; start < drafts.length; start += EMBED_BATCH) {
    const batch = drafts.slice(start, start + EMBED_BATCH);
    const embedded = await timed("embed", () => embedWithName(embedding, batch.map(embeddingInput), name, ports.abort.signal));
    name.vector = embedded.nameVector;
    if (start === 0) await ports.sink.prepare(embedded.vectors[0].length);
    const rows: IngestedChunk[] = [];
    for (const [j, draft] of batch.entries()) {
      const ordinal = start + j;
      const id = chunkId(subject.id, ordinal, draft.text);
      let imageKey: string | null = null;
      if (draft.image) {
        imageKey = `${subject.knowledgeBaseId}/${subject.id}-images/${id}`;
        await ports.storage.put(imageKey, draft.image.data, draft.image.mimeType);
      }
      const tokenCount = countTokens(draft.text);
      result.tokens += tokenCount;
      rows.push({
        id,
        knowledgeBaseId: subject.knowledgeBaseId,
        documentId: subject.id,
        tenantId: subject.tenantId,
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
        vector: embedded.vectors[j],
      });
    }
    result.stored += rows.length;
    if (result.stored < drafts.length) await timed("write", () => ports.sink.store(rows));
    else result.lastBatch = rows;
    await ports.report(0.6 + (0.3 * result.stored) / drafts.length);
  }
  if (drafts.length > 0) await ports.report(0.9, logMessage("parseLog.indexed", { count: result.stored, tokens: result.tokens }));
};

/** The stages, in order, with what their time counts as (embedding's stage times its model calls and writes itself). */
const STAGES: [Stage, IngestionStage | null][] = [
  [readFile, "read"],
  [parse, "parse"],
  [chunk, "chunk"],
  [keywords, "enrich"],
  [questions, "enrich"],
  [embedAndHandOver, null],
];

/** Runs a document through the stages; the chunks go to `ports.sink`, the last batch comes back with the figures. */
export async function ingestDocument(subject: IngestionSubject, ports: IngestionPorts): Promise<Ingested> {
  const method = chunkMethod(subject.chunkMethod);
  if (!method) throw ParseError.because("errors.parsing.unknownChunkMethod", { method: subject.chunkMethod });
  const models = ports.models;
  let embedding: Promise<EmbeddingModel> | undefined;
  const run: IngestionRun = {
    subject,
    ports,
    reportSoftly: (progress, message) => void ports.report(progress, message).catch(() => ports.abort.abort()),
    chatModel: async () => {
      const id = subject.config.llm_id;
      return { model: await models.client(subject.tenantId, "chat", id), id: id || (await models.defaults(subject.tenantId)).chat };
    },
    embeddingModel: () => (embedding ??= models.client(subject.tenantId, "embedding", subject.embeddingModel)),
  };
  const state: IngestionState = {
    method,
    parser: parserFor(subject.name),
    data: Buffer.alloc(0),
    parsed: { blocks: [], notes: [] },
    drafts: [],
    producedBy: {},
    result: { lastBatch: [], stored: 0, tokens: 0, pageCount: null },
  };
  for (const [stage, timing] of STAGES) await (timing ? timed(timing, () => stage(state, run)) : stage(state, run));
  return state.result;
}
