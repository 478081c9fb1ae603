import { withDefaults, type ParamIssue, type ParamSpec } from "../../platform/param-spec";
import { DEFAULT_RAPTOR_PROMPT } from "../enrichment/raptor";

/**
 * The parser settings (RAGFlow v0.24's parser_config) as ParamSpecs, declared once: each chunk method
 * lists those it reads (its `params`, which the settings form draws), and PARSER_CONFIG_PARAMS is the
 * whole schema that knowledge/parser-config.ts validates every config with.
 */

/** RAGFlow's default GraphRAG entity types (the knowledge_graph method starts from its own, graph-extraction's). */
export const DEFAULT_ENTITY_TYPES = ["organization", "person", "geo", "event", "category"];

/** RAGFlow's limit of a chunk's token budget; the knowledge_graph method stores 8192, which it does not read (GRAPH_CHUNK_TOKENS). */
export const MAX_CHUNK_TOKENS = 2048;

const ENRICHMENT = "kb.config.enrichmentGroup";
const PARSING = "kb.config.parsingGroup";

export const CHUNK_TOKEN_NUM: ParamSpec = { key: "chunk_token_num", type: "integer", label: "kb.field.chunkTokenNumber", help: "kb.help.chunkTokenNumber", group: PARSING, min: 1, max: MAX_CHUNK_TOKENS, default: 512, required: true };
export const DELIMITER: ParamSpec = { key: "delimiter", type: "string", label: "kb.field.delimiter", help: "kb.help.delimiter", group: PARSING, minLength: 1, default: "\\n", required: true, widget: "code" };
export const LAYOUT_RECOGNIZE: ParamSpec = {
  key: "layout_recognize",
  type: "string",
  label: "kb.field.layoutRecognize",
  help: "kb.help.layoutRecognize",
  group: PARSING,
  default: "DeepDOC",
  // A string rather than a select: RAGFlow stores model names here too, which the form shows as DeepDOC.
  options: [{ value: "DeepDOC" }, { value: "Plain Text", label: "kb.config.plainText" }],
  widget: "segmented",
};
export const TASK_PAGE_SIZE: ParamSpec = { key: "task_page_size", type: "integer", label: "kb.field.taskPageSize", help: "kb.help.taskPageSize", group: PARSING, min: 1, nullable: true, default: 12, required: true };
export const HTML4EXCEL: ParamSpec = { key: "html4excel", type: "boolean", label: "kb.field.html4excel", help: "kb.help.html4excel", group: PARSING, default: false };
export const AUTO_KEYWORDS: ParamSpec = { key: "auto_keywords", type: "integer", label: "kb.field.autoKeywords", help: "kb.help.autoKeywords", group: ENRICHMENT, min: 0, max: 32, step: 1, default: 0, widget: "slider" };
export const AUTO_QUESTIONS: ParamSpec = { key: "auto_questions", type: "integer", label: "kb.field.autoQuestions", help: "kb.help.autoQuestions", group: ENRICHMENT, min: 0, max: 10, step: 1, default: 0, widget: "slider" };

const PAGE_RANGE_ISSUE: ParamIssue = { code: "pageRange", messageKey: "errors.knowledge.pageRange" };

/** Each range is [from, to] of whole pages with 1 ≤ from < to, in ascending order (the end page is excluded). */
function pageRangeIssues(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: "errors.param.type", params: { expected: "list" } }];
  return value.flatMap((range, i): ParamIssue[] => {
    if (!Array.isArray(range)) return [{ path: `${i}`, code: "type", messageKey: "errors.param.type", params: { expected: "list" }, value: range }];
    const notWhole = range.flatMap((n, j): ParamIssue[] => (Number.isInteger(n) ? [] : [{ path: `${i}.${j}`, code: "type", messageKey: "errors.param.type", params: { expected: "integer" }, value: n }]));
    const previousTo = i > 0 && Array.isArray(value[i - 1]) ? (value[i - 1] as number[])[1] : 0;
    const [from, to] = range as number[];
    const misplaced = range.length !== 2 || from < 1 || to <= from || from < previousTo;
    return [...notWhole, ...(misplaced ? [{ ...PAGE_RANGE_ISSUE, path: `${i}`, value: range }] : [])];
  });
}

export const PAGES: ParamSpec = { key: "pages", type: "json", label: "kb.field.pageRanges", help: "kb.help.pageRanges", nullable: true, default: null, widget: "pageRanges", check: pageRangeIssues };

