import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";
import { isPlainObject } from "../../../platform/plain-object";

/** `parameters`: [{key, component_id}] — `{key}` in a text reads that component's output (or `begin@key`). Shared with Code. */
export function checkParameters(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: "flow.errors.parameters" }];
  const keys = new Set<string>();
  return value.flatMap((entry, i): ParamIssue[] => {
    if (!isPlainObject(entry) || typeof entry.key !== "string" || entry.key.trim() === "" || typeof entry.component_id !== "string") {
      return [{ path: String(i), code: "type", messageKey: "flow.errors.parameters", value: entry }];
    }
    if (keys.has(entry.key)) return [{ path: `${i}.key`, code: "duplicate", messageKey: "flow.errors.parameterKeyDuplicate", params: { key: entry.key }, value: entry.key }];
    keys.add(entry.key);
    return [];
  });
}

/** A text with `{key}` placeholders filled from other components' outputs, with no model. */
export const Template: ComponentDefinition = {
  name: "Template",
  category: "core",
  icon: "LuLayoutTemplate",
  params: [
    { key: "content", type: "text", label: "flow.components.Template.params.content", help: "flow.components.Template.params.contentHelp", default: "" },
    { key: "parameters", type: "json", label: "flow.components.Template.params.parameters", default: [], widget: "parameters", check: checkParameters },
    DESCRIPTION,
  ],
  restrictedTargets: ["Begin", "Relevant"],
  async run({ params, resolve }) {
    return { content: resolve(String(params.content ?? "")) };
  },
};
