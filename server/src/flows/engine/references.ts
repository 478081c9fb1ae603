import type { ComponentOutput } from "../component";
import type { FlowGraph } from "./graph";
import { isPlainObject } from "../../platform/plain-object";

/**
 * References between the parts of a flow, as RAGFlow writes them in params and texts:
 * `{component_id}` and `{component_id@output}` (a component's text), `{component_id@name}` (a named output),
 * `{begin@key}` (an input of Begin), `{sys.query}`, `{sys.user_id}`, `{sys.conversation_turns}`, `{sys.files}`
 * (v0.20+ globals) and the flow's variables (`{env.name}`), `{key}` of the component's own `parameters`
 * ([{key, component_id}], Generate's and Template's), and `{input}` (the component's default input).
 */

export const PLACEHOLDER = /\{([^{}\s]+)\}/g;

/** A value as text: lists one item a line, objects as JSON. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join("\n");
  return JSON.stringify(value);
}

/** The component a reference names ("Generate:x@output" → "Generate:x"), or undefined for Begin inputs, globals and unknown names. */
export function referencedComponent(graph: FlowGraph, reference: string): string | undefined {
  if (graph.has(reference)) return reference;
  const at = reference.lastIndexOf("@");
  if (at > 0 && graph.has(reference.slice(0, at))) return reference.slice(0, at);
  return undefined;
}

export interface ParameterBinding {
  key: string;
  component_id: string;
}

/** A component's `parameters` ([{key, component_id}]); RAGFlow's files sometimes keep them beside `params` (import moves them in). */
export function parameterBindings(params: Record<string, unknown>): ParameterBinding[] {
  const list = params.parameters;
  if (!Array.isArray(list)) return [];
  return list.filter((p): p is ParameterBinding => isPlainObject(p) && typeof p.key === "string" && typeof p.component_id === "string");
}

/** Every reference written in a component's params: `component_id`/`cpn_id` fields and `{…}` placeholders in texts. */
export function referencesIn(params: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, key: string, depth: number) => {
    if (depth > 12) return;
    if (typeof value === "string") {
      if (key === "component_id" || key === "cpn_id") found.add(value);
      else for (const match of value.matchAll(PLACEHOLDER)) found.add(match[1]);
    } else if (Array.isArray(value)) for (const item of value) visit(item, key, depth + 1);
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) visit(v, k, depth + 1);
  };
  visit(params, "", 0);
  return [...found];
}

/** The other components whose outputs this one reads, written in its params. */
export function referencedComponents(graph: FlowGraph, componentId: string): string[] {
  const ids = referencesIn(graph.params(componentId)).map((reference) => referencedComponent(graph, reference));
  return [...new Set(ids)].filter((id): id is string => id !== undefined && id !== componentId);
}

/** What a run has made so far, for filling references. */
export interface ReferenceValues {
  outputs: Record<string, ComponentOutput>;
  beginInputs: Record<string, unknown>;
  globals: Record<string, unknown>;
  /** The latest user message: what a reference to an Answer reads (RAGFlow's Generate does so). */
  question: string;
}

/** The value of one reference, or undefined when it names nothing known (the text is then kept as written). */
export function referenceValue(graph: FlowGraph, values: ReferenceValues, reference: string): string | undefined {
  if (reference.startsWith("begin@")) {
    const key = reference.slice("begin@".length);
    return key in values.beginInputs ? asText(values.beginInputs[key]) : "";
  }
  if (reference in values.globals) return asText(values.globals[reference]);
  const id = referencedComponent(graph, reference);
  if (id === undefined) return undefined;
  if (graph.isInteraction(id)) return values.question;
  const output = values.outputs[id];
  if (id === reference) return output?.content ?? "";
  const name = reference.slice(id.length + 1);
  if (name === "output" || name === "content") return output?.content ?? "";
  if (name === "items") return asText(output?.items?.map((item) => item.content));
  return asText(output?.values?.[name]);
}

/** Fills every placeholder of a text for one component (its `parameters`, `{input}`, then the flow's references). */
export function resolveText(template: string, graph: FlowGraph, values: ReferenceValues, componentId: string, input: string): string {
  const bindings = new Map(parameterBindings(graph.has(componentId) ? graph.params(componentId) : {}).map((b) => [b.key, b.component_id]));
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const bound = bindings.get(name);
    if (bound !== undefined) return referenceValue(graph, values, bound) ?? "";
    if (name === "input") return input;
    return referenceValue(graph, values, name) ?? whole;
  });
}
