import { INPUT_TYPES, type BeginInput, type InputType } from "../form/beginInputs";

/**
 * Begin's inputs (`begin.params.query`, RAGFlow v0.14's BeginQuery) as a run asks for them, in the editor's run panel
 * and on a shared flow's page: one field per input by its type, required ones checked before the run, values sent as
 * the server reads them (server/src/flows/components/core/begin.ts). A file's value is its text, which the server
 * reads from it (flowInputFileText).
 */

export type { BeginInput };

/** Why an input cannot be sent, as a message key with its params. */
export interface InputProblem {
  key: string;
  params?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The inputs Begin's params declare; ones without a key are left out (the editor flags them). */
export function askedInputs(params: Record<string, unknown> | null | undefined): BeginInput[] {
  const query = Array.isArray(params?.query) ? params.query : [];
  return query.filter(isObject).flatMap((field) => {
    const key = typeof field.key === "string" ? field.key.trim() : "";
    if (!key) return [];
    const type = (INPUT_TYPES as readonly string[]).includes(String(field.type)) ? (field.type as InputType) : "line";
    const name = typeof field.name === "string" && field.name.trim() ? field.name : key;
    return [{ key, name, type, optional: field.optional === true, options: Array.isArray(field.options) ? field.options.map(String) : [] }];
  });
}

/** What the form holds: text for every type but a switch's. A file's value is the text read from it. */
export type BeginValues = Record<string, string | boolean>;

/** The form's starting values: switches off, the rest empty (or, with `firstOption`, an options input at its first option). */
export function emptyValues(inputs: readonly BeginInput[], { firstOption = false } = {}): BeginValues {
  return Object.fromEntries(inputs.map((input) => [input.key, input.type === "boolean" ? false : firstOption && input.type === "options" ? (input.options[0] ?? "") : ""]));
}

const INTEGER = /^[+-]?\d+$/;

/** The problems of the values given, by input key: a required input left empty, a number that is not whole, an option not offered. */
export function checkValues(inputs: readonly BeginInput[], values: BeginValues): Record<string, InputProblem> {
  const problems: Record<string, InputProblem> = {};
  for (const input of inputs) {
    const value = values[input.key];
    if (input.type === "boolean") continue;
    const text = typeof value === "string" ? value : "";
    if (text.trim() === "") {
      if (!input.optional) problems[input.key] = { key: "flow.run.inputs.required", params: { name: input.name } };
    } else if (input.type === "integer" && !INTEGER.test(text.trim())) {
      problems[input.key] = { key: "flow.run.inputs.integer", params: { name: input.name } };
    } else if (input.type === "options" && !input.options.includes(text)) {
      problems[input.key] = { key: "flow.run.inputs.option", params: { name: input.name } };
    }
  }
  return problems;
}

/** The problems as a shared flow's page tells its visitor: a field left empty is to be filled in, and a file cannot be given there. */
export function visitorProblems(inputs: readonly BeginInput[], values: BeginValues): Record<string, InputProblem> {
  const problems = checkValues(inputs, values);
  for (const input of inputs) {
    if (input.type === "file" && !input.optional) problems[input.key] = { key: "flow.publish.shared.fileUnavailable" };
    else if (problems[input.key]?.key === "flow.run.inputs.required") problems[input.key] = { key: "flow.publish.shared.inputRequired" };
  }
  return problems;
}

/** The values to start the run with: typed as Begin reads them; optional inputs left empty are not sent. */
export function runInputs(inputs: readonly BeginInput[], values: BeginValues): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const input of inputs) {
    const value = values[input.key];
    if (input.type === "boolean") given[input.key] = value === true;
    else if (typeof value === "string" && value.trim() !== "") given[input.key] = input.type === "integer" ? Number(value.trim()) : value;
  }
  return given;
}

/** Begin's prologue as the panel shows it before the flow speaks: its `{begin@key}` references filled with the values given. */
export function greetingOf(prologue: unknown, values: Record<string, unknown>): string {
  if (typeof prologue !== "string") return "";
  return prologue.replace(/\{begin@([^{}\s]+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** A file given for a `file` input is read on the server as an uploaded document is (§9: at most 10 MB). */
export const INPUT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** Why a file cannot be given, before it is sent: too large. */
export function fileProblem(name: string, size: number): InputProblem | null {
  return size > INPUT_FILE_MAX_BYTES ? { key: "flow.run.inputs.fileTooBig", params: { name, max: "10 MB" } } : null;
}
