import type { DataSource, EntityManager } from "typeorm";
import type { ParserConfig } from "../../ingestion/types";
import type { ChatModel } from "../../models/model-types";
import type { KnowledgeBase } from "../knowledge-base.entity";
import type { KbTask } from "./kb-task.entity";
import type { LogMessage } from "../../ingestion/parse-log";

/** What RAPTOR and GraphRAG get from the task runner (kb-task.job.ts). */
export interface KbTaskRun {
  db: DataSource;
  task: KbTask;
  knowledgeBase: KnowledgeBase;
  config: ParserConfig;
  /** The knowledge base's chat model (its parser_config llm_id, else the tenant's default) and its id. */
  chat(): Promise<{ model: ChatModel; id: string }>;
  /** The knowledge base's embedding model, document purpose. */
  embed(texts: string[]): Promise<number[][]>;
  /** Aborted when the task is cancelled. */
  signal: AbortSignal;
  /** Progress between 0 and 1 of the whole task, with a line for its log. */
  report(fraction: number, message?: LogMessage): Promise<void>;
}

/** A task's result: counts for the task row, and how to put its output in place of the previous run's (inside the finishing transaction). */
export interface KbTaskOutput {
  counts: Partial<Pick<KbTask, "chunkCount" | "entityCount" | "relationCount">>;
  /** The log line that says what it made; read after `replace` has put the output in place (GraphRAG counts the merged graph). */
  summary(): LogMessage;
  replace(manager: EntityManager): Promise<void>;
}

/** The task's documents that are parsed, in upload order; the others have no chunks to work from. */
export async function parsedDocuments(db: DataSource, task: KbTask): Promise<{ id: string; name: string }[]> {
  return db.query(
    `SELECT id, name FROM document WHERE knowledge_base_id = $1 AND id = ANY($2) AND run = '3' ORDER BY created_at, id`,
    [task.knowledgeBaseId, task.documentIds],
  );
}