const USE_RAPTOR = { use_raptor: [true] };
export const RAPTOR: ParamSpec = {
  key: "raptor",
  type: "object",
  label: "kb.field.raptor",
  help: "kb.help.raptor",
  params: [
    { key: "use_raptor", type: "boolean", label: "kb.field.useRaptor", default: false },
    { key: "prompt", type: "text", label: "kb.field.raptorPrompt", minLength: 1, trimmed: true, required: true, default: DEFAULT_RAPTOR_PROMPT, displayOptions: { show: USE_RAPTOR } },
    { key: "max_token", type: "integer", label: "kb.field.raptorMaxToken", min: 1, max: MAX_CHUNK_TOKENS, default: 256, required: true, displayOptions: { show: USE_RAPTOR } },
    { key: "threshold", type: "number", label: "kb.field.raptorThreshold", min: 0, max: 1, step: 0.01, default: 0.1, required: true, displayOptions: { show: USE_RAPTOR } },
    { key: "max_cluster", type: "integer", label: "kb.field.raptorMaxCluster", min: 1, max: 1024, default: 64, required: true, displayOptions: { show: USE_RAPTOR } },
    { key: "random_seed", type: "integer", label: "kb.field.raptorSeed", min: 0, default: 0, required: true, displayOptions: { show: USE_RAPTOR } },
    { key: "auto_disable_for_structured_data", type: "boolean", label: "kb.field.raptorAutoDisable", default: true },
  ],
};

/** What the settings form edits of RAPTOR: all but the structured-data switch, which RAGFlow's form does not show either. */
export const RAPTOR_SETTINGS: ParamSpec = { ...RAPTOR, params: RAPTOR.params!.filter((p) => p.key !== "auto_disable_for_structured_data") };

/** RAPTOR on with its default settings, as RAGFlow's General method starts. */
export function raptorOn(): Record<string, unknown> {
  return { ...withDefaults(RAPTOR_SETTINGS.params!, {}), use_raptor: true };
}

export const GRAPHRAG: ParamSpec = {
  key: "graphrag",
  type: "object",
  label: "kb.field.graphrag",
  params: [
    { key: "use_graphrag", type: "boolean", label: "kb.field.useGraphrag", default: false },
    { key: "entity_types", type: "list", label: "kb.field.entityTypes", help: "kb.help.entityTypes", default: DEFAULT_ENTITY_TYPES, widget: "tags" },
    { key: "method", type: "select", label: "kb.field.graphragMethod", options: [{ value: "light" }, { value: "general" }], default: "light" },
    { key: "community", type: "boolean", label: "kb.field.graphragCommunity", default: false },
    { key: "resolution", type: "boolean", label: "kb.field.graphragResolution", default: false },
  ],
};

/** The whole parser_config schema (RAGFlow's pydantic ParserConfig), in its order. */
export const PARSER_CONFIG_PARAMS: readonly ParamSpec[] = [
  AUTO_KEYWORDS,
  AUTO_QUESTIONS,
  CHUNK_TOKEN_NUM,
  DELIMITER,
  HTML4EXCEL,
  LAYOUT_RECOGNIZE,
  { key: "tag_kb_ids", type: "list", label: "kb.field.tagKbIds", default: [] },
  { key: "topn_tags", type: "integer", label: "kb.field.topnTags", min: 1, max: 10, default: 1 },
  { key: "filename_embd_weight", type: "number", label: "kb.field.filenameWeight", min: 0, max: 1, nullable: true, default: 0.1 },
  { ...TASK_PAGE_SIZE, default: null },
  PAGES,
  GRAPHRAG,
  RAPTOR,
  // Not in RAGFlow v0.24's pydantic schema, yet in every config RAGFlow stores and its web client sends:
  // accepted so that a config read from the API can be sent back.
  { key: "image_context_size", type: "integer", label: "kb.field.imageContextSize", min: 0, default: 0 },
  { key: "table_context_size", type: "integer", label: "kb.field.tableContextSize", min: 0, default: 0 },
];

/** The settings of a method that reads a PDF's layout: the layout engine, page ranges and the pages per task. */
export const PDF_PARAMS: readonly ParamSpec[] = [LAYOUT_RECOGNIZE, TASK_PAGE_SIZE, PAGES];
/** Keywords and questions generated per chunk by the chat model. */
export const ENRICHMENT_PARAMS: readonly ParamSpec[] = [AUTO_KEYWORDS, AUTO_QUESTIONS];
/** What a method that reads a PDF's layout and may summarise with RAPTOR shows (book, laws, manual, paper, one). */
export const DOCUMENT_METHOD_PARAMS: readonly ParamSpec[] = [...PDF_PARAMS, ...ENRICHMENT_PARAMS, RAPTOR_SETTINGS];

/** The settings every method starts from (RAGFlow's get_parser_config, before the method's own). */
export const BASE_PARSER_DEFAULTS = { table_context_size: 0, image_context_size: 0 };
/** Methods that start with RAPTOR and GraphRAG off, as RAGFlow's get_parser_config writes them. */
export const ENRICHMENT_OFF = { raptor: { use_raptor: false }, graphrag: { use_graphrag: false } };
