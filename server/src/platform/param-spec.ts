import { isPlainObject } from "./plain-object";
/**
 * ParamSpec: how a pluggable thing (a chunk method, a model provider, a flow component) describes the
 * parameters it takes, so that the server validates them and the client draws their form from one
 * declaration (after n8n's INodeProperties and displayOptions).
 *
 * A spec says:
 * - `key`: the name of the value (a nested object's params are keyed inside it: `raptor.max_token`);
 * - `type`: string, text (multi-line), secret (sealed at rest, shown masked), url (http or https), integer,
 *   number, boolean, select / multiselect (one / several of `options`), list (of strings), json (anything,
 *   checked by `check`), object (its own `params`);
 * - `label`, `help`, `group`: message keys (the texts live in locales/*.json);
 * - `default`: the value when none is given (`withDefaults`); an object's default is its params' defaults;
 * - limits: `min`, `max`, `step` (numbers), `minLength` (strings, after trimming when `trimmed`), `pattern`;
 * - `required` (present and not blank, unless hidden), `nullable` (null means "not set");
 * - `displayOptions`: shown only when every `show` sibling holds one of the listed values and no `hide`
 *   sibling does (siblings are the params of the same object);
 * - `widget`: a presentation hint a client may know (slider, segmented, tags, pageRanges, multiline);
 * - `check`: a rule the server runs after the built-in ones (not serialised), answering issues with
 *   their own message keys, e.g. a page-range order or a base64 key.
 *
 * `validate(specs, values)` answers every problem as a `ParamError` (dotted path, code, message key);
 * hidden parameters are not required (null is fine), yet a value given for one is still checked.
 */

export type ParamType = "string" | "text" | "secret" | "url" | "integer" | "number" | "boolean" | "select" | "multiselect" | "list" | "json" | "object";

export type ParamValue = string | number | boolean | null | readonly ParamValue[] | { readonly [key: string]: ParamValue };

export interface ParamOption {
  value: string;
  /** Message key; without it the value is shown as it is (a product name such as "DeepDOC"). */
  label?: string;
}

export interface DisplayOptions {
  show?: Readonly<Record<string, readonly ParamValue[]>>;
  hide?: Readonly<Record<string, readonly ParamValue[]>>;
}

/** A problem a `check` rule finds; `path` is relative to the parameter (e.g. "0.1" inside a list). */
export interface ParamIssue {
  path?: string;
  code: string;
  messageKey: string;
  params?: Record<string, unknown>;
  /** The part of the value at fault, when not the whole. */
  value?: unknown;
}

export interface ParamSpec {
  key: string;
  type: ParamType;
  label: string;
  help?: string;
  group?: string;
  default?: ParamValue;
  required?: boolean;
  nullable?: boolean;
  min?: number;
  max?: number;
  step?: number;
  minLength?: number;
  trimmed?: boolean;
  pattern?: string;
  options?: readonly ParamOption[];
  params?: readonly ParamSpec[];
  displayOptions?: DisplayOptions;
  widget?: string;
  check?: (value: unknown, siblings: Record<string, unknown>) => ParamIssue[];
}

export type ParamErrorCode = "unknown" | "required" | "type" | "min" | "max" | "minLength" | "pattern" | "option" | "url" | (string & {});

export interface ParamError {
  /** Dotted path from the top, e.g. "raptor.max_token" or "pages.0.1". */
  path: string;
  code: ParamErrorCode;
  messageKey: string;
  value: unknown;
  /** field (the path), and limit (min, max, minLength), expected (type), options (option), pattern, or a check's own. */
  params?: Record<string, unknown>;
}

export interface ValidateOptions {
  /** Refuse keys no spec declares (code "unknown"); otherwise they are kept unchecked. */
  strict?: boolean;
  /** Check only the keys given (a patch): nothing is missing. */
  partial?: boolean;
}

export type ParamValues = Record<string, unknown>;

/** Whether a parameter holds a secret: sealed at rest, never shown again once stored (its type says so, declared once per param). */
export function isSecret(spec: Pick<ParamSpec, "type">): boolean {
  return spec.type === "secret";
}

/** Whether a parameter is shown, given the values of its siblings (with their defaults). */
export function isVisible(spec: ParamSpec, siblings: ParamValues): boolean {
  const holds = (rule: Readonly<Record<string, readonly ParamValue[]>> | undefined, wanted: boolean) =>
    Object.entries(rule ?? {}).every(([key, values]) => values.some((v) => sameValue(v, siblings[key])) === wanted);
  return holds(spec.displayOptions?.show, true) && holds(spec.displayOptions?.hide, false);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The value of a spec when none is given: its default, or an object of its params' defaults. */
export function defaultOf(spec: ParamSpec): unknown {
  if (spec.default !== undefined) return structuredClone(spec.default);
  return spec.type === "object" ? withDefaults(spec.params ?? [], {}) : undefined;
}

/** The values with every missing parameter at its default (objects filled recursively); other keys are kept. */
export function withDefaults(specs: readonly ParamSpec[], values: ParamValues): ParamValues {
  const filled: ParamValues = {};
  for (const spec of specs) {
    const given = values[spec.key];
    const value = given === undefined ? defaultOf(spec) : spec.type === "object" && isPlainObject(given) ? withDefaults(spec.params ?? [], given) : given;
    if (value !== undefined) filled[spec.key] = value;
  }
  for (const [key, value] of Object.entries(values)) if (!(key in filled)) filled[key] = value;
  return filled;
}

const errorOf = (path: string, code: ParamErrorCode, value: unknown, params: Record<string, unknown> = {}): ParamError => ({
  path,
  code,
  messageKey: `errors.param.${code}`,
  value,
  params: { field: path, ...params },
});

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);

