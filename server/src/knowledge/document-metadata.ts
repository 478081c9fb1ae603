/**
 * Documents' metadata (RAGFlow's meta_fields) across a knowledge base: what keys and values its documents
 * carry, and changes applied to many documents at once (contract §2.8, RAGFlow's DocMetadataService).
 */

export type MetaFields = Record<string, unknown>;

export type MetadataValueType = "string" | "number" | "list" | "time";

export interface MetadataKeySummary {
  /** The type most of the documents' values of this key have. */
  type: MetadataValueType;
  /** Each value (as text) with the number of documents that have it, most frequent first. */
  values: [string, number][];
}

/** A change to make: set `key` to `value` — or, with `match`, replace only a value equal to `match`. */
export interface MetadataUpdate {
  key: string;
  value: unknown;
  match?: unknown;
}

/** A removal: the key, or only one of its values. */
export interface MetadataDelete {
  key: string;
  value?: unknown;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function valueType(value: unknown): MetadataValueType | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return "number";
  if (typeof value === "string" && ISO_DATETIME.test(value)) return "time";
  return "string";
}

/** Python's str() of a metadata value, which RAGFlow counts values by. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}

/** The keys of the documents' metadata, each with its type and its values counted. */
export function summarizeMetadata(documents: MetaFields[]): Record<string, MetadataKeySummary> {
  const counts = new Map<string, Map<string, number>>();
  const types = new Map<string, Map<MetadataValueType, number>>();
  for (const meta of documents) {
    for (const [key, value] of Object.entries(meta)) {
      const type = valueType(value);
      if (type) {
        const byType = types.get(key) ?? new Map<MetadataValueType, number>();
        byType.set(type, (byType.get(type) ?? 0) + 1);
        types.set(key, byType);
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === null || item === undefined) continue;
        const byValue = counts.get(key) ?? new Map<string, number>();
        byValue.set(asText(item), (byValue.get(asText(item)) ?? 0) + 1);
        counts.set(key, byValue);
      }
    }
  }
  const summary: Record<string, MetadataKeySummary> = {};
  for (const [key, byValue] of counts) {
    // Sort is stable: values equally frequent stay in the order they were first seen, as in RAGFlow.
    const values = [...byValue].sort((a, b) => b[1] - a[1]);
    const byType = [...(types.get(key) ?? [])];
    const type = byType.reduce<[MetadataValueType, number]>((best, entry) => (entry[1] > best[1] ? entry : best), ["string", 0])[0];
    summary[key] = { type, values };
  }
  return summary;
}

const sameText = (a: unknown, b: unknown) => asText(a) === asText(b);
const distinct = (items: unknown[]) => items.filter((item, i) => items.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i);

/**
 * One document's metadata after the changes, or null when nothing changed. Updates run before deletes.
 * A list value grows by the new value (or has the `match`ed item replaced); a key the document lacks is
 * added unless the update names a `match`; a list emptied by deletes loses its key.
 */
export function changeMetadata(current: MetaFields, updates: MetadataUpdate[], deletes: MetadataDelete[]): MetaFields | null {
  const meta: MetaFields = structuredClone(current);
  let changed = false;
  for (const { key, value, match } of updates) {
    const matching = match !== undefined && match !== null && match !== "";
    const stored = meta[key];
    if (!(key in meta)) {
      if (matching) continue;
      meta[key] = Array.isArray(value) ? distinct(value) : value;
      changed = true;
    } else if (Array.isArray(stored)) {
      if (!matching) {
        meta[key] = distinct([...stored, ...(Array.isArray(value) ? value : [value])]);
        changed = true;
      } else if (stored.some((item) => sameText(item, match))) {
        meta[key] = distinct(stored.map((item) => (sameText(item, match) ? value : item)));
        changed = true;
      }
    } else if (!matching || sameText(stored, match)) {
      meta[key] = value;
      changed = true;
    }
  }
  for (const { key, value } of deletes) {
    if (!(key in meta)) continue;
    const stored = meta[key];
    if (Array.isArray(stored) && value !== undefined && value !== null) {
      const kept = stored.filter((item) => !sameText(item, value));
      if (kept.length === stored.length) continue;
      if (kept.length > 0) meta[key] = kept;
      else delete meta[key];
      changed = true;
    } else if (value === undefined || value === null || sameText(stored, value)) {
      delete meta[key];
      changed = true;
    }
  }
  return changed && JSON.stringify(meta) !== JSON.stringify(current) ? meta : null;
}
