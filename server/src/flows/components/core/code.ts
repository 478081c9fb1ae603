import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";
import { DomainError } from "../../../platform/errors";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { checkParameters } from "./template";

/**
 * A sandbox's bounds. QuickJS (compiled to WebAssembly) has no file system, network, timers nor host objects: the
 * code sees only its arguments. The deadline interrupts a loop that would not end; the memory limit an allocation
 * that would not stop. Both are tight because the sandbox runs on the flow's own thread.
 */
const TIME_LIMIT_MS = 2000;
const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
const STACK_LIMIT_BYTES = 1024 * 1024;

export const DEFAULT_CODE = "function main(args) {\n  return { result: args.input };\n}\n";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const failed = (reason: string) => new DomainError("BAD_REQUEST", "flow.components.Code.errors.failed", { reason });

/** Runs `main(args)` of a script in a fresh QuickJS context and gives back its JSON result. */
export async function runSandboxed(code: string, args: Record<string, unknown>): Promise<unknown> {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + TIME_LIMIT_MS));
  const vm = runtime.newContext();
  try {
    // JSON is a JavaScript expression: the arguments enter as data, never as code.
    const script = `${code}\n;if (typeof main !== "function") throw new ReferenceError("main");\n(async () => { const r = await main(${JSON.stringify(args)}); return r === undefined ? "null" : JSON.stringify(r); })()`;
    const evaluated = vm.evalCode(script, "code.js");
    if (evaluated.error) {
      const error: unknown = vm.dump(evaluated.error);
      evaluated.error.dispose();
      throw sandboxError(error);
    }
    const promise = evaluated.value;
    runtime.executePendingJobs();
    const state = vm.getPromiseState(promise);
    promise.dispose();
    if (state.type === "pending") throw new DomainError("BAD_REQUEST", "flow.components.Code.errors.pending");
    if (state.type === "rejected") {
      const error: unknown = vm.dump(state.error);
      state.error.dispose();
      throw sandboxError(error);
    }
    const text: unknown = vm.dump(state.value);
    state.value.dispose();
    return typeof text === "string" ? (JSON.parse(text) as unknown) : null;
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function sandboxError(error: unknown): DomainError {
  const name = isObject(error) ? String(error.name ?? "") : "";
  const message = isObject(error) ? String(error.message ?? "") : String(error);
  if (name === "ReferenceError" && message === "main") return new DomainError("BAD_REQUEST", "flow.components.Code.errors.noMain");
  if (name === "InternalError" && /interrupted/i.test(message)) return new DomainError("BAD_REQUEST", "flow.components.Code.errors.timeout", { seconds: TIME_LIMIT_MS / 1000 });
  if (/out of memory/i.test(message) || (name === "InternalError" && /stack overflow/i.test(message))) return new DomainError("BAD_REQUEST", "flow.components.Code.errors.memory", { megabytes: MEMORY_LIMIT_BYTES / (1024 * 1024) });
  return failed(name ? `${name}: ${message}` : message);
}

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
    for (const parameter of Array.isArray(params.parameters) ? params.parameters.filter(isObject) : []) {
      if (typeof parameter.key === "string") args[parameter.key] = resolve(`{${parameter.key}}`);
    }
    let result: unknown;
    try {
      result = await runSandboxed(String(params.code ?? ""), args);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw failed(error instanceof Error ? error.message : String(error));
    }
    if (typeof result === "string") return { content: result, values: { result } };
    return { content: JSON.stringify(result), values: isObject(result) ? result : { result } };
  },
};