/** The type problems of one value, then its limits; nothing when it is fine. */
function checkValue(spec: ParamSpec, value: unknown, path: string, options: ValidateOptions): ParamError[] {
  if (value === null && spec.nullable) return [];
  const typeError = (expected: string) => [errorOf(path, "type", value, { expected })];
  const optionValues = (spec.options ?? []).map((o) => o.value);
  switch (spec.type) {
    case "string":
    case "text":
    case "secret":
    case "url": {
      if (typeof value !== "string") return typeError("string");
      const length = (spec.trimmed ? value.trim() : value).length;
      if (spec.minLength !== undefined && length < spec.minLength) return [errorOf(path, "minLength", value, { limit: spec.minLength })];
      if (spec.pattern !== undefined && value !== "" && !new RegExp(spec.pattern).test(value)) return [errorOf(path, "pattern", value, { pattern: spec.pattern })];
      if (spec.type === "url" && value !== "" && !isHttpUrl(value)) return [errorOf(path, "url", value)];
      return [];
    }
    case "integer":
    case "number": {
      const ok = typeof value === "number" && Number.isFinite(value) && (spec.type === "number" || Number.isInteger(value));
      if (!ok) return typeError(spec.type);
      if (spec.min !== undefined && (value as number) < spec.min) return [errorOf(path, "min", value, { limit: spec.min })];
      if (spec.max !== undefined && (value as number) > spec.max) return [errorOf(path, "max", value, { limit: spec.max })];
      return [];
    }
    case "boolean":
      return typeof value === "boolean" ? [] : typeError("boolean");
    case "select":
      return typeof value === "string" && optionValues.includes(value) ? [] : [errorOf(path, "option", value, { options: optionValues })];
    case "multiselect":
      if (!Array.isArray(value)) return typeError("list");
      return value.flatMap((item, i) => (typeof item === "string" && optionValues.includes(item) ? [] : [errorOf(`${path}.${i}`, "option", item, { options: optionValues })]));
    case "list":
      if (!Array.isArray(value)) return typeError("list");
      return value.flatMap((item, i) => (typeof item === "string" ? [] : [errorOf(`${path}.${i}`, "type", item, { expected: "string" })]));
    case "json":
      return [];
    case "object":
      if (!isPlainObject(value)) return typeError("object");
      return validateAt(spec.params ?? [], value, `${path}.`, options);
  }
}

function validateAt(specs: readonly ParamSpec[], values: ParamValues, prefix: string, options: ValidateOptions): ParamError[] {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const siblings = withDefaults(specs, values);
  const errors: ParamError[] = [];
  // In the order the values were given, so that messages list problems as the client wrote them.
  for (const [key, value] of Object.entries(values)) {
    const spec = byKey.get(key);
    const path = `${prefix}${key}`;
    if (!spec) {
      if (options.strict) errors.push(errorOf(path, "unknown", value));
      continue;
    }
    const visible = isVisible(spec, siblings);
    // null is "not set": fine where nullable, and for a parameter that is hidden.
    if (value === undefined || (value === null && (spec.nullable || !visible))) continue;
    if (spec.required && isBlank(value) && visible) {
      errors.push(errorOf(path, "required", value));
      continue;
    }
    const found = checkValue(spec, value, path, options);
    errors.push(...found);
    if (found.length === 0 && spec.check) {
      for (const issue of spec.check(value, siblings)) {
        errors.push({ path: issue.path ? `${path}.${issue.path}` : path, code: issue.code, messageKey: issue.messageKey, value: "value" in issue ? issue.value : value, params: issue.params });
      }
    }
  }
  if (!options.partial) {
    for (const spec of specs) {
      if (values[spec.key] === undefined && spec.required && spec.default === undefined && isVisible(spec, siblings)) errors.push(errorOf(`${prefix}${spec.key}`, "required", undefined));
    }
  }
  return errors;
}

/** Every problem of `values` against `specs`, in the order the values were given, missing required ones last. */
export function validate(specs: readonly ParamSpec[], values: ParamValues, options: ValidateOptions = {}): ParamError[] {
  return validateAt(specs, values, "", options);
}

/**
 * Problems in the specs themselves: duplicate keys, defaults that fail their own spec, display conditions
 * on unknown siblings. Registries run it in their tests, so that a wrong declaration fails early.
 */
export function specProblems(specs: readonly ParamSpec[], prefix = ""): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  for (const spec of specs) {
    const path = `${prefix}${spec.key}`;
    if (keys.has(spec.key)) problems.push(`${path}: duplicate key`);
    keys.add(spec.key);
    const fallback = defaultOf(spec);
    if (fallback !== undefined) for (const e of validate([spec], { [spec.key]: fallback })) problems.push(`${path}: default fails ${e.code} at ${e.path}`);
    for (const sibling of [...Object.keys(spec.displayOptions?.show ?? {}), ...Object.keys(spec.displayOptions?.hide ?? {})]) {
      if (!specs.some((s) => s.key === sibling)) problems.push(`${path}: displayOptions names unknown ${sibling}`);
    }
    if ((spec.type === "select" || spec.type === "multiselect") && !(spec.options?.length ?? 0)) problems.push(`${path}: no options`);
    if (spec.type === "object") problems.push(...specProblems(spec.params ?? [], `${path}.`));
  }
  return problems;
}

/** Every message key the specs name (labels, help, groups, option labels), for the locale-completeness tests. */
export function messageKeysOf(specs: readonly ParamSpec[]): string[] {
  return specs.flatMap((spec) => [
    spec.label,
    ...(spec.help ? [spec.help] : []),
    ...(spec.group ? [spec.group] : []),
    ...(spec.options ?? []).flatMap((o) => (o.label ? [o.label] : [])),
    ...messageKeysOf(spec.params ?? []),
  ]);
}
