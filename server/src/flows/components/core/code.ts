import { DomainError } from "../../../platform/errors";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { runSandboxed } from "./code-sandbox";
import { checkParameters } from "./template";
import { isPlainObject } from "../../../platform/plain-object";

export const DEFAULT_CODE = "function main(args) {\n  return { result: args.input };\n}\n";

/**
 * JavaScript in a sandbox (beyond RAGFlow v0.14: its v0.19 Code ran in Docker). `code` defines `main(args)`;
 * `args` holds each `parameters` key with the value it references, `input` (the default input) and `inputs`
 * (the input variables' values). The result, as JSON, is the output: a string as the text, an object's fields
 * also as named outputs.
 */
export const Code: ComponentDefinition = {
  name: "Code",
  category: "tools",
  icon: "LuCodeXml",
  params: [
    { key: "lang", type: "select", label: "flow.components.Code.params.lang", options: [{ value: "javascript", label: "flow.components.Code.languages.javascript" }], default: "javascript" },
    { key: "code", type: "text", label: "flow.components.Code.params.code", help: "flow.components.Code.params.codeHelp", default: DEFAULT_CODE, widget: "code", required: true },
    { key: "parameters", type: "json", label: "flow.components.Code.params.parameters", default: [], widget: "parameters", check: checkParameters },
    INPUT_VARIABLES,
    DESCRIPTION,
  ],
  restrictedTargets: ["Begin"],
  async run({ params, input, inputs, resolve }) {
    const args: Record<string, unknown> = { input, inputs: inputs.map((value) => value.content) };
    for (const parameter of Array.isArray(params.parameters) ? params.parameters.filter(isPlainObject) : []) {
      if (typeof parameter.key === "string") args[parameter.key] = resolve(`{${parameter.key}}`);
    }
    let result: unknown;
    try {
      result = await runSandboxed(String(params.code ?? ""), args);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError("BAD_REQUEST", "flow.components.Code.errors.failed", { reason: error instanceof Error ? error.message : String(error) });
    }
    if (typeof result === "string") return { content: result, values: { result } };
    return { content: JSON.stringify(result), values: isPlainObject(result) ? result : { result } };
  },
};
