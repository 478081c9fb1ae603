import { changedValues, checkDraft, draftOf, type ParamDraft, type ParamProblems, type ParamSpecView } from "../../../components/paramForm.logic";
import type { Problem } from "../../../errors";

/**
 * The parser settings a knowledge base or a document is edited with, in RAGFlow's parser_config names.
 * Which settings a chunk method reads, their defaults, limits and the RAPTOR prompt come from the server
 * (each method's ParamSpecs); this module only adapts the stored config to the form and back: the
 * delimiter as typed, the entity types' two homes, and page ranges as pairs of text.
 */

/** The server's field problems of parser settings are keyed `parserConfig.<path>`. */
export const PARSER_PROBLEM_PREFIX = "parserConfig.";

export interface PageRangeDraft {
  from: string;
  to: string;
}

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

/**
 * The stored config as the form shows it, before the method's defaults (`withMethod` adds them): a stored
 * newline as the two characters \n, which is how the setting is typed (the server unescapes it); entity
 * types from graphrag (where edits are saved), else from the knowledge_graph method's own defaults.
 */
export function parserDraftOf(config: Record<string, unknown>): ParamDraft {
  const draft: ParamDraft = { ...config };
  if (typeof config.delimiter === "string") draft.delimiter = config.delimiter.replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  const graphrag = asRecord(config.graphrag);
  if (!Array.isArray(graphrag.entity_types) && Array.isArray(config.entity_types)) draft.graphrag = { ...graphrag, entity_types: config.entity_types };
  const pages = Array.isArray(config.pages) ? (config.pages as unknown[]) : [];
  draft.pages = pages.map((range): PageRangeDraft => (Array.isArray(range) ? { from: text(range[0]), to: text(range[1]) } : { from: "", to: "" }));
  return draft;
}

/** The draft for a method's settings: its defaults where nothing is stored, and a choice it does not offer (a model name RAGFlow stores) shown as the default. */
export function withMethod(specs: ParamSpecView[], draft: ParamDraft): ParamDraft {
  const filled = draftOf(specs, draft);
  for (const spec of specs) {
    if (spec.options.length > 0 && spec.type !== "select" && !spec.options.some((o) => o.value === filled[spec.key])) filled[spec.key] = spec.default;
  }
  return filled;
}

const isWhole = (value: string) => /^-?\d+$/.test(value.trim());

/** Each range is [from, to) with 1 ≤ from < to, after the previous one (RAGFlow's checks, in its words). */
function pageProblems(pages: PageRangeDraft[]): ParamProblems {
  const problems: ParamProblems = {};
  const put = (key: string, problem: Problem) => (problems[`${PARSER_PROBLEM_PREFIX}pages.${key}`] = problem);
  let previousTo = 0;
  pages.forEach((range, index) => {
    const from = range.from.trim();
    const to = range.to.trim();
    if (from === "") put(`${index}.0`, { key: "kb.pages.missingFrom" });
    else if (!isWhole(from) || Number(from) < 1) put(`${index}.0`, { key: "errors.knowledge.atLeast", params: { limit: 1 } });
    else if (Number(from) < previousTo) put(`${index}.0`, { key: "kb.pages.afterPrevious" });
    if (to === "") put(`${index}.1`, { key: "kb.pages.missingTo" });
    else if (!isWhole(to)) put(`${index}.1`, { key: "kb.validation.wholeNumber" });
    else if (from !== "" && Number(to) <= Number(from)) put(`${index}.1`, { key: "kb.pages.afterFrom" });
    if (isWhole(to)) previousTo = Number(to);
  });
  return problems;
}

/** The checks of the settings a method reads, keyed like the server's problems so that a refusal from either side lands under the same input. */
export function checkParserDraft(specs: ParamSpecView[], draft: ParamDraft): ParamProblems {
  const filled = withMethod(specs, draft);
  const problems = checkDraft(specs, filled, PARSER_PROBLEM_PREFIX);
  return specs.some((spec) => spec.key === "pages") ? { ...problems, ...pageProblems(filled.pages as PageRangeDraft[]) } : problems;
}

/**
 * The settings to send: only those the method reads and that changed since the editing started (from
 * `stored`), so that a stored value the form does not show, or a default of another method, is never sent back.
 */
export function parserConfigPatch(specs: ParamSpecView[], draft: ParamDraft, stored: Record<string, unknown>): Record<string, unknown> {
  const patch = changedValues(specs, withMethod(specs, draft), withMethod(specs, parserDraftOf(stored)));
  if ("pages" in patch) {
    const pages = patch.pages as PageRangeDraft[];
    patch.pages = pages.length > 0 ? pages.map((range) => [Number(range.from), Number(range.to)]) : null;
  }
  return patch;
}
