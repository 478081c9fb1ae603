import type { ParserConfig } from "../ingestion/types";

/**
 * The parser settings of a knowledge base and its documents, declared once: their types, limits and
 * defaults (RAGFlow v0.24's parser_config schema), the defaults each chunk method starts from, and
 * the deep merge used when settings are changed. The GraphQL layer turns violations into translated
 * field messages, the REST facade into RAGFlow's pydantic texts.
 */

export const DEFAULT_RAPTOR_PROMPT =
  "Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.";

export const DEFAULT_ENTITY_TYPES = ["organization", "person", "geo", "event", "category"];
export const KNOWLEDGE_GRAPH_ENTITY_TYPES = ["organization", "person", "location", "event", "time"];

export type FieldSpec =
  | { kind: "int"; min?: number; max?: number; nullable?: boolean; default: number | null }
  | { kind: "number"; min?: number; max?: number; nullable?: boolean; default: number | null }
  | { kind: "string"; minLength?: number; trim?: boolean; default: string }
  | { kind: "bool"; default: boolean }
  | { kind: "stringList"; default: string[] }
  | { kind: "enum"; values: string[]; default: string }
  | { kind: "pageRanges"; nullable: true; default: null }
  | { kind: "object"; fields: Record<string, FieldSpec> };

export const RAPTOR_FIELDS: Record<string, FieldSpec> = {
  use_raptor: { kind: "bool", default: false },
  prompt: { kind: "string", minLength: 1, trim: true, default: DEFAULT_RAPTOR_PROMPT },
  max_token: { kind: "int", min: 1, max: 2048, default: 256 },
  threshold: { kind: "number", min: 0, max: 1, default: 0.1 },
  max_cluster: { kind: "int", min: 1, max: 1024, default: 64 },
  random_seed: { kind: "int", min: 0, default: 0 },
  auto_disable_for_structured_data: { kind: "bool", default: true },
};

export const GRAPHRAG_FIELDS: Record<string, FieldSpec> = {
  use_graphrag: { kind: "bool", default: false },
  entity_types: { kind: "stringList", default: DEFAULT_ENTITY_TYPES },
  method: { kind: "enum", values: ["light", "general"], default: "light" },
  community: { kind: "bool", default: false },
  resolution: { kind: "bool", default: false },
};

export const PARSER_CONFIG_FIELDS: Record<string, FieldSpec> = {
  auto_keywords: { kind: "int", min: 0, max: 32, default: 0 },
  auto_questions: { kind: "int", min: 0, max: 10, default: 0 },
  chunk_token_num: { kind: "int", min: 1, max: 2048, default: 512 },
  delimiter: { kind: "string", minLength: 1, default: "\\n" },
  html4excel: { kind: "bool", default: false },
  layout_recognize: { kind: "string", default: "DeepDOC" },
  tag_kb_ids: { kind: "stringList", default: [] },
  topn_tags: { kind: "int", min: 1, max: 10, default: 1 },
  filename_embd_weight: { kind: "number", min: 0, max: 1, nullable: true, default: 0.1 },
  task_page_size: { kind: "int", min: 1, nullable: true, default: null },
  pages: { kind: "pageRanges", nullable: true, default: null },
  graphrag: { kind: "object", fields: GRAPHRAG_FIELDS },
  raptor: { kind: "object", fields: RAPTOR_FIELDS },
  // Not in RAGFlow v0.24's pydantic schema, yet in every config RAGFlow stores and its web client sends:
  // accepted so that a config read from the API can be sent back.
  image_context_size: { kind: "int", min: 0, default: 0 },
  table_context_size: { kind: "int", min: 0, default: 0 },
};

/**
 * Which rules a client's parser_config is held to. A knowledge base's follows RAGFlow's pydantic schema:
 * no unknown keys, a delimiter of at least one character. A document's is stored by RAGFlow without a
 * schema, so clients send there what the dataset endpoints refuse: unknown keys (kept), an empty
 * delimiter (no splitting) and nested objects of any shape (stored as sent). Types and ranges of the
 * known scalar settings hold for both, since parsing reads them.
 */
export type ParserConfigScope = "knowledgeBase" | "document";

export type ViolationKind =
  | "extra" // not a known key
  | "int" // not an integer
  | "number"
  | "string"
  | "bool"
  | "list"
  | "object"
  | "enum"
  | "min" // below `limit`
  | "max" // above `limit`
  | "minLength"
  | "pageRange"; // a page range is not [from, to] with 1 ≤ from < to, ascending

