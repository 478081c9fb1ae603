import type { SimulationLinkDatum, SimulationNodeDatum } from "d3-force";

export interface GraphNode extends SimulationNodeDatum {
  id: string;
  name: string;
  type: string;
  description: string;
  pagerank: number;
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

/** The drawing's own size; the SVG scales it to the page. */
export const GRAPH_WIDTH = 960;
export const GRAPH_HEIGHT = 600;
/** One colour per entity type, readable on light and dark surfaces. */
const PALETTE = ["#2791ad", "#e07a3f", "#5b8c3a", "#a05ec4", "#d4a017", "#c74a6b", "#3f7fd9", "#7b8b99", "#2fa38a", "#b36b2d"];

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** The server's loosely typed graph as nodes, the edges whose both ends exist, and the entity types in order of appearance. */
export function graphOf(rawNodes: Record<string, unknown>[], rawEdges: Record<string, unknown>[]) {
  const nodes: GraphNode[] = rawNodes.map((node) => ({
    id: text(node.id),
    name: text(node.entityName ?? node.id),
    type: text(node.entityType) || "unknown",
    description: text(node.description),
    pagerank: Number(node.pagerank) || 0,
  }));
  const ids = new Set(nodes.map((node) => node.id));
  const edges: GraphEdge[] = rawEdges
    .filter((edge) => ids.has(text(edge.source)) && ids.has(text(edge.target)))
    .map((edge) => ({ source: text(edge.source), target: text(edge.target), description: text(edge.description), weight: Number(edge.weight) || 1 }));
  const types = [...new Set(nodes.map((node) => node.type))];
  return { nodes, edges, types };
}

/** A node's radius grows with its pagerank, relative to the highest one. */
export function radiusFor(nodes: GraphNode[]): (node: GraphNode) => number {
  const maxRank = Math.max(...nodes.map((node) => node.pagerank), 1e-9);
  return (node) => 6 + Math.sqrt(node.pagerank / maxRank) * 16;
}

export function colourFor(types: string[]): (type: string) => string {
  return (type) => PALETTE[types.indexOf(type) % PALETTE.length];
}

/** The view that frames every node, with room for labels, zoomed in at most 2.2 times. */
export function fittingView(nodes: GraphNode[]): GraphView {
  const xs = nodes.map((node) => node.x ?? 0);
  const ys = nodes.map((node) => node.y ?? 0);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.min(2.2, GRAPH_WIDTH / (maxX - minX + 200), GRAPH_HEIGHT / (maxY - minY + 140));
  return { k, x: GRAPH_WIDTH / 2 - ((minX + maxX) / 2) * k, y: GRAPH_HEIGHT / 2 - ((minY + maxY) / 2) * k };
}

/** The view zoomed in (wheel up) or out by 10 % around a point, within 0.3–4 times. */
export function zoomedView(view: GraphView, at: { x: number; y: number }, zoomIn: boolean): GraphView {
  const k = Math.min(4, Math.max(0.3, view.k * (zoomIn ? 1.1 : 1 / 1.1)));
  return { k, x: at.x - ((at.x - view.x) / view.k) * k, y: at.y - ((at.y - view.y) / view.k) * k };
}
