import type { GraphEdge, GraphNode } from "../../components/knowledge-graph/graphModel";
import type { GraphExplorerQuery } from "../../graphql/gql/graphql";

/** The server's view, as the explorer's query reads it. */
type ExplorerView = GraphExplorerQuery["graphExplorer"];

/** An entity as the server names it: its knowledge base and its name. */
export interface EntityRef {
  knowledgeBaseId: string;
  name: string;
}

/** How many entities a view may show: the server's cap is 500. */
export const ENTITY_LIMITS = [50, 150, 300, 500] as const;
export const DEFAULT_ENTITY_LIMIT = 150;
/** The server's cap on knowledge bases in one view. */
export const MAX_KNOWLEDGE_BASES = 10;

/** The view as the drawing takes it: nodes sized by degree. */
export function drawingOf(nodes: ExplorerView["nodes"], edges: ExplorerView["edges"]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  return {
    nodes: nodes.map((node) => ({ id: node.id, name: node.name, type: node.type || "unknown", description: "", rank: node.degree })),
    edges: edges.map((edge) => ({ source: edge.source, target: edge.target, weight: edge.weight, description: edge.description })),
  };
}

/** A node id (`<knowledge base id>:<name>`) as the entity it names; knowledge-base ids hold no colon, names may. */
export function entityOf(id: string): EntityRef | null {
  const at = id.indexOf(":");
  return at > 0 ? { knowledgeBaseId: id.slice(0, at), name: id.slice(at + 1) } : null;
}

export const idOf = (entity: EntityRef) => `${entity.knowledgeBaseId}:${entity.name}`;

/**
 * The knowledge bases a view starts with: those named in the address that still have a graph, else the one with
 * the largest graph (the list comes largest first).
 */
export function initialKnowledgeBases(fromAddress: string | null, withGraphs: { id: string }[]): string[] {
  const available = new Set(withGraphs.map((kb) => kb.id));
  const named = (fromAddress ?? "").split(",").filter((id) => available.has(id));
  if (named.length > 0) return [...new Set(named)].slice(0, MAX_KNOWLEDGE_BASES);
  return withGraphs.length > 0 ? [withGraphs[0].id] : [];
}

/** Ticks or unticks a knowledge base; the last one stays (a view needs one), and no more than the server's cap. */
export function toggledKnowledgeBase(chosen: string[], id: string): string[] {
  if (chosen.includes(id)) return chosen.length > 1 ? chosen.filter((other) => other !== id) : chosen;
  return chosen.length >= MAX_KNOWLEDGE_BASES ? chosen : [...chosen, id];
}

/** The document's chunk page, filtered to the chunks naming the entity (the page's own search). */
export function chunkPagePath(knowledgeBaseId: string, documentId: string, entityName: string): string {
  return `/knowledge/dataset/chunk?${new URLSearchParams({ id: knowledgeBaseId, doc: documentId, search: entityName }).toString()}`;
}

/** The document viewer at the chunk, as a citation opens it. */
export function documentPath(documentId: string, chunkId: string, page: number | null): string {
  return `/document/${documentId}?${page != null ? `page=${page}&` : ""}chunk=${chunkId}`;
}

/**
 * The part of a chunk around the first mention of a name (any case), cut at `around` characters either side, as
 * text before, the mention itself, and text after; the whole text as `before` when it does not name it.
 */
export function mentionIn(content: string, name: string, around = 160): { before: string; match: string; after: string } {
  const at = name ? content.toLowerCase().indexOf(name.toLowerCase()) : -1;
  if (at < 0) return { before: content.length > 2 * around ? `${content.slice(0, 2 * around)}…` : content, match: "", after: "" };
  const start = Math.max(0, at - around);
  const end = Math.min(content.length, at + name.length + around);
  return {
    before: `${start > 0 ? "…" : ""}${content.slice(start, at)}`,
    match: content.slice(at, at + name.length),
    after: `${content.slice(at + name.length, end)}${end < content.length ? "…" : ""}`,
  };
}
