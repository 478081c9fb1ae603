import { freeKey, listOf, removeAt, replaceAt } from "./variables";

/**
 * Begin's inputs (`query`, server/src/flows/components/core/begin.ts; RAGFlow v0.14's BeginQuery): what a run
 * asks for before it starts, each read as `begin@key`. Types and their texts: `flow.components.Begin.inputTypes.*`.
 */

export const INPUT_TYPES = ["line", "paragraph", "options", "file", "integer", "boolean"] as const;
export type InputType = (typeof INPUT_TYPES)[number];

export interface BeginInput {
  key: string;
  name: string;
  type: InputType;
  optional: boolean;
  options: string[];
}

export function beginInputsOf(value: unknown): BeginInput[] {
  return listOf(value).map((field) => ({
    key: String(field.key ?? ""),
    name: String(field.name ?? ""),
    type: INPUT_TYPES.includes(field.type as InputType) ? (field.type as InputType) : "line",
    optional: field.optional === true,
    options: Array.isArray(field.options) ? field.options.map(String) : [],
  }));
}

/** A new single-line input, required, with a key no other input has. */
export function addInput(inputs: BeginInput[]): BeginInput[] {
  const key = freeKey(
    inputs.map((input) => input.key),
    "input",
  );
  return [...inputs, { key, name: "", type: "line", optional: false, options: [] }];
}

/** One input changed; its options are kept only while it is of type options. */
export function setInput(inputs: BeginInput[], index: number, patch: Partial<BeginInput>): BeginInput[] {
  const next = { ...inputs[index], ...patch };
  if (next.type !== "options") next.options = [];
  return replaceAt(inputs, index, next);
}

export function removeInput(inputs: BeginInput[], index: number): BeginInput[] {
  return removeAt(inputs, index);
}

/** Options typed one a line: blank lines dropped, each trimmed, kept once. */
export function optionsFromText(text: string): string[] {
  return [...new Set(text.split("\n").map((line) => line.trim()).filter(Boolean))];
}

/**
 * What is wrong with each input before the server says it (begin.ts checkInputs, same keys): a key missing, used
 * twice or holding what a reference cannot (`{begin@key}` ends at a space or brace), or options missing.
 */
export function inputProblems(inputs: BeginInput[]): Record<number, { key: string; params?: Record<string, unknown> }> {
  const problems: Record<number, { key: string; params?: Record<string, unknown> }> = {};
  const seen = new Set<string>();
  inputs.forEach((input, i) => {
    if (input.key.trim() === "") problems[i] = { key: "flow.components.Begin.errors.inputKey" };
    else if (/[\s{}]/.test(input.key)) problems[i] = { key: "flow.form.begin.keyFormat" };
    else if (seen.has(input.key)) problems[i] = { key: "flow.components.Begin.errors.inputKeyDuplicate", params: { key: input.key } };
    else if (input.type === "options" && input.options.length === 0) problems[i] = { key: "flow.components.Begin.errors.inputOptions", params: { key: input.key } };
    seen.add(input.key);
  });
  return problems;
}
