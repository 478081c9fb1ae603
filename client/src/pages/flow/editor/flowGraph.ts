import type { Edge, Node } from "@xyflow/react";
import dagre from "@dagrejs/dagre";
import type { EditorNode, FlowComponentInfo } from "../flowTypes";

/**
 * The pure side of the flow editor: the canvas's nodes and edges from a flow's DSL and back, the connection rules
 * the registry gives, names and ids for new nodes, copy and paste, and the auto-layout.
 *
 * A node's display name lives in the drawing (`data.name`), its params in the component (`obj.params`). The saved
 * DSL carries the components with their params and the drawing; the server takes the links from the drawing's
 * edges (server/src/flows/drawing.ts), so nothing here writes `upstream`, `downstream` or a route's target.
 */

export interface ComponentNodeData extends Record<string, unknown> {
  name: string;
  componentName: string;
  params: Record<string, unknown>;
}

export type FlowNodeType = "component" | "note";
export type FlowNode = Node<ComponentNodeData, FlowNodeType>;
export type FlowEdge = Edge;

/** The part of a flow's DSL the editor reads and writes (server/src/flows/dsl.ts). */
export interface FlowDslView {
  components: Record<string, { obj: { component_name: string; params: Record<string, unknown> }; upstream: string[]; downstream: string[]; parent_id?: string }>;
  graph?: { nodes: { id: string; position: { x: number; y: number }; data?: Record<string, unknown>; type?: string }[]; edges: { id?: string; source: string; target: string; sourceHandle?: string | null; targetHandle?: string | null }[] };
  globals?: Record<string, unknown>;
  variables?: Record<string, unknown>;
}

export type Registry = ReadonlyMap<string, FlowComponentInfo>;

export const EDGE_TYPE = "buttonEdge";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function registryOf(components: readonly FlowComponentInfo[]): Registry {
  return new Map(components.map((component) => [component.name, component]));
}

function nodeType(componentName: string, registry: Registry): FlowNodeType {
  return registry.get(componentName)?.editorOnly ? "note" : "component";
}

export function edgeId(source: string, sourceHandle: string | null | undefined, target: string): string {
  return `xy-edge__${source}${sourceHandle ?? ""}-${target}`;
}

/** The canvas of a flow: one node per drawn component (a component the drawing lacks is placed by the server's import). */
export function editorGraphOf(dsl: FlowDslView, registry: Registry): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const drawn = Array.isArray(dsl.graph?.nodes) ? dsl.graph.nodes : [];
  const nodes: FlowNode[] = drawn
    .filter((node) => isObject(dsl.components[node.id]?.obj))
    .map((node) => {
      const { component_name: componentName, params } = dsl.components[node.id].obj;
      const name = typeof node.data?.name === "string" && node.data.name !== "" ? node.data.name : node.id;
      return { id: node.id, type: nodeType(componentName, registry), position: { x: node.position.x, y: node.position.y }, data: { name, componentName, params: isObject(params) ? params : {} }, deletable: componentName !== "Begin" };
    });
  const ids = new Set(nodes.map((node) => node.id));
  const edges: FlowEdge[] = (Array.isArray(dsl.graph?.edges) ? dsl.graph.edges : [])
    .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
    .map((edge) => {
      // RAGFlow's drawings name a handle on every side of a node ("b", "c"); only a routing component's ports are handles here.
      const routing = registry.get(dsl.components[edge.source].obj.component_name)?.routing ?? false;
      const sourceHandle = routing ? (edge.sourceHandle ?? null) : null;
      return { id: edgeId(edge.source, sourceHandle, edge.target), source: edge.source, target: edge.target, sourceHandle, targetHandle: null, type: EDGE_TYPE };
    })
    .filter((edge, index, all) => all.findIndex((other) => other.id === edge.id) === index);
  return { nodes, edges };
}

/** The DSL to save: the components with their params and the drawing; globals and variables as they were. */
export function dslOf(nodes: readonly FlowNode[], edges: readonly FlowEdge[], base: FlowDslView): FlowDslView {
  const components: FlowDslView["components"] = {};
  for (const node of nodes) {
    const parent = base.components[node.id]?.parent_id;
    components[node.id] = { obj: { component_name: node.data.componentName, params: node.data.params }, upstream: [], downstream: [], ...(parent ? { parent_id: parent } : {}) };
  }
  const graph = {
    nodes: nodes.map((node) => ({ id: node.id, type: node.type ?? "component", position: { x: Math.round(node.position.x), y: Math.round(node.position.y) }, data: { label: node.data.componentName, name: node.data.name } })),
    edges: edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle ?? null, targetHandle: null, type: EDGE_TYPE })),
  };
  return { components, graph, ...(base.globals ? { globals: base.globals } : {}), ...(base.variables ? { variables: base.variables } : {}) };
}

export function editorNodeOf(node: FlowNode): EditorNode {
  return { id: node.id, name: node.data.name, componentName: node.data.componentName, params: node.data.params };
}

/** A fresh component id in RAGFlow's form, "Retrieval:k3f9x2". */
export function newComponentId(componentName: string, taken: ReadonlySet<string>, random: () => number = Math.random): string {
  for (;;) {
    const id = `${componentName}:${Math.floor(random() * 36 ** 6).toString(36).padStart(6, "0")}`;
    if (!taken.has(id)) return id;
  }
}

