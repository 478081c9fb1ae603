/**
 * The geometry of a flow's thumbnail: its drawing (`dsl.graph`, or the server's `outline` of it, which has the same
 * shape) fitted into a small box. A flow file can hold anything, so whatever is not a drawable node is left out.
 */

export interface ThumbnailBox {
  width: number;
  height: number;
}

export interface ThumbnailNode {
  id: string;
  /** RAGFlow's component_name ("Retrieval"), from the node's label or its id; undefined when neither names one. */
  componentName: string | undefined;
  /** A sticky note of the editor, drawn apart from the components. */
  note: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ThumbnailEdge {
  id: string;
  /** An SVG path from the source's right side to the target's left side. */
  path: string;
}

export interface Thumbnail {
  nodes: ThumbnailNode[];
  edges: ThumbnailEdge[];
}

/** React Flow's nodes carry their size once measured; a drawing made elsewhere (a template, an API client) may not. */
const DEFAULT_NODE = { width: 180, height: 56 };
/** A small flow keeps the proportions of a drawing instead of filling the box with two giant boxes. */
const MAX_SCALE = 0.45;
const PADDING = 10;

interface RawNode {
  id: string;
  componentName: string | undefined;
  note: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  parentId: string | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const finite = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const positive = (value: unknown): number | undefined => {
  const number = finite(value);
  return number !== undefined && number > 0 ? number : undefined;
};

/** "begin" is Begin; other ids are "<component_name>:<Name>" as RAGFlow's editor makes them. */
function componentNameOf(node: Record<string, unknown>, id: string): string | undefined {
  const label = isRecord(node.data) ? node.data.label : undefined;
  if (typeof label === "string" && label) return label;
  if (id === "begin") return "Begin";
  return id.includes(":") ? id.split(":")[0] : undefined;
}

function readNodes(graph: Record<string, unknown>): RawNode[] {
  const nodes: RawNode[] = [];
  for (const node of Array.isArray(graph.nodes) ? graph.nodes : []) {
    if (!isRecord(node) || typeof node.id !== "string" || !isRecord(node.position)) continue;
    const x = finite(node.position.x);
    const y = finite(node.position.y);
    if (x === undefined || y === undefined) continue;
    const measured = isRecord(node.measured) ? node.measured : {};
    const componentName = componentNameOf(node, node.id);
    nodes.push({
      id: node.id,
      componentName,
      note: componentName === "Note" || node.type === "noteNode",
      x,
      y,
      width: positive(node.width) ?? positive(measured.width) ?? DEFAULT_NODE.width,
      height: positive(node.height) ?? positive(measured.height) ?? DEFAULT_NODE.height,
      parentId: typeof node.parentId === "string" ? node.parentId : undefined,
    });
  }
  return nodes;
}

/** A child of a container (an Iteration) is placed relative to it. */
function absolute(nodes: RawNode[]): RawNode[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  return nodes.map((node) => {
    let { x, y } = node;
    const seen = new Set([node.id]);
    for (let parent = node.parentId ? byId.get(node.parentId) : undefined; parent && !seen.has(parent.id); parent = parent.parentId ? byId.get(parent.parentId) : undefined) {
      seen.add(parent.id);
      x += parent.x;
      y += parent.y;
    }
    return { ...node, x, y };
  });
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * A curve from a source's right side to a target's left side. A link back to an earlier component (Generate → Answer
 * closing a conversation's loop) dips under the nodes, where a plain curve would run back through them unseen.
 */
function edgePath(start: { x: number; y: number }, end: { x: number; y: number }, nodeHeight: number): string {
  const forward = end.x >= start.x;
  const bend = forward ? Math.max(8, (end.x - start.x) / 2) : 12;
  const drop = forward ? 0 : nodeHeight + 6;
  const at = (x: number, y: number) => `${round(x)},${round(y)}`;
  return `M${at(start.x, start.y)} C${at(start.x + bend, start.y + drop)} ${at(end.x - bend, end.y + drop)} ${at(end.x, end.y)}`;
}

/** The drawing fitted and centred in `box`; an empty thumbnail when there is nothing drawable. */
export function thumbnailOf(graph: unknown, box: ThumbnailBox): Thumbnail {
  if (!isRecord(graph)) return { nodes: [], edges: [] };
  const raw = absolute(readNodes(graph));
  if (raw.length === 0) return { nodes: [], edges: [] };
  const left = Math.min(...raw.map((node) => node.x));
  const top = Math.min(...raw.map((node) => node.y));
  const right = Math.max(...raw.map((node) => node.x + node.width));
  const bottom = Math.max(...raw.map((node) => node.y + node.height));
  const room = { width: Math.max(1, box.width - 2 * PADDING), height: Math.max(1, box.height - 2 * PADDING) };
  const scale = Math.min(MAX_SCALE, room.width / (right - left), room.height / (bottom - top));
  const offset = { x: (box.width - (right - left) * scale) / 2, y: (box.height - (bottom - top) * scale) / 2 };
  const nodes = raw.map((node) => ({
    id: node.id,
    componentName: node.componentName,
    note: node.note,
    x: round(offset.x + (node.x - left) * scale),
    y: round(offset.y + (node.y - top) * scale),
    width: round(Math.max(1, node.width * scale)),
    height: round(Math.max(1, node.height * scale)),
  }));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const edges: ThumbnailEdge[] = [];
  for (const [index, edge] of (Array.isArray(graph.edges) ? graph.edges : []).entries()) {
    if (!isRecord(edge) || typeof edge.source !== "string" || typeof edge.target !== "string") continue;
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source || !target || source === target) continue;
    const start = { x: source.x + source.width, y: round(source.y + source.height / 2) };
    const end = { x: target.x, y: round(target.y + target.height / 2) };
    edges.push({ id: `${index}`, path: edgePath(start, end, Math.max(source.height, target.height)) });
  }
  return { nodes, edges };
}
