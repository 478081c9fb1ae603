import type { Platform } from "../platform";
import { CancellableRuns } from "../platform/runs/cancellable-runs";
import type { Document, DocumentFailure, ParseLogLine } from "./document.entity";

/**
 * Parsing progress of a knowledge base's documents, published on the pub/sub port (in-process, or Redis
 * so that a worker's progress reaches a browser connected to any server) and delivered by the
 * `documentProgress` subscription. Times travel as ISO strings: Redis carries JSON.
 */

export interface DocumentProgressEvent {
  documentId: string;
  knowledgeBaseId: string;
  run: string;
  progress: number;
  progressMsg: string;
  progressLog: ParseLogLine[];
  chunkCount: number;
  tokenCount: number;
  processBeginAt: string | null;
  processDuration: number;
  pageCount: number | null;
  failure: DocumentFailure | null;
  /** The document's place in the parse queue while it waits for a worker (knowledge/parse-queue.ts); null otherwise. */
  queuePosition: number | null;
}

export const progressTopic = (knowledgeBaseId: string) => `knowledge.progress.${knowledgeBaseId}`;

export function progressEventOf(document: Document): DocumentProgressEvent {
  return {
    documentId: document.id,
    knowledgeBaseId: document.knowledgeBaseId,
    run: document.run,
    progress: document.progress,
    progressMsg: document.progressMsg,
    progressLog: document.progressLog,
    chunkCount: document.chunkCount,
    tokenCount: document.tokenCount,
    processBeginAt: document.processBeginAt ? new Date(document.processBeginAt).toISOString() : null,
    processDuration: document.processDuration,
    pageCount: document.pageCount,
    failure: document.failure ?? null,
    queuePosition: null,
  };
}

export function publishProgress(platform: Platform, event: Document | DocumentProgressEvent): void {
  const payload = "documentId" in event ? event : progressEventOf(event);
  platform.pubsub.publish(progressTopic(payload.knowledgeBaseId), payload);
}

/** Cancellation reaches the process running the job at once through this topic; the job also rechecks the database. */
const CANCEL_TOPIC = "knowledge.parse.cancel";

/** The documents being parsed, by document id: cancelling one in any process aborts its job's signal. */
export const parseRuns = (platform: Platform) => CancellableRuns.on(platform.pubsub, CANCEL_TOPIC);
