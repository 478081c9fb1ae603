import type { FieldProblems, Problem } from "../../../errors";

/**
 * The parser settings a knowledge base or a document is edited with, in RAGFlow's parser_config names
 * (the server's `parser-config.ts` holds their limits and defaults). Numbers stay text while they are typed.
 */
export interface PageRangeDraft {
  from: string;
  to: string;
}

export interface RaptorDraft {
  use_raptor: boolean;
  prompt: string;
  max_token: string;
  threshold: string;
  max_cluster: string;
  random_seed: string;
}

export interface ParserDraft {
  chunk_token_num: string;
  delimiter: string;
  layout_recognize: string;
  task_page_size: string;
  html4excel: boolean;
  auto_keywords: number;
  auto_questions: number;
  pages: PageRangeDraft[];
  raptor: RaptorDraft;
  entity_types: string[];
}

export type ParserField = "chunkTokens" | "delimiter" | "layout" | "pages" | "taskPageSize" | "html4excel" | "autoKeywords" | "autoQuestions" | "raptor" | "entityTypes";

const PDF_METHODS = ["naive", "book", "laws", "manual", "paper", "one"];
const RAPTOR_METHODS = ["naive", "book", "laws", "manual", "paper", "presentation", "qa", "one"];

/** Which settings a chunk method reads (as RAGFlow's settings form shows them). */
export function fieldsOf(method: string): Set<ParserField> {
  const fields = new Set<ParserField>();
  if (method === "naive" || method === "knowledge_graph") fields.add("chunkTokens").add("delimiter");
  if (PDF_METHODS.includes(method)) fields.add("layout").add("pages").add("taskPageSize");
  if (method === "naive") fields.add("html4excel");
  if (method !== "knowledge_graph" && method !== "tag") fields.add("autoKeywords").add("autoQuestions");
  if (RAPTOR_METHODS.includes(method)) fields.add("raptor");
  if (method === "knowledge_graph") fields.add("entityTypes");
  return fields;
}

export const LAYOUT_CHOICES = ["DeepDOC", "Plain Text"];

export const DEFAULT_RAPTOR_PROMPT =
  "Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.";

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const text = (value: unknown, fallback: string): string => (value === undefined || value === null ? fallback : String(value));
/** A stored newline is shown as the two characters \n, which is how the setting is typed (the server unescapes it). */
const shownDelimiter = (value: unknown): string => text(value, "\\n").replace(/\n/g, "\\n").replace(/\t/g, "\\t");

export function parserDraftOf(config: Record<string, unknown>): ParserDraft {
  const raptor = asRecord(config.raptor);
  const graphrag = asRecord(config.graphrag);
  // Edits are saved under graphrag (the only place the server's schema accepts them), so that copy wins when present.
  const entityTypes = Array.isArray(graphrag.entity_types) ? graphrag.entity_types : Array.isArray(config.entity_types) ? config.entity_types : [];
  const pages = Array.isArray(config.pages) ? (config.pages as unknown[]) : [];
  return {
    chunk_token_num: text(config.chunk_token_num, "512"),
    delimiter: shownDelimiter(config.delimiter),
    layout_recognize: LAYOUT_CHOICES.includes(String(config.layout_recognize)) ? String(config.layout_recognize) : "DeepDOC",
    task_page_size: text(config.task_page_size, "12"),
    html4excel: config.html4excel === true,
    auto_keywords: Number(config.auto_keywords ?? 0) || 0,
    auto_questions: Number(config.auto_questions ?? 0) || 0,
    pages: pages.map((range) => (Array.isArray(range) ? { from: text(range[0], ""), to: text(range[1], "") } : { from: "", to: "" })),
    raptor: {
      use_raptor: raptor.use_raptor === true,
      prompt: text(raptor.prompt, DEFAULT_RAPTOR_PROMPT),
      max_token: text(raptor.max_token, "256"),
      threshold: text(raptor.threshold, "0.1"),
      max_cluster: text(raptor.max_cluster, "64"),
      random_seed: text(raptor.random_seed, "0"),
    },
    entity_types: entityTypes.map(String),
  };
}

const isWhole = (value: string) => /^-?\d+$/.test(value.trim());

/** A required whole number between min and max (max optional). */
function wholeProblem(value: string, min: number, max?: number): Problem | undefined {
  if (value.trim() === "") return { key: "errors.knowledge.required" };
  if (!isWhole(value)) return { key: "kb.validation.wholeNumber" };
  const n = Number(value);
  if (max !== undefined && (n < min || n > max)) return { key: "errors.knowledge.between", params: { min, max } };
  if (n < min) return { key: "errors.knowledge.atLeast", params: { limit: min } };
  return undefined;
}

function fractionProblem(value: string, min: number, max: number): Problem | undefined {
  if (value.trim() === "") return { key: "errors.knowledge.required" };
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) return { key: "errors.knowledge.between", params: { min, max } };
  return undefined;
}