export interface Violation {
  /** Dotted path, e.g. "raptor.max_token" or "pages.0.1". */
  path: string;
  kind: ViolationKind;
  value: unknown;
  limit?: number;
  values?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function checkField(spec: FieldSpec, value: unknown, path: string, out: Violation[], scope: ParserConfigScope): void {
  switch (spec.kind) {
    case "int":
    case "number": {
      if (value === null && spec.nullable) return;
      const ok = typeof value === "number" && Number.isFinite(value) && (spec.kind === "number" || Number.isInteger(value));
      if (!ok) return void out.push({ path, kind: spec.kind, value });
      if (spec.min !== undefined && (value as number) < spec.min) out.push({ path, kind: "min", value, limit: spec.min });
      else if (spec.max !== undefined && (value as number) > spec.max) out.push({ path, kind: "max", value, limit: spec.max });
      return;
    }
    case "string": {
      if (typeof value !== "string") return void out.push({ path, kind: "string", value });
      const text = spec.trim ? value.trim() : value;
      if (spec.minLength !== undefined && scope === "knowledgeBase" && text.length < spec.minLength) out.push({ path, kind: "minLength", value, limit: spec.minLength });
      return;
    }
    case "bool":
      if (typeof value !== "boolean") out.push({ path, kind: "bool", value });
      return;
    case "stringList":
      if (!Array.isArray(value)) return void out.push({ path, kind: "list", value });
      value.forEach((item, i) => typeof item !== "string" && out.push({ path: `${path}.${i}`, kind: "string", value: item }));
      return;
    case "enum":
      if (typeof value !== "string" || !spec.values.includes(value)) out.push({ path, kind: "enum", value, values: spec.values });
      return;
    case "pageRanges":
      if (value === null) return;
      if (!Array.isArray(value)) return void out.push({ path, kind: "list", value });
      value.forEach((range, i) => {
        if (!Array.isArray(range)) return void out.push({ path: `${path}.${i}`, kind: "list", value: range });
        range.forEach((n, j) => !Number.isInteger(n) && out.push({ path: `${path}.${i}.${j}`, kind: "int", value: n }));
        const previousTo = i > 0 && Array.isArray(value[i - 1]) ? (value[i - 1] as number[])[1] : 0;
        const [from, to] = range as number[];
        if (range.length !== 2 || from < 1 || to <= from || from < previousTo) out.push({ path: `${path}.${i}`, kind: "pageRange", value: range });
      });
      return;
    case "object":
      if (!isObject(value)) return void out.push({ path, kind: "object", value });
      if (scope === "knowledgeBase") checkObject(spec.fields, value, path, out, scope);
  }
}

function checkObject(fields: Record<string, FieldSpec>, value: Record<string, unknown>, prefix: string, out: Violation[], scope: ParserConfigScope): void {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const spec = fields[key];
    if (spec) checkField(spec, item, path, out, scope);
    else if (scope === "knowledgeBase") out.push({ path, kind: "extra", value: item });
  }
}

/** What is wrong with a parser_config a client sent for a knowledge base or a document. */
export function parserConfigViolations(config: Record<string, unknown>, scope: ParserConfigScope = "knowledgeBase"): Violation[] {
  const out: Violation[] = [];
  checkObject(PARSER_CONFIG_FIELDS, config, "", out, scope);
  return out;
}

function defaultsOf(fields: Record<string, FieldSpec>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, spec.kind === "object" ? defaultsOf(spec.fields) : structuredClone(spec.default)]));
}

/** A validated client config with every schema key present (RAGFlow fills the model's defaults). */
export function populateParserConfig(config: Record<string, unknown>): ParserConfig {
  const populated = defaultsOf(PARSER_CONFIG_FIELDS);
  for (const [key, value] of Object.entries(config)) {
    const spec = PARSER_CONFIG_FIELDS[key];
    populated[key] = spec?.kind === "object" && isObject(value) ? { ...(populated[key] as object), ...value } : value;
  }
  return populated as ParserConfig;
}

const RAPTOR_ON = {
  use_raptor: true,
  prompt: DEFAULT_RAPTOR_PROMPT,
  max_token: 256,
  threshold: 0.1,
  max_cluster: 64,
  random_seed: 0,
};

/** The settings a chunk method starts from (RAGFlow's get_parser_config). */
export function chunkMethodDefaults(method: string): ParserConfig {
  const base: ParserConfig = { table_context_size: 0, image_context_size: 0 };
  switch (method) {
    case "naive":
      return {
        layout_recognize: "DeepDOC",
        chunk_token_num: 512,
        delimiter: "\n",
        auto_keywords: 0,
        auto_questions: 0,
        html4excel: false,
        ...base,
        topn_tags: 3,
        raptor: { ...RAPTOR_ON },
        graphrag: { use_graphrag: true, entity_types: [...DEFAULT_ENTITY_TYPES], method: "light" },
      };
    case "qa":
    case "manual":
    case "paper":
    case "book":
    case "laws":
    case "presentation":
      return { ...base, raptor: { use_raptor: false }, graphrag: { use_graphrag: false } };
    case "knowledge_graph":
      return {
        ...base,
        chunk_token_num: 8192,
        delimiter: "\\n",
        entity_types: [...KNOWLEDGE_GRAPH_ENTITY_TYPES],
        raptor: { use_raptor: false },
        graphrag: { use_graphrag: false },
      };
    default:
      return base;
  }
}

/** `patch` merged into `target` key by key, objects recursively (RAGFlow's deep_merge). */
export function deepMerge<T extends Record<string, unknown>>(target: T, patch: Record<string, unknown>): T {
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    result[key] = isObject(value) && isObject(result[key]) ? deepMerge(result[key] as Record<string, unknown>, value) : structuredClone(value);
  }
  return result as T;
}

/**
 * A document's config after a client's change: each key sent replaces the stored one as it was sent,
 * nested objects included (RAGFlow's clients read back exactly the `raptor` object they sent).
 */
export function documentParserConfig(current: ParserConfig, patch: Record<string, unknown>): ParserConfig {
  return { ...current, ...structuredClone(patch) };
}

/** The config stored for a new knowledge base: chunk-method defaults ← the populated client config ← the chat model. */
export function initialParserConfig(method: string, supplied: Record<string, unknown> | null | undefined, chatModel: string): ParserConfig {
  const given = supplied && Object.keys(supplied).length > 0 ? populateParserConfig(supplied) : {};
  return deepMerge(deepMerge(chunkMethodDefaults(method), given), { llm_id: chatModel });
}
