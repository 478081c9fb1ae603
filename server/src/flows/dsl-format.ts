import { DomainError } from "../platform/errors";
import { componentNamed } from "./components";
import { BEGIN_ID, type DslComponent, type FlowDsl, type GraphEdge, type GraphNode } from "./dsl";
import { FlowGraph } from "./engine/graph";
import { isPlainObject } from "../platform/plain-object";

/**
 * Flow files in and out. `importFlow` reads, unchanged:
 * - a RAGFlow template (`{id, title, description, canvas_type, avatar, dsl}`);
 * - a raw RAGFlow v0.14 DSL, whose run state (history, messages, path, answer, reference) is dropped: a session
 *   keeps its own;
 * - a v0.20+ DSL (`globals`, `variables`, Message `content` lists with `{sys.query}`, Begin `inputs` as a map);
 * - Cairn's own export (a RAGFlow DSL with `title` and `description` beside it).
 * It builds a layered `graph` when a file has none and makes `upstream` and `downstream` agree. `exportFlow` writes
 * the shape RAGFlow loads (components, graph, empty run state), which imports again here.
 */

export interface ImportNote {
  messageKey: string;
  params?: Record<string, unknown>;
}

export interface ImportedFlow {
  dsl: FlowDsl;
  title?: string;
  description?: string;
  /** What the import changed or left out, for the user to know (message keys). */
  notes: ImportNote[];
}

/** A file bigger or deeper than any real flow (RAGFlow's largest template, with its avatar, is ~150 kB). */
const MAX_IMPORT_CHARS = 5_000_000;
const MAX_DEPTH = 40;
const MAX_VALUES = 200_000;

const RUN_STATE_KEYS = ["history", "messages", "path", "answer", "reference", "retrieval", "embed_id", "task_id"];

const notAFlow = () => new DomainError("BAD_REQUEST", "flow.import.notAFlow");

/** Refuses what would cost too much to read (hostile JSON): too deep, too many values. */
function checkSize(value: unknown): void {
  let count = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop()!;
    if (++count > MAX_VALUES) throw new DomainError("PAYLOAD_TOO_LARGE", "flow.import.tooLarge");
    if (depth > MAX_DEPTH) throw new DomainError("BAD_REQUEST", "flow.import.tooDeep", { limit: MAX_DEPTH });
    if (Array.isArray(next)) for (const item of next) stack.push({ value: item, depth: depth + 1 });
    else if (isPlainObject(next)) for (const item of Object.values(next)) stack.push({ value: item, depth: depth + 1 });
  }
}

function parse(text: string): unknown {
  if (text.length > MAX_IMPORT_CHARS) throw new DomainError("PAYLOAD_TOO_LARGE", "flow.import.tooLarge");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError("BAD_REQUEST", "flow.import.notJson");
  }
}

const isEmpty = (value: unknown) => (Array.isArray(value) ? value.length === 0 : isPlainObject(value) ? Object.keys(value).length === 0 : value === "");

const strings = (value: unknown): string[] => (Array.isArray(value) ? [...new Set(value.filter((item): item is string => typeof item === "string"))] : []);

/** v0.20's Begin form fields (`inputs: {key: {name, type, optional, options, value}}`) as v0.14's `query` list. */
function beginQueryFromInputs(inputs: Record<string, unknown>): Record<string, unknown>[] {
  return Object.entries(inputs).map(([key, field]) => ({ key, ...(isPlainObject(field) ? field : {}) }));
}

function importComponent(id: string, raw: unknown, notes: ImportNote[]): DslComponent {
  if (!isPlainObject(raw) || !isPlainObject(raw.obj) || typeof raw.obj.component_name !== "string" || raw.obj.component_name.trim() === "") {
    throw new DomainError("BAD_REQUEST", "flow.import.badComponent", { id });
  }
  const { component_name, params, inputs: _runInputs, output: _runOutput, ...besideParams } = raw.obj;
  const own: Record<string, unknown> = isPlainObject(params) ? structuredClone(params) : {};
  // RAGFlow's examples sometimes put `parameters` beside `params`: the engine reads them inside.
  for (const [key, value] of Object.entries(besideParams)) if (!(key in own)) own[key] = structuredClone(value);
  // RAGFlow keeps a component's last run in its params (`output`, and `inputs` as the values it read): run state.
  for (const key of ["output", "inputs"].filter((k) => k === "output" || Array.isArray(own[k]))) {
    if (own[key] !== undefined && own[key] !== null && !isEmpty(own[key])) notes.push({ messageKey: "flow.import.runStateDropped" });
    delete own[key];
  }
  if (component_name === "Begin" && isPlainObject(own.inputs) && !Array.isArray(own.query)) {
    own.query = beginQueryFromInputs(own.inputs);
    delete own.inputs;
    notes.push({ messageKey: "flow.import.beginInputsConverted" });
  }
  const component: DslComponent = { obj: { component_name, params: own }, upstream: strings(raw.upstream), downstream: strings(raw.downstream) };
  if (typeof raw.parent_id === "string" && raw.parent_id !== "") component.parent_id = raw.parent_id;
  return component;
}

