import type { Request, Response } from "express";
import { pythonStringRepr } from "../../rest/python-repr";
import { CHUNK_METHOD_NAMES } from "../../ingestion/chunkers/registry";
import { populateParserConfig, parserConfigViolations, type Violation } from "../parser-config";
import { isPlainObject } from "../../platform/plain-object";

/**
 * RAGFlow's pydantic models of the dataset endpoints (contract §1.6 a, §1.7, §2.2–2.5), reproduced for
 * their messages: clients and RAGFlow's test suite compare the pydantic v2 English texts, wrapped as
 * `Field: <path> - Message: <text> - Value: <input>`. The business rules themselves (name dedupe,
 * model availability, parser-config defaults) stay in KnowledgeBaseService.
 */

/** The chunk methods the dataset endpoints accept (not knowledge_graph or resume, contract §2.2). */
export const DATASET_CHUNK_METHODS = CHUNK_METHOD_NAMES.filter((name) => name !== "knowledge_graph" && name !== "resume");

interface Issue {
  path: string;
  message: string;
  value: unknown;
}

/** Python's repr() of a JSON value: how pydantic prints inputs inside lists and dicts. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return pythonStringRepr(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`).join(", ")}}`;
  return String(value);
}

/** Python's str(): strings as they are, everything else as repr(). */
function pythonStr(value: unknown): string {
  return typeof value === "string" ? value : pythonRepr(value);
}

function formatIssues(issues: Issue[]): string {
  return issues
    .map(({ path, message, value }) => {
      const text = pythonStr(value);
      const shown = text.length > 128 ? `${text.slice(0, 125)}...` : text;
      return `Field: <${path}> - Message: <${message}> - Value: <${shown}>`;
    })
    .join("\n");
}

