import type { Platform } from "../../platform";
import { CancellableRuns } from "../../platform/runs/cancellable-runs";
import type { KbTask } from "./kb-task.entity";

/**
 * Progress of a knowledge base's RAPTOR and GraphRAG tasks on the pub/sub port (in-process, or Redis so
 * that a worker's progress reaches a browser on any server), delivered by the `knowledgeBaseTaskProgress`
 * subscription. The task travels whole, dates as ISO strings: Redis carries JSON.
 */

export type KbTaskEvent = Omit<KbTask, "beginAt" | "finishedAt" | "createdAt" | "updatedAt"> & {
  beginAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export const kbTaskTopic = (knowledgeBaseId: string) => `knowledge.kb-task.${knowledgeBaseId}`;

/** Cancellation reaches the process running the task at once through this topic; the task also rechecks the database. */
const KB_TASK_CANCEL_TOPIC = "knowledge.kb-task.cancel";

/** The RAPTOR and GraphRAG tasks being run, by task id: cancelling one in any process aborts its signal. */
export const kbTaskRuns = (platform: Platform) => CancellableRuns.on(platform.pubsub, KB_TASK_CANCEL_TOPIC);

const iso = (date: Date | string | null) => (date ? new Date(date).toISOString() : null);

export function kbTaskEventOf(task: KbTask): KbTaskEvent {
  return { ...task, beginAt: iso(task.beginAt), finishedAt: iso(task.finishedAt), createdAt: iso(task.createdAt)!, updatedAt: iso(task.updatedAt)! };
}

export function kbTaskOf(event: KbTaskEvent): KbTask {
  const toDate = (value: string | null) => (value ? new Date(value) : null);
  return { ...event, beginAt: toDate(event.beginAt), finishedAt: toDate(event.finishedAt), createdAt: new Date(event.createdAt), updatedAt: new Date(event.updatedAt) };
}

export function publishKbTask(platform: Platform, task: KbTask): void {
  platform.pubsub.publish(kbTaskTopic(task.knowledgeBaseId), kbTaskEventOf(task));
}