/** Each edge written on one end only is written on the other too; ends that name no component are dropped. */
function reconcileEdges(components: Record<string, DslComponent>, notes: ImportNote[]): void {
  const has = (id: string) => Object.prototype.hasOwnProperty.call(components, id);
  let dropped = 0;
  for (const [id, component] of Object.entries(components)) {
    for (const list of [component.upstream, component.downstream]) {
      const kept = list.filter((other) => has(other) && other !== id);
      dropped += list.length - kept.length;
      list.splice(0, list.length, ...kept);
    }
  }
  for (const [id, component] of Object.entries(components)) {
    for (const target of component.downstream) if (!components[target].upstream.includes(id)) components[target].upstream.push(id);
    for (const source of component.upstream) if (!components[source].downstream.includes(id)) components[source].downstream.push(id);
  }
  if (dropped > 0) notes.push({ messageKey: "flow.import.edgesDropped", params: { count: dropped } });
}

/** RAGFlow v0.14's node types, so that its editor draws an exported flow as it would its own. */
const NODE_TYPES: Record<string, string> = {
  Begin: "beginNode",
  Answer: "logicNode",
  Generate: "generateNode",
  Categorize: "categorizeNode",
  Switch: "switchNode",
  Relevant: "relevantNode",
  Message: "messageNode",
  RewriteQuestion: "rewriteNode",
  KeywordExtract: "keywordNode",
  Template: "templateNode",
  Retrieval: "retrievalNode",
  Note: "noteNode",
  Iteration: "group",
};

/** The node types of Cairn's editor (client/src/pages/flow/editor/flowGraph.ts), which RAGFlow does not know. */
const CAIRN_NODE_TYPES: readonly unknown[] = ["component", "note"];

/** A layered layout: Begin on the left, each component one column right of its nearest upstream. */
export function layoutGraph(dsl: FlowDsl): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const graph = new FlowGraph(dsl, componentNamed);
  const layer = new Map<string, number>();
  const start = graph.beginId() ?? graph.ids.find((id) => graph.upstream(id).length === 0) ?? graph.ids[0];
  const queue = start !== undefined ? [start] : [];
  if (start !== undefined) layer.set(start, 0);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const next of graph.downstream(id)) {
      if (!layer.has(next)) {
        layer.set(next, layer.get(id)! + 1);
        queue.push(next);
      }
    }
  }
  const deepest = Math.max(0, ...layer.values());
  const rows = new Map<number, number>();
  const nodes: GraphNode[] = graph.ids.map((id) => {
    const column = layer.get(id) ?? deepest + 1;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    const name = graph.nameOf(id);
    return { id, type: NODE_TYPES[name] ?? "ragNode", position: { x: 50 + column * 320, y: 50 + row * 160 }, data: { label: name, name: id } };
  });
  const edges: GraphEdge[] = graph.ids.flatMap((source) =>
    graph.downstream(source).map((target) => {
      const handle = graph.routesOf(source).find((port) => port.target === target)?.handle ?? null;
      return { id: `reactflow__edge-${source}${handle ?? ""}-${target}`, source, target, sourceHandle: handle, targetHandle: null, type: "buttonEdge" };
    }),
  );
  return { nodes, edges };
}

function importGraph(raw: unknown, dsl: FlowDsl, notes: ImportNote[]): FlowDsl["graph"] {
  if (!isPlainObject(raw) || !Array.isArray(raw.nodes) || !Array.isArray(raw.edges)) {
    notes.push({ messageKey: "flow.import.layoutBuilt" });
    return layoutGraph(dsl);
  }
  const position = (p: unknown) => (isPlainObject(p) && typeof p.x === "number" && typeof p.y === "number" ? { x: p.x, y: p.y } : null);
  const nodes = raw.nodes.filter((node): node is GraphNode => isPlainObject(node) && typeof node.id === "string" && position(node.position) !== null);
  const edges = raw.edges.filter((edge): edge is GraphEdge => isPlainObject(edge) && typeof edge.source === "string" && typeof edge.target === "string");
  // A component the drawing lacks gets a place from the layout, so that the editor shows every component.
  const drawn = new Set(nodes.map((node) => node.id));
  const missing = Object.keys(dsl.components).filter((id) => !drawn.has(id));
  if (missing.length > 0) {
    const laidOut = layoutGraph(dsl).nodes.filter((node) => missing.includes(node.id));
    nodes.push(...laidOut);
    notes.push({ messageKey: "flow.import.nodesPlaced", params: { count: missing.length } });
  }
  // A link the drawing lacks is drawn, so that the editor shows every link and a save from it (linkFromDrawing) keeps them.
  const linkEdges = layoutGraph(dsl).edges.filter((link) => !edges.some((edge) => edge.source === link.source && edge.target === link.target));
  if (linkEdges.length > 0) {
    edges.push(...linkEdges);
    notes.push({ messageKey: "flow.import.edgesDrawn", params: { count: linkEdges.length } });
  }
  const graph = structuredClone({ nodes, edges });
  // RAGFlow's nodes carry a copy of the params (`data.form`), often stale; the params are the truth, and an export writes
  // the copy again. A node with no component (RAGFlow's notes live in the drawing only) keeps its form: its text.
  for (const node of graph.nodes) if (isPlainObject(node.data) && Object.prototype.hasOwnProperty.call(dsl.components, node.id)) delete node.data.form;
  const renamed = uniqueNames(graph.nodes);
  if (renamed > 0) notes.push({ messageKey: "flow.import.namesRenamed", params: { count: renamed } });
  return graph;
}

