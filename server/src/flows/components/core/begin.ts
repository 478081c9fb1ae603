import { DomainError } from "../../../platform/errors";
import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";
import { isPlainObject } from "../../../platform/plain-object";

/** The kinds of input Begin asks for (RAGFlow v0.14's BeginQueryType). */
export const BEGIN_INPUT_TYPES = ["line", "paragraph", "options", "file", "integer", "boolean"] as const;

export const DEFAULT_PROLOGUE = "Hi! I'm your smart assistant. What can I do for you?";

export interface BeginInput {
  key: string;
  name: string;
  type: (typeof BEGIN_INPUT_TYPES)[number];
  optional: boolean;
  options: string[];
}

function checkInputs(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: "flow.components.Begin.errors.inputs" }];
  const keys = new Set<string>();
  return value.flatMap((field, i): ParamIssue[] => {
    const path = String(i);
    if (!isPlainObject(field) || typeof field.key !== "string" || field.key.trim() === "") return [{ path, code: "required", messageKey: "flow.components.Begin.errors.inputKey", value: field }];
    if (!BEGIN_INPUT_TYPES.includes(field.type as BeginInput["type"])) return [{ path, code: "option", messageKey: "flow.components.Begin.errors.inputType", params: { key: field.key }, value: field.type }];
    if (keys.has(field.key)) return [{ path, code: "duplicate", messageKey: "flow.components.Begin.errors.inputKeyDuplicate", params: { key: field.key }, value: field.key }];
    keys.add(field.key);
    if (field.type === "options" && !(Array.isArray(field.options) && field.options.length > 0)) return [{ path, code: "required", messageKey: "flow.components.Begin.errors.inputOptions", params: { key: field.key } }];
    return [];
  });
}

/** The inputs Begin asks for, read leniently (a file from elsewhere may lack names or types). */
export function fieldsOf(params: Record<string, unknown>): BeginInput[] {
  const query = Array.isArray(params.query) ? params.query : [];
  return query.filter(isPlainObject).map((field) => ({
    key: String(field.key ?? ""),
    name: typeof field.name === "string" && field.name !== "" ? field.name : String(field.key ?? ""),
    type: (BEGIN_INPUT_TYPES.includes(field.type as BeginInput["type"]) ? field.type : "line") as BeginInput["type"],
    optional: field.optional === true,
    options: Array.isArray(field.options) ? field.options.map(String) : [],
  }));
}

/** A value given as text, as its field's type reads it (the run drawer and the API send text). */
function typedValue(field: BeginInput, text: string): unknown {
  const invalid = () => new DomainError("BAD_REQUEST", "flow.components.Begin.errors.inputInvalid", { name: field.name, type: field.type });
  switch (field.type) {
    case "integer": {
      const number = Number(text.trim());
      if (text.trim() === "" || !Number.isInteger(number)) throw invalid();
      return number;
    }
    case "boolean": {
      const lower = text.trim().toLowerCase();
      if (["true", "1", "yes", "on"].includes(lower)) return true;
      if (["false", "0", "no", "off"].includes(lower)) return false;
      throw invalid();
    }
    case "options":
      if (!field.options.includes(text)) throw invalid();
      return text;
    default:
      return text;
  }
}

/** The flow's start: its prologue, and the inputs a run is given (`begin@key`). */
export const Begin: ComponentDefinition = {
  name: "Begin",
  category: "core",
  icon: "LuHouse",
  params: [
    { key: "prologue", type: "text", label: "flow.components.Begin.params.prologue", default: DEFAULT_PROLOGUE },
    { key: "query", type: "json", label: "flow.components.Begin.params.query", help: "flow.components.Begin.params.queryHelp", default: [], widget: "beginInputs", check: checkInputs },
    DESCRIPTION,
  ],
  outputs: [],
  restrictedTargets: ["Relevant"],
  async run({ params, inputs, resolve }) {
    const given = new Map(inputs.map((input) => [input.component_id.replace(/^begin@/, ""), input.content]));
    const values: Record<string, unknown> = {};
    for (const field of fieldsOf(params)) {
      const text = given.get(field.key);
      if (text === undefined || text === "") {
        if (!field.optional) throw new DomainError("BAD_REQUEST", "flow.components.Begin.errors.inputRequired", { name: field.name });
        continue;
      }
      values[field.key] = typedValue(field, text);
    }
    return { content: resolve(String(params.prologue ?? "")), values };
  },
};
