import type { ChatModel, Img2TxtModel, ImageInput, Sequence2TxtModel } from "../models/model-types";
import { englishText, type LogMessage } from "./parse-log";
import type { ParamSpec } from "../platform/param-spec";

/**
 * The contract between the three stages of ingestion: a file parser turns bytes into a ParsedDocument
 * (typed blocks in reading order), a chunk method turns that into ChunkDrafts, and the pipeline embeds,
 * indexes and stores them. Parsers know file formats and nothing of chunking; chunk methods know
 * document structure and nothing of file formats.
 */

/** Where a block sits in a paged file: 1-based page, and its box in PDF points (RAGFlow's [page, x0, x1, top, bottom]). */
export interface BlockPosition {
  page: number;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

interface BlockBase {
  /** 1-based page (PDF), slide (presentations) or sheet index (spreadsheets), when the format has one. */
  page?: number;
  /** Boxes on the page, for PDFs: what the document viewer highlights. */
  positions?: BlockPosition[];
}

export interface HeadingBlock extends BlockBase {
  kind: "heading";
  /** 1 = title/chapter … 6. */
  level: number;
  text: string;
}

export interface ParagraphBlock extends BlockBase {
  kind: "paragraph";
  text: string;
}

export interface ListItemBlock extends BlockBase {
  kind: "listItem";
  /** 0 for a top-level item. */
  depth: number;
  text: string;
}

export interface CodeBlock extends BlockBase {
  kind: "code";
  language?: string;
  text: string;
}

export interface TableBlock extends BlockBase {
  kind: "table";
  /** Sheet name or table caption. */
  caption?: string;
  /** Column names; empty when the table has no header row. */
  header: string[];
  rows: string[][];
}

export interface ImageBlock extends BlockBase {
  kind: "image";
  image: ImageInput;
  /** Text read from the image by OCR ("" when none). */
  text: string;
  caption?: string;
}

/** A slide boundary (presentations) or a page break the format states explicitly. */
export interface PageBreakBlock extends BlockBase {
  kind: "pageBreak";
  /** The page or slide that begins. */
  page: number;
  title?: string;
}

export type Block = HeadingBlock | ParagraphBlock | ListItemBlock | CodeBlock | TableBlock | ImageBlock | PageBreakBlock;

export interface ParsedDocument {
  blocks: Block[];
  /** Pages (PDF), slides or sheets in the whole file, when the format has them. */
  pageCount?: number;
  /** Title from the file's metadata (PDF info, e-mail subject, HTML <title>…), when it has one. */
  title?: string;
  /** Attachments of a container format (e-mail), each parsed with its own parser. */
  attachments?: { fileName: string; document: ParsedDocument }[];
  /** Things a user should know, for the progress log: "page 3 had no text layer: read by OCR". */
  notes: LogMessage[];
}

/** What a parser may ask of the pipeline. */
export interface ParserContext {
  fileName: string;
  /** 1-based inclusive page ranges to read (PDF); undefined = all pages. */
  pages?: [number, number][];
  /** false = read the text layer only ("Plain Text" layout recognition): no OCR of pages or images. */
  layoutRecognize: boolean;
  /** Language of the knowledge base ("English", "Chinese", …): an OCR hint. */
  language: string;
  /** Offline OCR (the built-in tesseract model); also used for images inside documents. */
  ocr: Img2TxtModel;
  /** The tenant's speech-to-text model, when one is configured (audio files). */
  speech?: Sequence2TxtModel;
  signal: AbortSignal;
  /** Progress inside the parse step, 0..1, with a short message for the log. */
  progress(fraction: number, message?: LogMessage): void;
}

export interface FileParser {
  /** Registry key, e.g. "pdf". */
  name: string;
  /** Lower-case extensions without the dot. */
  extensions: string[];
  parse(data: Buffer, context: ParserContext): Promise<ParsedDocument>;
}

/** Why a document failed, as a message key of `locales/` that the client translates. */
export type FailureReason = LogMessage;

/**
 * A parse that cannot succeed (corrupt, encrypted, unsupported, beyond a limit). Its reason is a message key, which
 * the client says in the reader's language; its message is the English text, for the log text and API clients.
 */
export class ParseError extends Error {
  constructor(readonly reason: FailureReason) {
    super(englishText(reason));
    this.name = "ParseError";
  }