/** Display names made unique (spec §5), as RAGFlow's editor never enforced on its own templates: "Name (2)". */
function uniqueNames(nodes: GraphNode[]): number {
  const taken = new Set<string>();
  let renamed = 0;
  for (const node of nodes) {
    const name = typeof node.data?.name === "string" && node.data.name.trim() !== "" ? node.data.name : node.id;
    let unique = name;
    for (let n = 2; taken.has(unique.trim().toLowerCase()); n++) unique = `${name} (${n})`;
    taken.add(unique.trim().toLowerCase());
    if (unique !== name) {
      node.data = { ...node.data, name: unique };
      renamed++;
    }
  }
  return renamed;
}

/** Reads a flow file (a parsed value or its text) in any of the dialects above, or refuses it with a translated error. */
export function importFlow(json: unknown): ImportedFlow {
  const value = typeof json === "string" ? parse(json) : json;
  checkSize(value);
  if (!isPlainObject(value)) throw notAFlow();
  const notes: ImportNote[] = [];
  const isTemplate = !isPlainObject(value.components) && (isPlainObject(value.dsl) || typeof value.dsl === "string");
  const body = isTemplate ? (typeof value.dsl === "string" ? parse(value.dsl) : value.dsl) : value;
  if (isTemplate) checkSize(body);
  if (!isPlainObject(body) || !isPlainObject(body.components) || Object.keys(body.components).length === 0) throw notAFlow();

  const components: Record<string, DslComponent> = {};
  for (const [id, raw] of Object.entries(body.components)) components[id] = importComponent(id, raw, notes);
  reconcileEdges(components, notes);
  const dsl: FlowDsl = { components };
  if (isPlainObject(body.globals)) dsl.globals = structuredClone(body.globals);
  if (isPlainObject(body.variables)) dsl.variables = structuredClone(body.variables);
  dsl.graph = importGraph(body.graph, dsl, notes);
  if (!Object.prototype.hasOwnProperty.call(components, BEGIN_ID) && !Object.values(components).some((c) => c.obj.component_name === "Begin")) {
    notes.push({ messageKey: "flow.import.noBegin" });
  }
  const hadRunState = RUN_STATE_KEYS.some((key) => body[key] !== undefined && body[key] !== null && !isEmpty(body[key]));
  if (hadRunState) notes.push({ messageKey: "flow.import.runStateDropped" });
  const unique = notes.filter((note, i) => notes.findIndex((other) => JSON.stringify(other) === JSON.stringify(note)) === i);

  const source = isTemplate ? value : body;
  const text = (field: unknown) => (typeof field === "string" && field.trim() !== "" ? field : undefined);
  return { dsl, title: text(source.title), description: text(source.description), notes: unique };
}

/** A flow as a file RAGFlow loads (its DSL with an empty run state) and Cairn imports again, title and description beside it. */
export function exportFlow(flow: { dsl: FlowDsl; title?: string; description?: string | null }): Record<string, unknown> {
  const dsl = structuredClone(flow.dsl);
  const graph = dsl.graph ?? layoutGraph(dsl);
  // RAGFlow's editor draws a node by its type (Cairn's editor has its own two: component and note) and its form from its
  // copy of the params.
  for (const node of graph.nodes) {
    const component = dsl.components[node.id];
    if (!component) continue;
    if (node.type === undefined || CAIRN_NODE_TYPES.includes(node.type)) node.type = NODE_TYPES[component.obj.component_name] ?? "ragNode";
    node.data = { ...node.data, label: component.obj.component_name, form: component.obj.params };
  }
  return {
    ...(flow.title ? { title: flow.title } : {}),
    ...(flow.description ? { description: flow.description } : {}),
    components: dsl.components,
    graph,
    history: [],
    messages: [],
    path: [],
    reference: [],
    answer: [],
    ...(dsl.globals ? { globals: dsl.globals } : {}),
    ...(dsl.variables ? { variables: dsl.variables } : {}),
  };
}
