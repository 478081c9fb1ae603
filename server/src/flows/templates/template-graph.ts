import { BEGIN_ID, type DslComponent, type FlowDsl, type GraphEdge, type GraphNode } from "../dsl";

/**
 * Writes a template's DSL from its components and links, so that a template file reads as the flow it is:
 * the components' `upstream`/`downstream` and the editor's graph (nodes, edges with their ports, positions) are
 * made here from one list, and cannot disagree. The result is the stored format, a RAGFlow v0.14 canvas DSL.
 */

export interface TemplateComponent {
  /** "begin", or "<component_name>:<Name>" as RAGFlow's editor makes them. */
  id: string;
  /** The node's display name, unique within the flow. */
  name: string;
  /** Column and row on the canvas (left to right is the order the flow runs in). */
  at: [column: number, row: number];
  params?: Record<string, unknown>;
}

/** A sticky note of the editor (RAGFlow's Note): kept in the graph only, never run. */
export interface TemplateNote {
  name: string;
  at: [column: number, row: number];
  text: string;
}

/** From, to. A routing component's port (category name, "Case n", "end_cpn_id", "yes"/"no") is read from its params. */
export type TemplateLink = [source: string, target: string];

const COLUMN_WIDTH = 300;
const ROW_HEIGHT = 170;

/** RAGFlow v0.14's node types, so that the graph also opens in RAGFlow's editor. */
const NODE_TYPES: Record<string, string> = {
  Begin: "beginNode",
  Answer: "logicNode",
  Concentrator: "logicNode",
  Retrieval: "retrievalNode",
  Generate: "generateNode",
  Categorize: "categorizeNode",
  Switch: "switchNode",
  Relevant: "relevantNode",
  RewriteQuestion: "rewriteNode",
  KeywordExtract: "keywordNode",
  Message: "messageNode",
  Template: "templateNode",
  Invoke: "invokeNode",
  Note: "noteNode",
};

export const componentNameOf = (id: string) => (id === BEGIN_ID ? "Begin" : id.split(":")[0]);

const position = ([column, row]: [number, number]) => ({ x: column * COLUMN_WIDTH, y: row * ROW_HEIGHT });

/** The port of a routing component that leads to `target`, as RAGFlow's editor names it; null for other components. */
export function routeHandle(componentName: string, params: Record<string, unknown>, target: string): string | null {
  if (componentName === "Categorize") {
    const categories = (params.category_description ?? {}) as Record<string, { to?: string }>;
    return Object.entries(categories).find(([, category]) => category.to === target)?.[0] ?? fail(`no category of this Categorize leads to ${target}`);
  }
  if (componentName === "Switch") {
    const conditions = (params.conditions ?? []) as { to?: string }[];
    const index = conditions.findIndex((condition) => condition.to === target);
    if (index >= 0) return `Case ${index + 1}`;
    return params.end_cpn_id === target ? "end_cpn_id" : fail(`no case of this Switch leads to ${target}`);
  }
  if (componentName === "Relevant") {
    if (params.yes === target) return "yes";
    return params.no === target ? "no" : fail(`neither yes nor no of this Relevant leads to ${target}`);
  }
  return null;
}

function fail(reason: string): never {
  throw new Error(`A template's links disagree with its params: ${reason}`);
}

export function templateDsl(components: TemplateComponent[], links: TemplateLink[], notes: TemplateNote[] = []): FlowDsl {
  const byId = new Map(components.map((c) => [c.id, c]));
  const dslComponents: Record<string, DslComponent> = {};
  for (const c of components) {
    dslComponents[c.id] = { obj: { component_name: componentNameOf(c.id), params: c.params ?? {} }, upstream: [], downstream: [] };
  }
  const edges: GraphEdge[] = links.map(([source, target]) => {
    const from = dslComponents[source] ?? fail(`unknown component ${source}`);
    const to = dslComponents[target] ?? fail(`unknown component ${target}`);
    from.downstream.push(target);
    to.upstream.push(source);
    const sourceHandle = routeHandle(from.obj.component_name, from.obj.params, target) ?? "b";
    return { id: `reactflow__edge-${source}${sourceHandle}-${target}c`, source, target, sourceHandle, targetHandle: "c", type: "buttonEdge" };
  });
  const nodes: GraphNode[] = [
    ...[...byId.values()].map((c) => {
      const label = componentNameOf(c.id);
      // No `form`: the stored format keeps params in the components only; an export writes RAGFlow's copy.
      return { id: c.id, type: NODE_TYPES[label] ?? "ragNode", position: position(c.at), data: { label, name: c.name } };
    }),
    ...notes.map((note, i) => ({ id: `Note:${i + 1}`, type: "noteNode", position: position(note.at), data: { label: "Note", name: note.name, form: { text: note.text } } })),
  ];
  return { components: dslComponents, graph: { nodes, edges } };
}

/** A chat model's params as a template sets them: the tenant's default model (`llm_id` ""), RAGFlow's "Precise" settings unless told. */
export function modelParams(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { llm_id: "", temperature: 0.1, top_p: 0.3, presence_penalty: 0.4, frequency_penalty: 0.7, ...extra };
}

/** A Generate's params; `parameters` maps each `{key}` of the prompt to a component id or `begin@<input>`. */
export function generateParams(
  prompt: string,
  options: { cite?: boolean; window?: number; parameters?: Record<string, string>; temperature?: number; max_tokens?: number } = {},
): Record<string, unknown> {
  const { cite = false, window = 12, parameters = {}, ...settings } = options;
  return {
    ...modelParams(settings),
    prompt,
    cite,
    message_history_window_size: window,
    parameters: Object.entries(parameters).map(([key, component_id]) => ({ key, component_id })),
  };
}

/** Retrieval over the knowledge bases the user chooses after creating the flow (`kb_ids` empty until then). */
export function retrievalParams(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kb_ids: [], similarity_threshold: 0.2, keywords_similarity_weight: 0.3, top_n: 8, ...extra };
}