  static because(messageKey: string, params: Record<string, unknown> = {}): ParseError {
    return new ParseError({ messageKey, params });
  }
}

/** The knowledge base's / document's parser settings, in RAGFlow's names (they are returned as-is by the REST facade). */
export interface ParserConfig {
  chunk_token_num?: number;
  delimiter?: string;
  layout_recognize?: string;
  html4excel?: boolean;
  auto_keywords?: number;
  auto_questions?: number;
  task_page_size?: number | null;
  pages?: [number, number][] | null;
  filename_embd_weight?: number | null;
  tag_kb_ids?: string[];
  topn_tags?: number;
  raptor?: RaptorConfig;
  graphrag?: GraphRagConfig;
  /** knowledge_graph chunk method (RAGFlow keeps them at the top level for that method). */
  entity_types?: string[];
  llm_id?: string;
  image_context_size?: number;
  table_context_size?: number;
  [key: string]: unknown;
}

export interface RaptorConfig {
  use_raptor?: boolean;
  prompt?: string;
  max_token?: number;
  threshold?: number;
  max_cluster?: number;
  random_seed?: number;
  [key: string]: unknown;
}

export interface GraphRagConfig {
  use_graphrag?: boolean;
  entity_types?: string[];
  method?: "light" | "general";
  [key: string]: unknown;
}

/** A chunk as a chunk method makes it; the pipeline adds ids, tokens, vectors and the search index. */
export interface ChunkDraft {
  /** The text shown, retrieved and (unless `embeddingText` says otherwise) embedded. */
  text: string;
  /** What to embed instead of `text`, e.g. only the question of a Q&A pair. */
  embeddingText?: string;
  /** Title-like words that get a field boost in keyword search (section path, slide title, column names). */
  title?: string;
  keywords?: string[];
  questions?: string[];
  positions?: BlockPosition[];
  /** Typed fields (resume: name, education…; table: column → value). */
  fields?: Record<string, string>;
  /** An image the chunk shows (picture method, figures). */
  image?: ImageInput;
}

export interface GraphEntity {
  name: string;
  type: string;
  description: string;
}

export interface GraphRelation {
  source: string;
  target: string;
  description: string;
  keywords: string[];
  weight: number;
}

/** A knowledge graph: entities and the relations between them. */
export interface Graph {
  entities: GraphEntity[];
  relations: GraphRelation[];
}

export interface ChunkingResult {
  chunks: ChunkDraft[];
  notes?: LogMessage[];
}

/** What a chunk method may ask of the pipeline. */
export interface ChunkContext {
  fileName: string;
  config: ParserConfig;
  /** Knowledge base language: "English", "Chinese", … */
  language: string;
  /** The knowledge base's chat model (the built-in extractive one unless the tenant chose another). */
  chat(): Promise<{ model: ChatModel; id: string }>;
  /** The tenant's default img2txt model, or null when none is set (picture method: OCR only). */
  img2txt(): Promise<{ model: Img2TxtModel; id: string } | null>;
  signal: AbortSignal;
  progress(fraction: number, message?: LogMessage): void;
}

export interface ChunkMethod {
  /** RAGFlow's chunk-method id: naive, book, laws, manual, paper, presentation, qa, resume, table, picture, one, knowledge_graph, email, tag. */
  name: string;
  /** Extensions it is meant for; the configuration page lists them. */
  fileTypes: string[];
  /**
   * Calls the tenant's models (chat, img2txt) while chunking: it then chunks in the server, where the models
   * are. Every other method chunks in the parse process, with the parse, so that chunking a large text never
   * holds the server.
   */
  usesModels?: boolean;
  /** The parser settings it reads, in the order the settings form shows them (see chunkers/parser-params.ts). */
  params: readonly ParamSpec[];
  /** The parser_config a knowledge base or document starts from with this method (RAGFlow's get_parser_config). */
  defaults: ParserConfig;
  chunk(document: ParsedDocument, context: ChunkContext): Promise<ChunkingResult>;
}
