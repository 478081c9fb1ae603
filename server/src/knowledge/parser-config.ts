import { chunkMethod } from "../ingestion/chunkers/registry";
import { BASE_PARSER_DEFAULTS, PARSER_CONFIG_PARAMS } from "../ingestion/chunkers/parser-params";
import type { ParserConfig } from "../ingestion/types";
import { validate, withDefaults, type ParamError, type ParamSpec } from "../platform/param-spec";
import { isPlainObject } from "../platform/plain-object";

export { DEFAULT_RAPTOR_PROMPT } from "../ingestion/enrichment/raptor";

/**
 * The parser settings of a knowledge base and its documents: their validation against RAGFlow v0.24's
 * parser_config schema (declared as ParamSpecs in ingestion/chunkers/parser-params.ts, each chunk method
 * with its own params and defaults), and the deep merge used when settings are changed. The GraphQL
 * layer turns violations into translated field messages, the REST facade into RAGFlow's pydantic texts.
 */

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

/**
 * The schema as validated. A client sends patches, so nothing is required, and pydantic checks every
 * value given, shown in the form or not; a length limit stands for RAGFlow's min_length. A document's
 * config keeps what the dataset endpoints refuse: no length limits, and nested objects stored as sent.
 */
function schemaOf(specs: readonly ParamSpec[], scope: ParserConfigScope): ParamSpec[] {
  return specs.map(({ required: _, displayOptions: __, ...spec }) => {
    if (scope === "document") return spec.type === "object" ? { ...spec, params: [] } : { ...spec, minLength: undefined };
    return spec.params ? { ...spec, params: schemaOf(spec.params, scope) } : spec;
  });
}

const SCHEMAS: Record<ParserConfigScope, ParamSpec[]> = {
  knowledgeBase: schemaOf(PARSER_CONFIG_PARAMS, "knowledgeBase"),
  document: schemaOf(PARSER_CONFIG_PARAMS, "document"),
};

const TYPE_KINDS: Record<string, ViolationKind> = { integer: "int", number: "number", string: "string", boolean: "bool", list: "list", object: "object" };

function violationOf(error: ParamError): Violation {
  const { path, value, params = {} } = error;
  switch (error.code) {
    case "unknown":
      return { path, kind: "extra", value };
    case "type":
      return { path, kind: TYPE_KINDS[String(params.expected)] ?? "string", value };
    case "option":
      return { path, kind: "enum", value, values: params.options as string[] };
    case "min":
    case "max":
    case "minLength":
      return { path, kind: error.code as "min" | "max" | "minLength", value, limit: params.limit as number };
    case "pageRange":
      return { path, kind: "pageRange", value };
    default:
      throw new Error(`parser_config: unexpected ${error.code} at ${path}`);
  }
}

/** What is wrong with a parser_config a client sent for a knowledge base or a document. */
export function parserConfigViolations(config: Record<string, unknown>, scope: ParserConfigScope = "knowledgeBase"): Violation[] {
  return validate(SCHEMAS[scope], config, { strict: scope === "knowledgeBase", partial: true }).map(violationOf);
}

/** A validated client config with every schema key present (RAGFlow fills the model's defaults). */
export function populateParserConfig(config: Record<string, unknown>): ParserConfig {
  return withDefaults(PARSER_CONFIG_PARAMS, config) as ParserConfig;
}

/** The settings a chunk method starts from (RAGFlow's get_parser_config). */
export function chunkMethodDefaults(method: string): ParserConfig {
  return structuredClone(chunkMethod(method)?.defaults ?? BASE_PARSER_DEFAULTS);
}

/** `patch` merged into `target` key by key, objects recursively (RAGFlow's deep_merge). */
export function deepMerge<T extends Record<string, unknown>>(target: T, patch: Record<string, unknown>): T {
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    result[key] = isPlainObject(value) && isPlainObject(result[key]) ? deepMerge(result[key] as Record<string, unknown>, value) : structuredClone(value);
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
