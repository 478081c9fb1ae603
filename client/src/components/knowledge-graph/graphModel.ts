import type { SimulationLinkDatum, SimulationNodeDatum } from "d3-force";

export interface GraphNode extends SimulationNodeDatum {
  id: string;
  name: string;
  type: string;
  description: string;
  /** What sizes the node: its pagerank on the chunk page, its degree on /force. */
  rank: number;
}

export interface GraphEdge extends SimulationLinkDatum<GraphNode> {
  description: string;
  weight: number;
}

/** Where the graph is looked at from: a pan (x, y) and a zoom (k). */
export interface GraphView {
  x: number;
  y: number;
  k: number;
}

/** The drawing's size in pixels: the SVG's viewBox is its box, so a node keeps its size whatever the page's width. */
export interface GraphSize {
  width: number;
  height: number;
}

/** The size drawn at before the drawing's box is measured. */
export const GRAPH_WIDTH = 960;
export const GRAPH_HEIGHT = 600;
export const DEFAULT_SIZE: GraphSize = { width: GRAPH_WIDTH, height: GRAPH_HEIGHT };
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4;
/** One colour per entity type, readable on light and dark surfaces. */
const PALETTE = ["#2791ad", "#e07a3f", "#5b8c3a", "#a05ec4", "#d4a017", "#c74a6b", "#3f7fd9", "#7b8b99", "#2fa38a", "#b36b2d"];

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** The server's loosely typed graph (the chunk page's `knowledgeGraph`) as nodes, the edges whose both ends exist, and the entity types in order of appearance. */
export function graphOf(rawNodes: Record<string, unknown>[], rawEdges: Record<string, unknown>[]) {
  const nodes: GraphNode[] = rawNodes.map((node) => ({
    id: text(node.id),
    name: text(node.entityName ?? node.id),
    type: text(node.entityType) || "unknown",
    description: text(node.description),
    rank: Number(node.pagerank) || 0,
  }));
  const ids = new Set(nodes.map((node) => node.id));
  const edges: GraphEdge[] = rawEdges
    .filter((edge) => ids.has(text(edge.source)) && ids.has(text(edge.target)))
    .map((edge) => ({ source: text(edge.source), target: text(edge.target), description: text(edge.description), weight: Number(edge.weight) || 1 }));
  return { nodes, edges, types: typesOf(nodes) };
}

/** The entity types of the nodes, in order of appearance: the legend's order and the colours'. */
export function typesOf(nodes: GraphNode[]): string[] {
  return [...new Set(nodes.map((node) => node.type))];
}

/** A node's radius grows with its rank, relative to the highest one. */
export function radiusFor(nodes: GraphNode[]): (node: GraphNode) => number {
  const maxRank = Math.max(...nodes.map((node) => node.rank), 1e-9);
  return (node) => 6 + Math.sqrt(node.rank / maxRank) * 16;
}

export function colourFor(types: string[]): (type: string) => string {
  return (type) => PALETTE[Math.max(0, types.indexOf(type)) % PALETTE.length];
}

/** The id of an edge's end, before d3-force has replaced it by the node and after. */
export const endId = (end: GraphEdge["source"]): string => (typeof end === "object" ? end.id : String(end));

/** A node and the nodes it shares an edge with. */
export function neighbourhood(id: string, edges: GraphEdge[]): Set<string> {
  const around = new Set([id]);
  for (const edge of edges) {
    const [source, target] = [endId(edge.source), endId(edge.target)];
    if (source === id) around.add(target);
    if (target === id) around.add(source);
  }
  return around;
}

/**
 * The next graph's nodes placed where the same nodes were drawn before, and new ones next to a neighbour already
 * placed (or near `near`), so that adding a focused entity's neighbourhood does not throw the drawing about.
 */
export function carryPositions(previous: GraphNode[], next: GraphNode[], edges: GraphEdge[], near?: { x: number; y: number }): GraphNode[] {
  const placed = new Map(previous.filter((node) => node.x !== undefined).map((node) => [node.id, node]));
  const placedAt = (id: string) => placed.get(id) ?? next.find((node) => node.id === id && node.x !== undefined);
  return next.map((node, index) => {
    const before = placed.get(node.id);
    if (before) return { ...node, x: before.x, y: before.y };
    const neighbour = [...neighbourhood(node.id, edges)].map(placedAt).find((other) => other && other.id !== node.id);
    const anchor = neighbour ?? near;
    if (!anchor) return node;
    // Spread around the anchor (a golden-angle spiral) rather than stacked on it.
    const angle = index * 2.39996;
    return { ...node, x: (anchor.x ?? 0) + 40 * Math.cos(angle), y: (anchor.y ?? 0) + 40 * Math.sin(angle) };
  });
}

/** The view that frames every node, with room for labels, zoomed in at most 1.6 times (a few nodes would otherwise fill the screen). */
export function fittingView(nodes: GraphNode[], size: GraphSize = DEFAULT_SIZE): GraphView {
  if (nodes.length === 0) return { x: size.width / 2, y: size.height / 2, k: 1 };
  const xs = nodes.map((node) => node.x ?? 0);
  const ys = nodes.map((node) => node.y ?? 0);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.max(MIN_ZOOM, Math.min(1.6, size.width / (maxX - minX + 200), size.height / (maxY - minY + 140)));
  return { k, x: size.width / 2 - ((minX + maxX) / 2) * k, y: size.height / 2 - ((minY + maxY) / 2) * k };
}

/** The view zoomed in (wheel up) or out by 10 % around a point, within 0.1–4 times. */
export function zoomedView(view: GraphView, at: { x: number; y: number }, zoomIn: boolean, factor = 1.1): GraphView {
  const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.k * (zoomIn ? factor : 1 / factor)));
  return { k, x: at.x - ((at.x - view.x) / view.k) * k, y: at.y - ((at.y - view.y) / view.k) * k };
}

/** The view with a node in the middle, zoomed in to at least 1.2 times so that its neighbours' names are readable. */
export function centredView(view: GraphView, node: { x?: number; y?: number }, size: GraphSize): GraphView {
  const k = Math.max(view.k, 1.2);
  return { k, x: size.width / 2 - (node.x ?? 0) * k, y: size.height / 2 - (node.y ?? 0) * k };
}