/** pydantic's wording of a Literal: `'a' or 'b'`, `'a', 'b' or 'c'`. */
function literalMessage(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return `Input should be ${quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}` : quoted[0]}`;
}

const MODEL_CLASS_OF: Record<string, string> = { "": "ParserConfig", raptor: "RaptorConfig", graphrag: "GraphragConfig" };

function violationMessage(v: Violation): string {
  switch (v.kind) {
    case "extra":
      return "Extra inputs are not permitted";
    case "int":
      return "Input should be a valid integer";
    case "number":
      return "Input should be a valid number";
    case "string":
      return "Input should be a valid string";
    case "bool":
      return "Input should be a valid boolean";
    case "list":
      return "Input should be a valid list";
    case "object":
      return `Input should be a valid dictionary or instance of ${MODEL_CLASS_OF[v.path] ?? "ParserConfig"}`;
    case "enum":
      return literalMessage(v.values ?? []);
    case "min":
      return `Input should be greater than or equal to ${v.limit}`;
    case "max":
      return `Input should be less than or equal to ${v.limit}`;
    case "minLength":
      return `String should have at least ${v.limit} character${v.limit === 1 ? "" : "s"}`;
    case "pageRange":
      return "Value error, each page range must be [from, to] with 1 ≤ from < to, in ascending order";
  }
}

/** Python's UUID(v).version == 1, answered with the hex form (hyphens, braces and "urn:uuid:" accepted). */
export function uuid1Hex(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const hex = value
    .trim()
    .replace(/^urn:/i, "")
    .replace(/^uuid:/i, "")
    .replace(/^\{|\}$/g, "")
    .replace(/-/g, "")
    .toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) && hex[12] === "1" ? hex : null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/**
 * The request checks of the schema-validated endpoints, in RAGFlow's order (contract §1.6 a): JSON
 * content type, parseable, an object (a falsy JSON value counts as `{}`).
 */
export function jsonObjectPayload(req: Request, res: Response): Parsed<Record<string, unknown>> {
  const contentType = req.headers["content-type"];
  if ((contentType ?? "").split(";")[0].trim().toLowerCase() !== "application/json") {
    return fail(`Unsupported content type: Expected application/json, got ${contentType ?? "None"}`);
  }
  const empty = req.headers["transfer-encoding"] === undefined && Number(req.headers["content-length"] ?? 0) === 0;
  if (res.locals.malformedJson || empty) return fail("Malformed JSON syntax: Missing commas/brackets or invalid encoding");
  const body: unknown = req.body;
  if (body === null || body === undefined || body === false || body === 0 || body === "" || (Array.isArray(body) && body.length === 0)) return { ok: true, value: {} };
  if (typeof body !== "object" || Array.isArray(body)) {
    const type = typeof body === "string" ? "str" : Array.isArray(body) ? "list" : typeof body === "boolean" ? "bool" : Number.isInteger(body) ? "int" : "float";
    return fail(`Invalid request payload: expected object, got ${type}`);
  }
  return { ok: true, value: body as Record<string, unknown> };
}

/** The fields of CreateDatasetReq / UpdateDatasetReq, as the service takes them. */
export interface DatasetFields {
  name?: string;
  avatar?: string | null;
  description?: string | null;
  embeddingModel?: string | null;
  permission?: string;
  chunkMethod?: string;
  parserConfig?: Record<string, unknown> | null;
  pagerank?: number;
}

function checkString(issues: Issue[], path: string, value: unknown, options: { nullable?: boolean; trim?: boolean; min?: number; max?: number }): string | null | undefined {
  if (value === null && options.nullable) return null;
  if (typeof value !== "string") return void issues.push({ path, message: "Input should be a valid string", value });
  const text = options.trim ? value.trim() : value;
  if (options.min !== undefined && text.length < options.min) {
    return void issues.push({ path, message: `String should have at least ${options.min} character${options.min === 1 ? "" : "s"}`, value });
  }
  if (options.max !== undefined && text.length > options.max) return void issues.push({ path, message: `String should have at most ${options.max} characters`, value });
  return text;
}

function checkStrictInt(issues: Issue[], path: string, value: unknown, min: number, max: number): number | undefined {
  if (typeof value !== "number" || !Number.isInteger(value)) return void issues.push({ path, message: "Input should be a valid integer", value });
  if (value < min) return void issues.push({ path, message: `Input should be greater than or equal to ${min}`, value });
  if (value > max) return void issues.push({ path, message: `Input should be less than or equal to ${max}`, value });
  return value;
}

function avatarProblem(avatar: string): string | null {
  const comma = avatar.indexOf(",");
  if (comma < 0) return "Missing MIME prefix. Expected format: data:<mime>;base64,<data>";
  const prefix = avatar.slice(0, comma);
  if (!prefix.startsWith("data:")) return "Invalid MIME prefix format. Must start with 'data:'";
  if (!["image/jpeg", "image/png"].includes(prefix.slice(5).split(";")[0])) return "Unsupported MIME type. Allowed: ['image/jpeg', 'image/png']";
  return null;
}

function embeddingModelProblem(model: string): string | null {
  if (!model.includes("@")) return "Embedding model identifier must follow <model_name>@<provider> format";
  const at = model.indexOf("@");
  const [name, provider] = [model.slice(0, at), model.slice(at + 1)];
  if (!name || !provider) return "Both model_name and provider must be non-empty strings";
  if (!name.trim() || !provider.trim()) return "Model name and provider cannot be whitespace-only strings";
  return null;
}

const PYTHON_JSON_LIMIT = 65535;

/**
 * CreateDatasetReq (`update: false`) or UpdateDatasetReq (`update: true`, every field optional and
 * `pagerank` allowed): only the keys present come back, so an update can tell "unset" from null.
 */
export function parseDatasetBody(body: Record<string, unknown>, mode: { update: boolean; datasetId?: string }): Parsed<DatasetFields> {
  const issues: Issue[] = [];
  const out: DatasetFields = {};
  const has = (key: string) => Object.prototype.hasOwnProperty.call(body, key);

  if (has("name")) {
    const name = checkString(issues, "name", body.name, { trim: true, min: 1, max: 128 });
    if (typeof name === "string") out.name = name;
  } else if (!mode.update) {
    issues.push({ path: "name", message: "Field required", value: body });
  }
  for (const key of ["avatar", "description"] as const) {
    if (!has(key)) continue;
    const text = checkString(issues, key, body[key], { nullable: true, max: 65535 });
    if (typeof text === "string" && key === "avatar") {
      const problem = avatarProblem(text);
      if (problem) issues.push({ path: key, message: problem, value: text });
      else out.avatar = text;
    } else if (text !== undefined) {
      out[key] = text;
    }
  }
  if (has("embedding_model")) {
    const model = checkString(issues, "embedding_model", body.embedding_model, { nullable: true, trim: true, max: 255 });
    if (typeof model === "string") {
      const problem = embeddingModelProblem(model);
      if (problem) issues.push({ path: "embedding_model", message: problem, value: model });
      else out.embeddingModel = model;
    } else if (model === null) {
      out.embeddingModel = null;
    }
  }
  if (has("permission")) {
    if (body.permission === "me" || body.permission === "team") out.permission = body.permission;
    else issues.push({ path: "permission", message: literalMessage(["me", "team"]), value: body.permission });
  }
  if (has("chunk_method")) {
    if (typeof body.chunk_method === "string" && (DATASET_CHUNK_METHODS as readonly string[]).includes(body.chunk_method)) out.chunkMethod = body.chunk_method;
    else issues.push({ path: "chunk_method", message: literalMessage(DATASET_CHUNK_METHODS), value: body.chunk_method });
  }
  // Ingestion pipelines are not part of Cairn: the fields are validated as RAGFlow does, then ignored.
  if (has("parse_type") && body.parse_type !== null) checkStrictInt(issues, "parse_type", body.parse_type, 0, 64);
  if (has("pipeline_id") && body.pipeline_id !== null) {
    const id = checkString(issues, "pipeline_id", body.pipeline_id, {});
    if (typeof id === "string" && id !== "") {
      if (id.length !== 32) issues.push({ path: "pipeline_id", message: "Value error, pipeline_id must be 32 hex characters", value: id });
      else if (!/^[0-9a-fA-F]{32}$/.test(id)) issues.push({ path: "pipeline_id", message: "Value error, pipeline_id must be hexadecimal", value: id });
    }
  }
  if (has("parser_config")) {
    const config = body.parser_config;
    if (config === null || (isPlainObject(config) && Object.keys(config).length === 0)) {
      out.parserConfig = null;
    } else if (!isPlainObject(config)) {
      issues.push({ path: "parser_config", message: violationMessage({ path: "", kind: "object", value: config }), value: config });
    } else {
      // Cairn's page-range rule runs after the types, as a pydantic validator would: not for a range whose items are wrong.
      const all = parserConfigViolations(config);
      const violations = all.filter((v) => v.kind !== "pageRange" || !all.some((o) => o.path.startsWith(`${v.path}.`)));
      for (const v of violations) issues.push({ path: `parser_config.${v.path}`, message: violationMessage(v), value: v.value });
      if (violations.length === 0) {
        const size = JSON.stringify(populateParserConfig(config)).length;
        if (size > PYTHON_JSON_LIMIT) {
          issues.push({ path: "parser_config", message: `Parser config exceeds size limit (max 65,535 characters). Current size: ${size}`, value: config });
        } else {
          out.parserConfig = config;
        }
      }
    }
  }
  if (mode.update && mode.datasetId !== undefined && !uuid1Hex(mode.datasetId)) {
    issues.push({ path: "dataset_id", message: "Invalid UUID1 format", value: mode.datasetId });
  }
  if (mode.update && has("pagerank")) {
    const pagerank = checkStrictInt(issues, "pagerank", body.pagerank, 0, 100);
    if (pagerank !== undefined) out.pagerank = pagerank;
  }
  const known = new Set(["name", "avatar", "description", "embedding_model", "permission", "chunk_method", "parse_type", "pipeline_id", "parser_config", ...(mode.update ? ["pagerank"] : [])]);
  for (const [key, value] of Object.entries(body)) {
    if (!known.has(key)) issues.push({ path: key, message: "Extra inputs are not permitted", value });
  }
  if (issues.length > 0) return fail(formatIssues(issues));

  if (!mode.update) {
    // The mode rule of CreateDatasetReq: a chunk method, or else both pipeline fields.
    const pipeline = ["parse_type", "pipeline_id"].filter((key) => has(key) && body[key] !== null && body[key] !== "");
    if (has("chunk_method") && pipeline.length > 0) {
      return fail(formatIssues([{ path: "", message: `parser_id provided → disallowed fields present: ${pipeline.join(", ")}`, value: body }]));
    }
    if (!has("chunk_method") && pipeline.length === 1) {
      const missing = ["parse_type", "pipeline_id"].filter((key) => !pipeline.includes(key));
      return fail(formatIssues([{ path: "", message: `parser_id omitted → required fields missing: ${missing.join(", ")}`, value: body }]));
    }
  }
  return { ok: true, value: out };
}

/** DeleteDatasetReq: `ids` required, a list of UUID1s without duplicates, or null for all. */
export function parseDeleteBody(body: Record<string, unknown>): Parsed<string[] | null> {
  const issues: Issue[] = [];
  if (!Object.prototype.hasOwnProperty.call(body, "ids")) issues.push({ path: "ids", message: "Field required", value: body });
  for (const [key, value] of Object.entries(body)) if (key !== "ids") issues.push({ path: key, message: "Extra inputs are not permitted", value });
  const ids = body.ids;
  let parsed: string[] | null = null;
  if (ids !== undefined && ids !== null) {
    if (!Array.isArray(ids)) {
      issues.unshift({ path: "ids", message: "Input should be a valid list", value: ids });
    } else {
      const typeIssues = ids.flatMap((id, i) => (typeof id === "string" ? [] : [{ path: `ids.${i}`, message: "Input should be a valid string", value: id }]));
      if (typeIssues.length > 0) issues.unshift(...typeIssues);
      else {
        const hex = ids.map(uuid1Hex);
        if (hex.some((h) => h === null)) {
          issues.unshift({ path: "ids", message: "Invalid UUID1 format", value: ids });
        } else {
          const seen = new Set<string>();
          const duplicates = [...new Set((hex as string[]).filter((h) => seen.has(h) || !seen.add(h)))];
          if (duplicates.length > 0) issues.unshift({ path: "ids", message: `Duplicate ids: '${duplicates.join(", ")}'`, value: ids });
          parsed = hex as string[];
        }
      }
    }
  }
  return issues.length > 0 ? fail(formatIssues(issues)) : { ok: true, value: parsed };
}

export interface DatasetListQuery {
  page: number;
  pageSize: number;
  orderBy: "createdAt" | "updatedAt";
  desc: boolean;
  name?: string;
  id?: string;
}

const LAX_TRUE = ["true", "1", "yes", "y", "on", "t"];
const LAX_FALSE = ["false", "0", "no", "n", "off", "f"];

/** ListDatasetReq from the query string (lax parsing: strings become ints and booleans). */
export function parseListQuery(query: Record<string, string>): Parsed<DatasetListQuery> {
  const issues: Issue[] = [];
  const out: DatasetListQuery = { page: 1, pageSize: 30, orderBy: "createdAt", desc: true };
  for (const [key, field] of [
    ["page", "page"],
    ["page_size", "pageSize"],
  ] as const) {
    const raw = query[key];
    if (raw === undefined) continue;
    if (!/^\s*[+-]?\d+\s*$/.test(raw)) issues.push({ path: key, message: "Input should be a valid integer, unable to parse string as an integer", value: raw });
    else if (Number(raw) < 1) issues.push({ path: key, message: "Input should be greater than or equal to 1", value: raw });
    else out[field] = Number(raw);
  }
  if (query.orderby !== undefined) {
    if (query.orderby === "create_time" || query.orderby === "update_time") out.orderBy = query.orderby === "create_time" ? "createdAt" : "updatedAt";
    else issues.push({ path: "orderby", message: literalMessage(["create_time", "update_time"]), value: query.orderby });
  }
  if (query.desc !== undefined) {
    const word = query.desc.trim().toLowerCase();
    if (LAX_TRUE.includes(word)) out.desc = true;
    else if (LAX_FALSE.includes(word)) out.desc = false;
    else issues.push({ path: "desc", message: "Input should be a valid boolean, unable to interpret input", value: query.desc });
  }
  if (query.name) out.name = query.name;
  if (query.id !== undefined) {
    const id = uuid1Hex(query.id);
    if (id) out.id = id;
    else issues.push({ path: "id", message: "Invalid UUID1 format", value: query.id });
  }
  const known = new Set(["page", "page_size", "orderby", "desc", "name", "id"]);
  for (const [key, value] of Object.entries(query)) if (!known.has(key)) issues.push({ path: key, message: "Extra inputs are not permitted", value });
  return issues.length > 0 ? fail(formatIssues(issues)) : { ok: true, value: out };
}
