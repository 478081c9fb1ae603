/**
 * RAGFlow's metadata condition (contract §2.8), evaluated over documents' meta_fields:
 * `{"logic": "and"|"or", "conditions": [{"name", "comparison_operator", "value"}]}`. String comparisons are
 * case-insensitive, numbers compare numerically, `YYYY-MM-DD` dates compare as their text does (which is
 * chronological); a list value matches when one of its items does; a key the document lacks never matches.
 */

export interface MetadataCondition {
  logic: "and" | "or";
  conditions: { name: string; operator: string; value: unknown }[];
}

/** The condition in a request body, or null when there is none to apply (not an object, or no conditions). */
export function parseMetadataCondition(value: unknown): MetadataCondition | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const body = value as Record<string, unknown>;
  const conditions = Array.isArray(body.conditions) ? body.conditions : [];
  const parsed = conditions
    .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null && !Array.isArray(c))
    .map((c) => ({ name: String(c.name ?? ""), operator: String(c.comparison_operator ?? "").trim().toLowerCase(), value: c.value }));
  if (parsed.length === 0) return null;
  return { logic: String(body.logic ?? "and").toLowerCase() === "or" ? "or" : "and", conditions: parsed };
}

/**
 * The "manual" form of a chat assistant's stored metadata filter (RAGFlow's dialog `meta_data_filter`):
 * `{"method": "manual", "manual": [{"key", "op", "value"}], "logic": "and"|"or"}`, as a condition; null when
 * the filter is not manual or has no conditions. The "auto" and "semi_auto" methods (conditions written by a
 * chat model from the question) are not applied.
 */
export function parseManualMetadataFilter(value: unknown): MetadataCondition | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const filter = value as Record<string, unknown>;
  if (filter.method !== "manual" || !Array.isArray(filter.manual)) return null;
  return parseMetadataCondition({
    logic: filter.logic,
    conditions: filter.manual
      .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null && !Array.isArray(c))
      .map((c) => ({ name: c.key, comparison_operator: c.op, value: c.value })),
  });
}

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const text = (v: unknown) => String(v ?? "").trim().toLowerCase();
const numeric = (v: unknown): number | null => (typeof v === "number" ? v : typeof v === "string" && NUMBER.test(v) ? Number(v) : null);

function order(actual: unknown, expected: unknown): number {
  const [a, b] = [numeric(actual), numeric(expected)];
  if (a !== null && b !== null) return a - b;
  const [x, y] = [text(actual), text(expected)];
  return x < y ? -1 : x > y ? 1 : 0;
}

const equal = (actual: unknown, expected: unknown) => order(actual, expected) === 0;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : String(v ?? "").split(",").map((s) => s.trim()));
const isEmpty = (v: unknown) => v === null || v === undefined || text(v) === "" || (Array.isArray(v) && v.length === 0);

const OPERATORS: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  is: equal,
  "=": equal,
  "not is": (a, e) => !equal(a, e),
  "≠": (a, e) => !equal(a, e),
  "!=": (a, e) => !equal(a, e),
  contains: (a, e) => text(a).includes(text(e)),
  "not contains": (a, e) => !text(a).includes(text(e)),
  in: (a, e) => list(e).some((item) => equal(a, item)),
  "not in": (a, e) => !list(e).some((item) => equal(a, item)),
  "start with": (a, e) => text(a).startsWith(text(e)),
  "end with": (a, e) => text(a).endsWith(text(e)),
  ">": (a, e) => order(a, e) > 0,
  "<": (a, e) => order(a, e) < 0,
  "≥": (a, e) => order(a, e) >= 0,
  ">=": (a, e) => order(a, e) >= 0,
  "≤": (a, e) => order(a, e) <= 0,
  "<=": (a, e) => order(a, e) <= 0,
};

function matches(meta: Record<string, unknown>, condition: MetadataCondition["conditions"][number]): boolean {
  if (!(condition.name in meta)) return false;
  const actual = meta[condition.name];
  if (condition.operator === "empty") return isEmpty(actual);
  if (condition.operator === "not empty") return !isEmpty(actual);
  const compare = OPERATORS[condition.operator];
  if (!compare) return false;
  return (Array.isArray(actual) ? actual : [actual]).some((item) => compare(item, condition.value));
}

/** The ids of the documents whose metadata satisfies the condition. */
export function documentsMatching(documents: { id: string; metaFields: Record<string, unknown> | null }[], condition: MetadataCondition): string[] {
  return documents
    .filter((d) => {
      const meta = d.metaFields ?? {};
      return condition.logic === "or" ? condition.conditions.some((c) => matches(meta, c)) : condition.conditions.every((c) => matches(meta, c));
    })
    .map((d) => d.id);
}
