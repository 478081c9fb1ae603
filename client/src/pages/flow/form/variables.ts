/**
 * The list-shaped params the variable pickers edit, in the shapes the server stores (server/src/flows/params.ts,
 * engine/references.ts, components/tools/invoke.ts), kept exactly so that RAGFlow's files read the same:
 * - input variables (`query`): `{type: "reference", component_id}` or `{type: "input", value}`;
 * - parameters (Generate, Template, Code): `{key, component_id}`, `{key}` in a text reads the reference;
 * - Invoke's variables: `{key, component_id}` or `{key, value}` (a fixed text).
 */

export type InputVariable = { type: "reference"; component_id: string } | { type: "input"; value: string };

export interface Parameter {
  key: string;
  component_id: string;
}

export type KeyValueVariable = { key: string; component_id: string } | { key: string; value: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A list param as stored, or empty when it is not a list (an imported file's oddity is not lost: the server names it). */
export function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((current, i) => (i === index ? item : current));
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

export function inputVariablesOf(value: unknown): InputVariable[] {
  return listOf(value).map((entry) =>
    entry.type === "input" ? { type: "input", value: String(entry.value ?? "") } : { type: "reference", component_id: String(entry.component_id ?? "") },
  );
}

/** An input variable switched between a reference and a fixed text (the other's value is dropped). */
export function switchInputVariable(variable: InputVariable): InputVariable {
  return variable.type === "reference" ? { type: "input", value: "" } : { type: "reference", component_id: "" };
}

export function parametersOf(value: unknown): Parameter[] {
  return listOf(value).map((entry) => ({ key: String(entry.key ?? ""), component_id: String(entry.component_id ?? "") }));
}

/** The first of base, base_1, base_2… that no entry uses yet. */
export function freeKey(taken: readonly string[], base: string): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** A key for a reference: its last part, made a word (`Retrieval:Abc@total` → total, `begin@lang` → lang). */
export function keyFor(reference: string): string {
  const last = reference.split("@").pop()!.split(/[:.]/).pop()!;
  const word = last.replace(/[^\p{L}\p{N}_]+/gu, "_").replace(/^_+|_+$/g, "");
  return word || "value";
}

/** The keys used twice (the server refuses the second of each: parameters' `{key}`s must be unique). */
export function duplicateKeys(entries: readonly { key: string }[]): Set<number> {
  const seen = new Set<string>();
  const duplicates = new Set<number>();
  entries.forEach((entry, i) => {
    if (entry.key === "") return;
    if (seen.has(entry.key)) duplicates.add(i);
    seen.add(entry.key);
  });
  return duplicates;
}

export function keyValueVariablesOf(value: unknown): KeyValueVariable[] {
  return listOf(value).map((entry) =>
    typeof entry.component_id === "string" ? { key: String(entry.key ?? ""), component_id: entry.component_id } : { key: String(entry.key ?? ""), value: String(entry.value ?? "") },
  );
}

export const isReferenceVariable = (variable: KeyValueVariable): variable is { key: string; component_id: string } => "component_id" in variable;

/** A variable switched between a reference and a fixed text, keeping its key. */
export function switchKeyValueVariable(variable: KeyValueVariable): KeyValueVariable {
  return isReferenceVariable(variable) ? { key: variable.key, value: "" } : { key: variable.key, component_id: "" };
}

/** A prompt with `{reference}` put where the caret is (or at the end), as RAGFlow's prompt editor inserts variables. */
export function insertReference(text: string, reference: string, caret: number = text.length): { text: string; caret: number } {
  const at = Math.max(0, Math.min(caret, text.length));
  const inserted = `{${reference}}`;
  return { text: text.slice(0, at) + inserted + text.slice(at), caret: at + inserted.length };
}
