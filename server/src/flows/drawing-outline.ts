import type { FlowDsl } from "./dsl";

/** A drawn component as a picture of the flow needs it: the shape of `dsl.graph`'s nodes, without forms or run state. */
export interface OutlineNode {
  id: string;
  type?: string;
  position: { x: number; y: number };
  width?: number;
  height?: number;
  parentId?: string;
  data: { label?: string };
}

export interface DrawingOutline {
  nodes: OutlineNode[];
  edges: { source: string; target: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const finite = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * The flow's drawing reduced to what its thumbnail needs, so that a list of flows does not carry every flow's whole
 * DSL (an imported RAGFlow template holds ~30 kB of forms in its graph alone). Nodes keep `dsl.graph`'s shape; what
 * is malformed is left out rather than failing the list.
 */
export function drawingOutline(dsl: FlowDsl): DrawingOutline {
  const graph: unknown = dsl.graph;
  if (!isRecord(graph)) return { nodes: [], edges: [] };
  const nodes: OutlineNode[] = [];
  for (const node of Array.isArray(graph.nodes) ? graph.nodes : []) {
    if (!isRecord(node) || typeof node.id !== "string" || !isRecord(node.position)) continue;
    const x = finite(node.position.x);
    const y = finite(node.position.y);
    if (x === undefined || y === undefined) continue;
    const label = isRecord(node.data) ? text(node.data.label) : undefined;
    nodes.push({
      id: node.id,
      type: text(node.type),
      position: { x, y },
      width: finite(node.width) ?? (isRecord(node.measured) ? finite(node.measured.width) : undefined),
      height: finite(node.height) ?? (isRecord(node.measured) ? finite(node.measured.height) : undefined),
      parentId: text(node.parentId),
      data: { label },
    });
  }
  const drawn = new Set(nodes.map((node) => node.id));
  const edges = (Array.isArray(graph.edges) ? graph.edges : [])
    .filter((edge): edge is { source: string; target: string } => isRecord(edge) && typeof edge.source === "string" && typeof edge.target === "string")
    .filter((edge) => drawn.has(edge.source) && drawn.has(edge.target))
    .map(({ source, target }) => ({ source, target }));
  return { nodes, edges };
}
