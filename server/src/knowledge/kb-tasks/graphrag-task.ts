import { entityTypesOf, extractGraph } from "../../ingestion/chunkers/graph-extraction";
import type { Graph } from "../../ingestion/types";
import { deleteGraph, mergeGraph } from "../knowledge-graph";
import { logMessage } from "../../ingestion/parse-log";
import { parsedDocuments, type KbTaskOutput, type KbTaskRun } from "./kb-task-run";

/**
 * GraphRAG over a knowledge base: the entities (of the knowledge base's entity types) and relations of
 * every parsed document's chunks, extracted by the chat model (or, with the built-in one, by the offline
 * extractor), merged into the knowledge base's graph. The graph replaces the previous one as a whole.
 */
export async function runGraphRag(run: KbTaskRun): Promise<KbTaskOutput> {
  const { db, task, config } = run;
  const documents = await parsedDocuments(db, task);
  const skipped = task.documentIds.length - documents.length;
  if (skipped > 0) await run.report(0.01, logMessage("kbTaskLog.documentsSkipped", { count: skipped }));
  const chat = await run.chat();
  const entityTypes = entityTypesOf(config);
  const graphs: { documentId: string; graph: Graph }[] = [];
  // The same note (the built-in extractor's) is said once for the whole task.
  const noted = new Set<string>();
  for (const [index, document] of documents.entries()) {
    const share = (fraction: number) => 0.02 + (0.93 * (index + fraction)) / documents.length;
    const chunks: { content: string }[] = await db.query(`SELECT content FROM chunk WHERE document_id = $1 AND kind <> 'raptor' ORDER BY ordinal`, [document.id]);
    const extracted = await extractGraph(
      chunks.map((c) => c.content),
      { chat, entityTypes, language: run.knowledgeBase.language, signal: run.signal, progress: (done, total) => void run.report(share(done / total)).catch(() => undefined) },
    );
    for (const note of extracted.notes) {
      const said = JSON.stringify(note);
      if (noted.has(said)) continue;
      noted.add(said);
      await run.report(share(1), note);
    }
    graphs.push({ documentId: document.id, graph: extracted.graph });
    await run.report(share(1), logMessage("kbTaskLog.documentGraph", { document: document.name, entities: extracted.graph.entities.length, relations: extracted.graph.relations.length }));
  }
  const counts = { entityCount: 0, relationCount: 0 };
  return {
    counts,
    summary: () => logMessage("kbTaskLog.graphMade", { entities: counts.entityCount, relations: counts.relationCount }),
    async replace(manager) {
      await deleteGraph(manager, task.knowledgeBaseId);
      for (const { documentId, graph } of graphs) await mergeGraph(manager, task.knowledgeBaseId, documentId, graph);
      const [entities]: { count: string }[] = await manager.query(`SELECT count(*) AS count FROM graph_entity WHERE knowledge_base_id = $1`, [task.knowledgeBaseId]);
      const [relations]: { count: string }[] = await manager.query(`SELECT count(*) AS count FROM graph_relation WHERE knowledge_base_id = $1`, [task.knowledgeBaseId]);
      counts.entityCount = Number(entities.count);
      counts.relationCount = Number(relations.count);
    },
  };
}
