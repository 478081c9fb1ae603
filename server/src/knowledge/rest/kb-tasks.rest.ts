import { jsonResult, RETURN_CODES, success } from "../../rest/envelope";
import { epochMillis, rfc1123 } from "../../rest/presenters";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { KbTaskKind, type KbTask } from "../kb-tasks/kb-task.entity";
import { readGraph, type MindMapNode } from "../knowledge-graph";
import type { Action } from "../../policies";
import { answering, Refusal, usableDataset } from "./scope";

/**
 * RAGFlow's knowledge-graph, GraphRAG and RAPTOR endpoints (contract §2.7) over KbTaskService. A dataset
 * the caller may not use is answered `{"code":109,"message":"No authorization.","data":false}`.
 */

/** RAGFlow queues these tasks with this page range: the whole document set. */
const WHOLE_RANGE = 100000000;

const noAuthorization = () => new Refusal(jsonResult(RETURN_CODES.AUTHENTICATION_ERROR, "No authorization.", false));

async function datasetFor({ services, principal, params }: AuthenticatedRestContext, action: Action = "read") {
  const kb = await usableDataset(services, principal, params.datasetId, action);
  if (!kb) throw noAuthorization();
  return kb;
}

/** A task as RAGFlow's Task.to_dict() (progress 1 done, -1 failed or cancelled; the log in progress_msg). */
export function presentKbTask(task: KbTask): Record<string, unknown> {
  return {
    id: task.id,
    doc_id: task.documentIds[0] ?? "",
    from_page: WHOLE_RANGE,
    to_page: WHOLE_RANGE,
    task_type: task.kind,
    priority: 0,
    begin_at: rfc1123(task.beginAt),
    process_duration: task.processDuration,
    progress: task.progress,
    progress_msg: task.progressMsg,
    retry_count: 0,
    digest: "",
    chunk_ids: "",
    create_time: epochMillis(task.createdAt),
    create_date: rfc1123(task.createdAt),
    update_time: epochMillis(task.updatedAt),
    update_date: rfc1123(task.updatedAt),
  };
}

function presentMindMap(node: MindMapNode): Record<string, unknown> {
  return { id: node.label, children: node.children.map(presentMindMap) };
}

function runTask(kind: KbTaskKind, idField: string) {
  return async (context: AuthenticatedRestContext) =>
    answering(async () => {
      const kb = await datasetFor(context, "manage");
      const task = await context.services.kbTasks.start(context.principal, kb.id, kind);
      return success({ [idField]: task.id });
    });
}

function traceTask(kind: KbTaskKind) {
  return async (context: AuthenticatedRestContext) =>
    answering(async () => {
      const kb = await datasetFor(context);
      const task = await context.services.kbTasks.latestOfKind(context.principal, kb.id, kind);
      return success(task ? presentKbTask(task) : {});
    });
}

async function knowledgeGraph(context: AuthenticatedRestContext): Promise<unknown> {
  return answering(async () => {
    const kb = await datasetFor(context);
    const graph = await readGraph(context.services.platform.db, kb.id, kb.name);
    if (graph.nodes.length === 0) return success({ graph: {}, mind_map: {} });
    const degree = new Map<string, number>();
    for (const edge of graph.edges) for (const end of [edge.source, edge.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
    return success({
      graph: {
        nodes: graph.nodes.map((n) => ({ id: n.id, entity_name: n.entityName, entity_type: n.entityType, description: n.description, pagerank: n.pagerank, rank: degree.get(n.id) ?? 0, source_id: n.sourceIds })),
        edges: graph.edges.map((e) => ({ source: e.source, target: e.target, src_id: e.source, tgt_id: e.target, description: e.description, keywords: e.keywords, weight: e.weight, source_id: e.sourceIds })),
      },
      mind_map: graph.mindMap ? presentMindMap(graph.mindMap) : {},
    });
  });
}

async function deleteKnowledgeGraph(context: AuthenticatedRestContext): Promise<unknown> {
  return answering(async () => {
    const kb = await datasetFor(context, "manage");
    await context.services.kbTasks.deleteGraph(context.principal, kb.id);
    return success(true);
  });
}

export const kbTaskRestRoutes: RestRoute[] = [
  authenticatedRoute("GET", "/api/v1/datasets/:datasetId/knowledge_graph", "apiKey", knowledgeGraph),
  authenticatedRoute("DELETE", "/api/v1/datasets/:datasetId/knowledge_graph", "apiKey", deleteKnowledgeGraph),
  authenticatedRoute("POST", "/api/v1/datasets/:datasetId/run_graphrag", "apiKey", runTask(KbTaskKind.GRAPHRAG, "graphrag_task_id")),
  authenticatedRoute("GET", "/api/v1/datasets/:datasetId/trace_graphrag", "apiKey", traceTask(KbTaskKind.GRAPHRAG)),
  authenticatedRoute("POST", "/api/v1/datasets/:datasetId/run_raptor", "apiKey", runTask(KbTaskKind.RAPTOR, "raptor_task_id")),
  authenticatedRoute("GET", "/api/v1/datasets/:datasetId/trace_raptor", "apiKey", traceTask(KbTaskKind.RAPTOR)),
];
