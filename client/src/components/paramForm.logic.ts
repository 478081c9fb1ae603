import type { Problem } from "../errors";

/**
 * The pure side of <ParamForm>: visibility, defaults, the draft a form edits, its checks, and the values to
 * send. A ParamSpec is the server's self-description of a parameter (platform/param-spec.ts, exposed as
 * the GraphQL `ParamSpecType`); the server holds its defaults, limits and options, the client only reads them.
 *
 * A draft keeps numbers as the text being typed; `valuesOf` turns it back into values. Paths are dotted
 * (`raptor.max_token`), as in the server's field problems.
 */

export interface ParamCondition {
  key: string;
  values: unknown[];
}

export interface ParamSpecView {
  key: string;
  type: string;
  label: string;
  help?: string | null;
  group?: string | null;
  default?: unknown;
  required: boolean;
  nullable: boolean;
  min?: number | null;
  max?: number | null;
  step?: number | null;
  minLength?: number | null;
  trimmed: boolean;
  pattern?: string | null;
  widget?: string | null;
  options: { value: string; label?: string | null }[];
  show: ParamCondition[];
  hide: ParamCondition[];
  params?: ParamSpecView[] | null;
}

export type ParamDraft = Record<string, unknown>;
export type ParamProblems = Record<string, Problem | undefined>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isNumeric = (spec: ParamSpecView) => spec.type === "integer" || spec.type === "number";

/** Shown when every `show` condition holds and no `hide` one does; siblings are the params of the same object. */
export function isShown(spec: ParamSpecView, siblings: Record<string, unknown>): boolean {
  const holds = (condition: ParamCondition) => condition.values.some((value) => same(value, siblings[condition.key]));
  return spec.show.every(holds) && !spec.hide.some(holds);
}

function defaultOf(spec: ParamSpecView): unknown {
  if (spec.default !== undefined && spec.default !== null) return structuredClone(spec.default);
  if (spec.type === "object") return withDefaults(spec.params ?? [], {});
  return spec.default;
}

/** The values with every missing parameter at its default (objects filled recursively); other keys are kept. */
export function withDefaults(specs: ParamSpecView[], values: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...values };
  for (const spec of specs) {
    const given = values[spec.key];
    filled[spec.key] = given === undefined ? defaultOf(spec) : spec.type === "object" && isObject(given) ? withDefaults(spec.params ?? [], given) : given;
  }
  return filled;
}

/** What a form starts from: the values at their defaults, numbers as text. */
export function draftOf(specs: ParamSpecView[], values: Record<string, unknown>): ParamDraft {
  const filled = withDefaults(specs, values);
  for (const spec of specs) {
    const value = filled[spec.key];
    if (isNumeric(spec)) filled[spec.key] = value === null || value === undefined ? "" : String(value);
    else if (spec.type === "object" && isObject(value)) filled[spec.key] = draftOf(spec.params ?? [], value);
  }
  return filled;
}

/** The draft as values: numbers from their text (blank is null), objects recursively. */
export function valuesOf(specs: ParamSpecView[], draft: ParamDraft): Record<string, unknown> {
  const values: Record<string, unknown> = { ...draft };
  for (const spec of specs) {
    const value = draft[spec.key];
    if (isNumeric(spec)) values[spec.key] = typeof value === "string" ? (value.trim() === "" ? null : Number(value)) : value;
    else if (spec.type === "object" && isObject(value)) values[spec.key] = valuesOf(spec.params ?? [], value);
  }
  return values;
}

const isWhole = (text: string) => /^-?\d+$/.test(text.trim());

function numberProblem(spec: ParamSpecView, text: string): Problem | undefined {
  const { min, max } = spec;
  if (spec.type === "integer" && !isWhole(text)) return { key: "errors.param.integer" };
  const n = Number(text);
  if (!Number.isFinite(n)) return { key: "errors.param.number" };
  if (min != null && max != null && (n < min || n > max)) return { key: "errors.param.between", params: { min, max } };
  if (min != null && n < min) return { key: "errors.param.min", params: { limit: min } };
  if (max != null && n > max) return { key: "errors.param.max", params: { limit: max } };
  return undefined;
}

function valueProblem(spec: ParamSpecView, value: unknown): Problem | undefined {
  const blank = value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
  if (blank) return spec.required ? { key: "errors.param.required" } : undefined;
  if (isNumeric(spec) && typeof value === "string") return numberProblem(spec, value);
  if (typeof value === "string") {
    const length = (spec.trimmed ? value.trim() : value).length;
    if (spec.minLength != null && length < spec.minLength) return { key: "errors.param.minLength", params: { limit: spec.minLength } };
    if (spec.pattern && !new RegExp(spec.pattern).test(value)) return { key: "errors.param.pattern" };
    if (spec.type === "url" && !/^https?:\/\/\S+$/i.test(value.trim())) return { key: "errors.param.url" };
    if (spec.type === "select" && !spec.options.some((o) => o.value === value)) return { key: "errors.param.option" };
  }
  return undefined;
}

/** The checks that need no round trip, on the shown parameters only; the server makes them all again. */
export function checkDraft(specs: ParamSpecView[], draft: ParamDraft, prefix = ""): ParamProblems {
  const problems: ParamProblems = {};
  for (const spec of specs) {
    if (!isShown(spec, draft)) continue;
    const value = draft[spec.key];
    const path = `${prefix}${spec.key}`;
    if (spec.type === "object" && isObject(value)) Object.assign(problems, checkDraft(spec.params ?? [], value, `${path}.`));
    else {
      const problem = valueProblem(spec, value);
      if (problem) problems[path] = problem;
    }
  }
  return problems;
}

/** An object's value to send: its shown parameters and the keys it does not declare (kept as they came). */
function shownValue(spec: ParamSpecView, value: Record<string, unknown>): Record<string, unknown> {
  const declared = new Map((spec.params ?? []).map((p) => [p.key, p]));
  return Object.fromEntries(Object.entries(value).filter(([key]) => !declared.has(key) || isShown(declared.get(key)!, value)));
}

/**
 * The values to send: only the shown parameters that differ from where the editing started, so that a
 * stored value the form does not show (or a default of another declaration) is never sent back. An
 * object is sent whole (its shown parameters), as RAGFlow's clients do.
 */
export function changedValues(specs: ParamSpecView[], draft: ParamDraft, initial: ParamDraft): Record<string, unknown> {
  const values = valuesOf(specs, draft);
  const before = valuesOf(specs, initial);
  const patch: Record<string, unknown> = {};
  for (const spec of specs) {
    if (!isShown(spec, draft) || same(values[spec.key], before[spec.key])) continue;
    const value = values[spec.key];
    patch[spec.key] = spec.type === "object" && isObject(value) ? shownValue(spec, value) : value;
  }
  return patch;
}

/** The parameters in the order declared, consecutive ones of one group together. */
export function groupsOf(specs: ParamSpecView[]): { group: string | null; specs: ParamSpecView[] }[] {
  const groups: { group: string | null; specs: ParamSpecView[] }[] = [];
  for (const spec of specs) {
    const group = spec.group ?? null;
    const last = groups[groups.length - 1];
    if (last && group !== null && last.group === group) last.specs.push(spec);
    else groups.push({ group, specs: [spec] });
  }
  return groups;
}

/** `maxTokens` → "Max tokens": the last resort for a parameter a newer server brings before the locales name it. */
export function humanize(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