/**
 * The §5 checks of the settings a method reads. Problems are keyed like the server's (`parserConfig.<path>`),
 * so a refusal from either side lands under the same input.
 */
export function checkParserDraft(method: string, draft: ParserDraft): FieldProblems {
  const fields = fieldsOf(method);
  const problems: FieldProblems = {};
  const put = (key: string, problem: Problem | undefined) => {
    if (problem) problems[`parserConfig.${key}`] = problem;
  };
  if (fields.has("chunkTokens")) put("chunk_token_num", wholeProblem(draft.chunk_token_num, 1, method === "knowledge_graph" ? 8192 : 2048));
  if (fields.has("delimiter") && draft.delimiter === "") put("delimiter", { key: "errors.knowledge.required" });
  if (fields.has("taskPageSize")) put("task_page_size", wholeProblem(draft.task_page_size, 1));
  if (fields.has("pages")) {
    let previousTo = 0;
    draft.pages.forEach((range, index) => {
      const from = range.from.trim();
      const to = range.to.trim();
      if (from === "") put(`pages.${index}.0`, { key: "kb.pages.missingFrom" });
      else if (!isWhole(from) || Number(from) < 1) put(`pages.${index}.0`, { key: "errors.knowledge.atLeast", params: { limit: 1 } });
      else if (Number(from) < previousTo) put(`pages.${index}.0`, { key: "kb.pages.afterPrevious" });
      if (to === "") put(`pages.${index}.1`, { key: "kb.pages.missingTo" });
      else if (!isWhole(to)) put(`pages.${index}.1`, { key: "kb.validation.wholeNumber" });
      else if (from !== "" && Number(to) <= Number(from)) put(`pages.${index}.1`, { key: "kb.pages.afterFrom" });
      if (isWhole(to)) previousTo = Number(to);
    });
  }
  if (fields.has("raptor") && draft.raptor.use_raptor) {
    if (!draft.raptor.prompt.trim()) put("raptor.prompt", { key: "errors.knowledge.required" });
    put("raptor.max_token", wholeProblem(draft.raptor.max_token, 1, 2048));
    put("raptor.threshold", fractionProblem(draft.raptor.threshold, 0, 1));
    put("raptor.max_cluster", wholeProblem(draft.raptor.max_cluster, 1, 1024));
    put("raptor.random_seed", wholeProblem(draft.raptor.random_seed, 0));
  }
  return problems;
}

/**
 * The settings to send: only those the method reads and that differ from where the editing started, so
 * that a stored value the form does not show (or a default of another method) is never sent back.
 * `stored` is the config being edited when the server takes each key as sent (a document's): the
 * graphrag settings the form does not show then travel with the entity types.
 */
export function parserConfigPatch(method: string, draft: ParserDraft, initial: ParserDraft, stored: Record<string, unknown> = {}): Record<string, unknown> {
  const fields = fieldsOf(method);
  const patch: Record<string, unknown> = {};
  const changed = <K extends keyof ParserDraft>(key: K) => JSON.stringify(draft[key]) !== JSON.stringify(initial[key]);
  if (fields.has("chunkTokens") && changed("chunk_token_num")) patch.chunk_token_num = Number(draft.chunk_token_num);
  if (fields.has("delimiter") && changed("delimiter")) patch.delimiter = draft.delimiter;
  if (fields.has("layout") && changed("layout_recognize")) patch.layout_recognize = draft.layout_recognize;
  if (fields.has("taskPageSize") && changed("task_page_size")) patch.task_page_size = Number(draft.task_page_size);
  if (fields.has("pages") && changed("pages")) patch.pages = draft.pages.length > 0 ? draft.pages.map((range) => [Number(range.from), Number(range.to)]) : null;
  if (fields.has("html4excel") && changed("html4excel")) patch.html4excel = draft.html4excel;
  if (fields.has("autoKeywords") && changed("auto_keywords")) patch.auto_keywords = draft.auto_keywords;
  if (fields.has("autoQuestions") && changed("auto_questions")) patch.auto_questions = draft.auto_questions;
  if (fields.has("raptor") && changed("raptor")) {
    const raptor = draft.raptor;
    patch.raptor = raptor.use_raptor
      ? {
          use_raptor: true,
          prompt: raptor.prompt,
          max_token: Number(raptor.max_token),
          threshold: Number(raptor.threshold),
          max_cluster: Number(raptor.max_cluster),
          random_seed: Number(raptor.random_seed),
        }
      : { use_raptor: false };
  }
  // The server's schema keeps entity types under graphrag; the knowledge-graph method reads them there too.
  if (fields.has("entityTypes") && changed("entity_types")) patch.graphrag = { ...asRecord(stored.graphrag), entity_types: draft.entity_types };
  return patch;
}
