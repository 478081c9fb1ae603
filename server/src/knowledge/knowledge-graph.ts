import type { DataSource, EntityManager } from "typeorm";
import type { GraphEntity, GraphRelation } from "../ingestion/types";

/**
 * The knowledge graph of a knowledge base: entities and relations found in its documents by the GraphRAG
 * task (kb-tasks), merged by name across documents (descriptions joined, weights added), and what the
 * knowledge-graph page draws from it — a force graph and a mind map.
 */

const MAX_NODES = 256;
const MAX_EDGES = 128;
const MAX_DESCRIPTION = 4000;

/** Removes the whole graph of a knowledge base. */
export async function deleteGraph(manager: EntityManager, knowledgeBaseId: string): Promise<void> {
  await manager.query(`DELETE FROM graph_relation WHERE knowledge_base_id = $1`, [knowledgeBaseId]);
  await manager.query(`DELETE FROM graph_entity WHERE knowledge_base_id = $1`, [knowledgeBaseId]);
}

export async function mergeGraph(db: EntityManager, knowledgeBaseId: string, documentId: string, graph: { entities: GraphEntity[]; relations: GraphRelation[] }): Promise<void> {
  if (graph.entities.length > 0) {
    await db.query(
      `INSERT INTO graph_entity (knowledge_base_id, name, type, description, document_ids)
       SELECT $1, t.name, t.type, t.description, jsonb_build_array($2::text) FROM unnest($3::text[], $4::text[], $5::text[]) AS t(name, type, description)
       ON CONFLICT (knowledge_base_id, name) DO UPDATE SET
         description = left(CASE WHEN position(excluded.description in graph_entity.description) > 0 THEN graph_entity.description
                                 ELSE graph_entity.description || E'\\n' || excluded.description END, ${MAX_DESCRIPTION}),
         document_ids = CASE WHEN graph_entity.document_ids ? $2 THEN graph_entity.document_ids ELSE graph_entity.document_ids || jsonb_build_array($2::text) END`,
      [knowledgeBaseId, documentId, graph.entities.map((e) => e.name), graph.entities.map((e) => e.type), graph.entities.map((e) => e.description)],
    );
  }
  if (graph.relations.length > 0) {
    await db.query(
      `INSERT INTO graph_relation (knowledge_base_id, source, target, description, keywords, weight, document_ids)
       SELECT $1, t.source, t.target, t.description, t.keywords::jsonb, t.weight, jsonb_build_array($2::text)
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::real[]) AS t(source, target, description, keywords, weight)
       ON CONFLICT (knowledge_base_id, source, target) DO UPDATE SET
         weight = graph_relation.weight + excluded.weight,
         description = left(graph_relation.description || E'\\n' || excluded.description, ${MAX_DESCRIPTION}),
         document_ids = CASE WHEN graph_relation.document_ids ? $2 THEN graph_relation.document_ids ELSE graph_relation.document_ids || jsonb_build_array($2::text) END`,
      [
        knowledgeBaseId,
        documentId,
        graph.relations.map((r) => r.source),
        graph.relations.map((r) => r.target),
        graph.relations.map((r) => r.description),
        graph.relations.map((r) => JSON.stringify(r.keywords)),
        graph.relations.map((r) => r.weight),
      ],
    );
  }
}

export interface GraphNode {
  id: string;
  entityName: string;
  entityType: string;
  description: string;
  /** Share of the relation weight that touches this entity: the layout sizes nodes by it. */
  pagerank: number;
  sourceIds: string[];
}

export interface GraphEdge {
  source: string;
  target: string;
  description: string;
  keywords: string[];
  weight: number;
  sourceIds: string[];
}

export interface MindMapNode {
  id: string;
  label: string;
  children: MindMapNode[];
}

export interface KnowledgeGraphView {
  nodes: GraphNode[];
  edges: GraphEdge[];
  mindMap: MindMapNode | null;
}

/** The graph as RAGFlow returns it: nodes by rank (at most 256), edges between them by weight (at most 128), no self-loops. */
export async function readGraph(db: DataSource, knowledgeBaseId: string, rootLabel: string): Promise<KnowledgeGraphView> {
  const entities: { name: string; type: string; description: string; document_ids: string[] }[] = await db.query(
    `SELECT name, type, description, document_ids FROM graph_entity WHERE knowledge_base_id = $1`,
    [knowledgeBaseId],
  );
  const relations: { source: string; target: string; description: string; keywords: string[]; weight: number; document_ids: string[] }[] = await db.query(
    `SELECT source, target, description, keywords, weight, document_ids FROM graph_relation WHERE knowledge_base_id = $1 AND source <> target`,
    [knowledgeBaseId],
  );
  if (entities.length === 0) return { nodes: [], edges: [], mindMap: null };
  const known = new Set(entities.map((e) => e.name));
  const strength = new Map<string, number>();
  let total = 0;
  for (const r of relations) {
    if (!known.has(r.source) || !known.has(r.target)) continue;
    strength.set(r.source, (strength.get(r.source) ?? 0) + r.weight);
    strength.set(r.target, (strength.get(r.target) ?? 0) + r.weight);
    total += 2 * r.weight;
  }
  const nodes: GraphNode[] = entities
    .map((e) => ({ id: e.name, entityName: e.name, entityType: e.type, description: e.description, pagerank: total > 0 ? (strength.get(e.name) ?? 0) / total : 0, sourceIds: e.document_ids }))
    .sort((a, b) => b.pagerank - a.pagerank || a.id.localeCompare(b.id))
    .slice(0, MAX_NODES);
  const shown = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = relations
    .filter((r) => shown.has(r.source) && shown.has(r.target))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, MAX_EDGES)
    .map((r) => ({ source: r.source, target: r.target, description: r.description, keywords: r.keywords, weight: r.weight, sourceIds: r.document_ids }));
  return { nodes, edges, mindMap: mindMapOf(rootLabel, nodes, edges) };
}

/** Knowledge base → entity types → their strongest entities → the entities each is related to. */
function mindMapOf(rootLabel: string, nodes: GraphNode[], edges: GraphEdge[]): MindMapNode {
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
  }
  const byType = new Map<string, GraphNode[]>();
  for (const node of nodes) byType.set(node.entityType, [...(byType.get(node.entityType) ?? []), node]);
  return {
    id: "root",
    label: rootLabel,
    children: [...byType.entries()].map(([type, members]) => ({
      id: `type:${type}`,
      label: type,
      children: members.slice(0, 8).map((node) => ({
        id: `entity:${node.id}`,
        label: node.entityName,
        children: (neighbours.get(node.id) ?? []).slice(0, 5).map((n) => ({ id: `entity:${node.id}:${n}`, label: n, children: [] })),
      })),
    })),
  };
}
