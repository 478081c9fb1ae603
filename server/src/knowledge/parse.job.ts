import { Document, RUN } from "./document.entity";
import type { JobDefinition } from "../platform/queue";
import type { Services } from "../platform/services";
import { announceQueueMoved, parseJobId } from "./parse-queue";
import { failDocument, PARSE_ATTEMPTS, runParse } from "./parse-run";

export const PARSE_JOB = "ingestion.parse";

export interface ParsePayload {
  documentId: string;
  /** The run this job serves; the document's run id changes when it is cancelled or parsed again. */
  runId: string;
}

/**
 * Parses one document. A failure is retried twice with back-off (a model provider may be down for a
 * moment); after the last attempt the document fails with the reason, never staying in "parsing". The
 * pipeline counts attempts in the database too, so that a file that takes the whole process down is
 * failed at the next start instead of being tried again (see runParse).
 */
export const parseJob: JobDefinition<Services, ParsePayload> = {
  name: PARSE_JOB,
  attempts: PARSE_ATTEMPTS,
  backoffMs: 2000,
  run: (payload, services) => {
    // Whatever becomes of this job, it left the line: the documents behind it moved up.
    announceQueueMoved(services.platform);
    return runParse(services, payload.documentId, payload.runId);
  },
  onFinalFailure: (payload, services, error) => failDocument(services, payload.documentId, payload.runId, error),
};

/**
 * After a restart of the embedded mode, the in-process queue is empty: every document still marked
 * "parsing" gets its job queued again under the same run id (with Redis, a job that is still queued or
 * running keeps its id, so queueing it again does nothing).
 */
export async function resumeInterruptedParsing(services: Services): Promise<number> {
  const running = await services.platform.db.getRepository(Document).findBy({ run: RUN.running });
  for (const document of running) {
    if (!document.runId) continue;
    await services.platform.queue.enqueue(PARSE_JOB, { documentId: document.id, runId: document.runId }, { jobId: parseJobId(document.id, document.runId) });
  }
  return running.length;
}