/** A display name no other node has (§5: names are unique, compared without case): "Retrieval", then "Retrieval 2". */
export function uniqueName(wanted: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((name) => name.trim().toLowerCase()));
  const base = wanted.trim() || "Component";
  if (!used.has(base.toLowerCase())) return base;
  const stem = base.replace(/\s+\d+$/, "");
  for (let n = 2; ; n++) if (!used.has(`${stem} ${n}`.toLowerCase())) return `${stem} ${n}`;
}

/** Why an edge may not be drawn (a message key under flow.editor.connect), or null when it may. */
export function connectionProblem(
  connection: { source: string; target: string; sourceHandle?: string | null },
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
  registry: Registry,
): string | null {
  const source = nodes.find((node) => node.id === connection.source);
  const target = nodes.find((node) => node.id === connection.target);
  if (!source || !target) return "flow.editor.connect.unknown";
  if (source.id === target.id) return "flow.editor.connect.self";
  if (source.type === "note" || target.type === "note") return "flow.editor.connect.note";
  const handle = connection.sourceHandle ?? null;
  if (edges.some((edge) => edge.source === source.id && edge.target === target.id && (edge.sourceHandle ?? null) === handle)) return "flow.editor.connect.duplicate";
  if (registry.get(source.data.componentName)?.restrictedTargets.includes(target.data.componentName)) return "flow.editor.connect.restricted";
  // A routing port leads to one component (a category's `to`, a case's `to`).
  if (handle !== null && edges.some((edge) => edge.source === source.id && edge.sourceHandle === handle)) return "flow.editor.connect.portTaken";
  return null;
}

/** The ids of every node the given one is downstream of, nearest first. */
export function upstreamOf(id: string, edges: readonly FlowEdge[]): string[] {
  const found: string[] = [];
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const edge of edges) {
      if (edge.target === current && edge.source !== id && !found.includes(edge.source)) {
        found.push(edge.source);
        queue.push(edge.source);
      }
    }
  }
  return found;
}

const NODE_WIDTH = 230;
const NODE_HEIGHT = 90;
const GAP = 24;

/** The first place at or below `wanted` where a new node overlaps none of the others. */
export function freeSpot(wanted: { x: number; y: number }, nodes: readonly FlowNode[]): { x: number; y: number } {
  const overlaps = (spot: { x: number; y: number }) =>
    nodes.some((node) => {
      const width = node.measured?.width ?? NODE_WIDTH;
      const height = node.measured?.height ?? NODE_HEIGHT;
      return spot.x < node.position.x + width + GAP && node.position.x < spot.x + NODE_WIDTH + GAP && spot.y < node.position.y + height + GAP && node.position.y < spot.y + NODE_HEIGHT + GAP;
    });
  const spot = { ...wanted };
  while (overlaps(spot)) spot.y += NODE_HEIGHT / 2;
  return spot;
}

/** Left to right in layers (dagre); notes keep their place. */
export function laidOut(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): FlowNode[] {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 90 });
  graph.setDefaultEdgeLabel(() => ({}));
  const placed = nodes.filter((node) => node.type !== "note");
  for (const node of placed) graph.setNode(node.id, { width: node.measured?.width ?? NODE_WIDTH, height: node.measured?.height ?? NODE_HEIGHT });
  for (const edge of edges) if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  return nodes.map((node) => {
    if (node.type === "note") return node;
    const { x, y, width, height } = graph.node(node.id);
    return { ...node, position: { x: x - width / 2, y: y - height / 2 } };
  });
}

/** What Ctrl-C keeps: the selected nodes (never Begin: a flow has one) and the edges between them. */
export interface Clipboard {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export function copied(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): Clipboard {
  const chosen = nodes.filter((node) => node.selected && node.data.componentName !== "Begin");
  const ids = new Set(chosen.map((node) => node.id));
  return { nodes: structuredClone(chosen), edges: structuredClone(edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target))) };
}

/** The clipboard as new nodes (new ids and unique names, shifted) and their edges, selected, for Ctrl-V. */
export function pasted(clipboard: Clipboard, nodes: readonly FlowNode[], offset = 40): Clipboard {
  const takenIds = new Set(nodes.map((node) => node.id));
  const takenNames = nodes.map((node) => node.data.name);
  const renamed = new Map<string, string>();
  const newNodes = clipboard.nodes.map((node) => {
    const id = newComponentId(node.data.componentName, takenIds);
    takenIds.add(id);
    renamed.set(node.id, id);
    const name = uniqueName(node.data.name, takenNames);
    takenNames.push(name);
    return { ...structuredClone(node), id, selected: true, position: { x: node.position.x + offset, y: node.position.y + offset }, data: { ...structuredClone(node.data), name } };
  });
  const newEdges = clipboard.edges.map((edge) => {
    const source = renamed.get(edge.source)!;
    const target = renamed.get(edge.target)!;
    return { ...edge, id: edgeId(source, edge.sourceHandle, target), source, target, selected: false };
  });
  return { nodes: newNodes, edges: newEdges };
}
