import { DomainError, Invalid } from "../platform/errors";
import { failureText } from "./failure-text";
import { validate, withDefaults } from "../platform/param-spec";
import type { ComponentContext, ComponentOutput, FlowMessage, ResolvedInput } from "./component";
import { componentNamed } from "./components";
import type { FlowDsl } from "./dsl";
import { checkableParams, givenOverStored, openSecrets } from "./flow-secrets";
import type { FlowPorts } from "./ports";

/**
 * One component of a flow run alone on values the user gives (RAGFlow v0.15's `/canvas/debug`): its params as
 * saved, or as the editor's form has them now, its default input, and a value for each reference its texts hold.
 * Nothing is stored and the flow does not change; what it would have said to the user is kept and returned.
 */

export interface DebugInput {
  componentId: string;
  /** Params to use instead of the saved ones (the form being edited); merged over them (a masked secret is the saved one). */
  params?: Record<string, unknown> | null;
  /** The default input (the output of the component before it). */
  input?: string | null;
  /** Values of the references in its texts, by reference (`begin@lang`, `Retrieval:a`, `sys.query`). */
  values?: Record<string, string> | null;
  /** The conversation so far; the last user message is the question. */
  history?: FlowMessage[] | null;
}

export interface DebugResult {
  componentId: string;
  componentName: string;
  output: ComponentOutput | null;
  /** What it said to the user, joined. */
  said: string;
  error: string | null;
  elapsedMs: number;
  tokens: number;
}

const PLACEHOLDER = /\{([^{}\s]+)\}/g;

export async function debugComponent(dsl: FlowDsl, given: DebugInput, ports: FlowPorts, signal: AbortSignal): Promise<DebugResult> {
  const component = dsl.components[given.componentId];
  if (!component) throw new DomainError("BAD_REQUEST", "flow.errors.componentNotFound", { id: given.componentId });
  const name = component.obj.component_name;
  const definition = componentNamed(name);
  if (!definition || definition.editorOnly) throw new DomainError("BAD_REQUEST", "flow.errors.componentUnknown", { component: name });
  const merged = givenOverStored(definition, component.obj.params, given.params ?? {});
  const problems = validate(definition.params, checkableParams(definition, merged));
  if (problems.length > 0) throw Invalid(problems.map((p) => ({ field: `params.${p.path}`, messageKey: p.messageKey, params: p.params })));
  const values = given.values ?? {};
  const history = [...(given.history ?? [])];
  const input = given.input ?? "";
  const question = [...history].reverse().find((m) => m.role === "user")?.content ?? values["sys.query"] ?? input;
  const inputs: ResolvedInput[] = Object.entries(values).map(([reference, content]) => ({ component_id: reference, content }));
  const said: string[] = [];
  let tokens = 0;
  const context: ComponentContext = {
    componentId: given.componentId,
    params: openSecrets(definition, withDefaults(definition.params, merged), ports.openSecret),
    input,
    inputs,
    history,
    question,
    retrievals: [],
    resolve: (template) => template.replace(PLACEHOLDER, (whole, reference: string) => (reference === "input" ? input : (values[reference] ?? whole))),
    speaking: true,
    say: (delta) => void said.push(delta),
    loopCount: 1,
    replaceQuestion: (text) => {
      const index = history.map((m) => m.role).lastIndexOf("user");
      if (index >= 0) history[index] = { role: "user", content: text };
    },
    invoke: async (componentId) => Promise.reject(new DomainError("BAD_REQUEST", "flow.errors.debugNoInvoke", { component: componentId })),
    countTokens: (n) => void (tokens += n),
    ports,
    language: ports.language,
    signal,
  };
  const started = performance.now();
  let output: ComponentOutput | null = null;
  let error: string | null = null;
  try {
    output = await definition.run(context);
  } catch (failure) {
    error = failureText(failure, ports.language, `flow debug ${given.componentId}`);
  }
  return { componentId: given.componentId, componentName: name, output, said: said.join(""), error, elapsedMs: Math.round(performance.now() - started), tokens };
}
