import type { ParamIssue, ParamSpec } from "../platform/param-spec";
import { isPlainObject } from "../platform/plain-object";

/**
 * Parameters many components share, with RAGFlow v0.14's keys and defaults (every component's params inherit
 * `message_history_window_size` 22 and `query` []; Generate and its kin take the model settings). Their texts
 * are shared keys under `flow.params`.
 */

/** A reference to a value: another component's output (`component_id`, `component_id@name`), a Begin input (`begin@key`) or `sys.*`. */
export type ValueReference = { type: "reference"; component_id: string } | { type: "input"; value: string };

function checkReferences(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: "flow.errors.inputVariables" }];
  return value.flatMap((entry, i): ParamIssue[] => {
    const ok = isPlainObject(entry) && ((entry.type === "reference" && typeof entry.component_id === "string") || (entry.type === "input" && typeof entry.value === "string"));
    return ok ? [] : [{ path: String(i), code: "type", messageKey: "flow.errors.inputVariables", value: entry }];
  });
}

/** The input variables (RAGFlow's `query`): what the component reads instead of its default input. */
export const INPUT_VARIABLES: ParamSpec = {
  key: "query",
  type: "json",
  label: "flow.params.query",
  help: "flow.help.query",
  default: [],
  widget: "inputVariables",
  check: checkReferences,
};

/** How many past messages of the conversation the component reads (RAGFlow: 22; Generate's form 12; Categorize 1). */
export function historyWindow(defaultSize: number): ParamSpec {
  return { key: "message_history_window_size", type: "integer", label: "flow.params.historyWindow", help: "flow.help.historyWindow", min: 0, max: 100, default: defaultSize };
}

export function topN(defaultN: number, max = 100): ParamSpec {
  return { key: "top_n", type: "integer", label: "flow.params.topN", min: 1, max, default: defaultN };
}

/** The node's own description (spec §3's common fields), shown on the canvas. */
export const DESCRIPTION: ParamSpec = { key: "description", type: "text", label: "flow.params.description", default: "" };

/**
 * A chat model and its settings, as chat assistants have them (each used only when set, like RAGFlow's "> 0";
 * the editor offers the Precise / Balance / Improvise presets). `llm_id` empty means the tenant's default model.
 */
export function modelParams(defaults: { temperature?: number } = {}): ParamSpec[] {
  return [
    { key: "llm_id", type: "string", label: "flow.params.llm", help: "flow.help.llm", default: "", widget: "chatModel" },
    { key: "temperature", type: "number", label: "flow.params.temperature", min: 0, max: 2, step: 0.01, default: defaults.temperature ?? 0.1, nullable: true, group: "flow.groups.modelSettings" },
    { key: "top_p", type: "number", label: "flow.params.topP", min: 0, max: 1, step: 0.01, default: 0.3, nullable: true, group: "flow.groups.modelSettings" },
    { key: "presence_penalty", type: "number", label: "flow.params.presencePenalty", min: 0, max: 2, step: 0.01, default: 0.4, nullable: true, group: "flow.groups.modelSettings" },
    { key: "frequency_penalty", type: "number", label: "flow.params.frequencyPenalty", min: 0, max: 2, step: 0.01, default: 0.7, nullable: true, group: "flow.groups.modelSettings" },
    { key: "max_tokens", type: "integer", label: "flow.params.maxTokens", min: 0, max: 128_000, default: 0, nullable: true, group: "flow.groups.modelSettings" },
  ];
}
