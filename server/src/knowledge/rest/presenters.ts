import { epochMillis, rfc1123 } from "../../rest/presenters";
import type { Chunk } from "../chunk.entity";
import { RUN, type RunStatus } from "../document.entity";
import type { Document } from "../document.entity";
import type { KnowledgeBase } from "../knowledge-base.entity";
import type { DatasetTaskRefs } from "../kb-tasks/kb-task.service";

/** What the RAGFlow-compatible REST facade shows of knowledge bases, documents and chunks (contract §2.1, §3.1, §4.1). */

const RUN_WORDS: Record<string, string> = {
  [RUN.unstarted]: "UNSTART",
  [RUN.running]: "RUNNING",
  [RUN.cancelled]: "CANCEL",
  [RUN.done]: "DONE",
  [RUN.failed]: "FAIL",
};

/** The stored digit as RAGFlow's word; unknown digits pass through as RAGFlow does. */
export function runWord(run: string): string {
  return RUN_WORDS[run] ?? run;
}

/** A `run` filter value, word or digit, as the stored digit (null when it is neither). */
export function runDigit(value: string): RunStatus | null {
  const upper = value.trim().toUpperCase();
  const byWord = Object.entries(RUN_WORDS).find(([, word]) => word === upper);
  if (byWord) return byWord[0] as RunStatus;
  return (Object.values(RUN) as string[]).includes(value.trim()) ? (value.trim() as RunStatus) : null;
}

/** A dataset (contract §2.1); `tasks` are its RAPTOR and GraphRAG runs (KbTaskService.datasetTaskRefs), none for a new one. */
export function presentDataset(kb: KnowledgeBase, tasks: DatasetTaskRefs = {}): Record<string, unknown> {
  return {
    id: kb.id,
    tenant_id: kb.tenantId,
    created_by: kb.createdBy,
    name: kb.name,
    avatar: kb.avatar,
    description: kb.description,
    language: kb.language,
    embedding_model: kb.embeddingModel,
    permission: kb.permission,
    chunk_method: kb.chunkMethod,
    pipeline_id: null,
    parser_config: kb.parserConfig,
    pagerank: kb.pagerank,
    document_count: kb.documentCount,
    chunk_count: kb.chunkCount,
    token_num: kb.tokenCount,
    similarity_threshold: kb.similarityThreshold,
    vector_similarity_weight: kb.vectorSimilarityWeight,
    graphrag_task_id: tasks.graphrag?.taskId ?? null,
    graphrag_task_finish_at: rfc1123(tasks.graphrag?.finishedAt),
    raptor_task_id: tasks.raptor?.taskId ?? null,
    raptor_task_finish_at: rfc1123(tasks.raptor?.finishedAt),
    mindmap_task_id: null,
    mindmap_task_finish_at: null,
    status: "1",
    create_time: epochMillis(kb.createdAt),
    create_date: rfc1123(kb.createdAt),
    update_time: epochMillis(kb.updatedAt),
    update_date: rfc1123(kb.updatedAt),
  };
}

/** The keys of an upload answer, exactly (contract §3.2): no counters, no dates, `run` always UNSTART. */
export function presentUploadedDocument(document: Document): Record<string, unknown> {
  return {
    id: document.id,
    dataset_id: document.knowledgeBaseId,
    chunk_method: document.chunkMethod,
    pipeline_id: null,
    parser_config: document.parserConfig,
    created_by: document.createdBy,
    type: document.type,
    name: document.name,
    source_type: document.sourceType,
    suffix: document.suffix,
    location: document.name,
    size: document.size,
    thumbnail: "",
    run: "UNSTART",
  };
}

/** A document object (§3.1); `listed` adds what only the list endpoint shows (meta_fields, title). */
export function presentDocument(document: Document, options: { listed?: boolean } = {}): Record<string, unknown> {
  return {
    id: document.id,
    dataset_id: document.knowledgeBaseId,
    name: document.name,
    type: document.type,
    suffix: document.suffix,
    location: document.name,
    size: document.size,
    chunk_method: document.chunkMethod,
    pipeline_id: null,
    parser_config: document.parserConfig,
    source_type: document.sourceType,
    created_by: document.createdBy,
    thumbnail: "",
    chunk_count: document.chunkCount,
    token_count: document.tokenCount,
    progress: document.progress,
    progress_msg: document.progressMsg,
    process_begin_at: rfc1123(document.processBeginAt),
    process_duration: document.processDuration,
    run: runWord(document.run),
    status: document.enabled ? "1" : "0",
    ...(options.listed ? { meta_fields: document.metaFields ?? {}, title: null } : {}),
    create_time: epochMillis(document.createdAt),
    create_date: rfc1123(document.createdAt),
    update_time: epochMillis(document.updatedAt),
    update_date: rfc1123(document.updatedAt),
  };
}

/** RAGFlow's positions: [page, x0, x1, top, bottom] as integers. */
function presentPositions(chunk: Chunk): number[][] {
  return (chunk.positions ?? []).map((p) => [p.page, p.x0, p.x1, p.top, p.bottom].map((n) => Math.round(n)));
}

/** A chunk in a list (§4.1); `content` is the highlighted text when the list was searched. */
export function presentChunk(chunk: Chunk & { highlighted?: string | null }, documentName: string): Record<string, unknown> {
  return {
    id: chunk.id,
    content: chunk.highlighted ?? chunk.content,
    document_id: chunk.documentId,
    docnm_kwd: documentName,
    important_keywords: chunk.keywords,
    questions: chunk.questions,
    dataset_id: chunk.knowledgeBaseId,
    image_id: chunk.imageKey ?? "",
    available: chunk.available,
    positions: presentPositions(chunk),
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DD HH:MM:SS" in the server's local time, as RAGFlow prints a new chunk's create_time. */
function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The `data.chunk` of an add-chunk answer (§4.3). */
export function presentAddedChunk(chunk: Chunk): Record<string, unknown> {
  return {
    id: chunk.id,
    content: chunk.content,
    document_id: chunk.documentId,
    dataset_id: chunk.knowledgeBaseId,
    important_keywords: chunk.keywords,
    questions: chunk.questions,
    create_time: localDateTime(chunk.createdAt),
    create_timestamp: chunk.createdAt.getTime() / 1000,
  };
}

/** Internal names RAGFlow's web API shows a dataset row under (the service API renames them, §2.1). */
const ROW_NAMES: Record<string, string> = { chunk_count: "chunk_num", document_count: "doc_num", chunk_method: "parser_id", embedding_model: "embd_id" };

/** A dataset as RAGFlow's web API answers it: the raw row, with its internal column names. */
export function presentDatasetRow(kb: KnowledgeBase, tasks: DatasetTaskRefs = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(presentDataset(kb, tasks)).map(([key, value]) => [ROW_NAMES[key] ?? key, value]));
}
