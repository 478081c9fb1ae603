import type { JobDefinition } from "../../platform/queue";
import type { Services } from "../../platform/services";
import { PublishedState } from "../../platform/runs/published-state";
import { failureOf } from "../../ingestion/pipeline";
import { appendLogLine, logMessage, type LogMessage } from "../../ingestion/parse-log";
import { KnowledgeBase } from "../knowledge-base.entity";
import { ACTIVE_STATUSES, KbTask, KbTaskKind, KbTaskStatus } from "./kb-task.entity";
import { kbTaskRuns, publishKbTask } from "./kb-task-events";
import type { KbTaskOutput, KbTaskRun } from "./kb-task-run";
import { runGraphRag } from "./graphrag-task";
import { runRaptor } from "./raptor-task";

export const KB_TASK_JOB = "knowledge.kb-task";

export interface KbTaskPayload {
  taskId: string;
}

const WORK: Record<KbTaskKind, (run: KbTaskRun) => Promise<KbTaskOutput>> = {
  [KbTaskKind.RAPTOR]: runRaptor,
  [KbTaskKind.GRAPHRAG]: runGraphRag,
};

const PROGRESS_WRITE_INTERVAL_MS = 1000;

const secondsSince = (start: Date | null) => (start ? (Date.now() - new Date(start).getTime()) / 1000 : 0);

/**
 * Runs one RAPTOR or GraphRAG task: claims it (a cancelled task is left alone), works with progress
 * published on every step and written at most once a second (the latest always), then in one transaction
 * marks it done and puts its output in place of the previous run's, only if it is still running. A cancel
 * or a failure leaves the previous output untouched.
 */
export async function runKbTask(services: Services, taskId: string): Promise<void> {
  const { db } = services.platform;
  const repository = db.getRepository(KbTask);
  const found = await repository.findOneBy({ id: taskId });
  if (!found || !ACTIVE_STATUSES.includes(found.status)) return;
  const task = found;
  task.status = KbTaskStatus.RUNNING;
  task.beginAt ??= new Date();
  Object.assign(task, appendLogLine(task, logMessage("parseLog.received")));
  const claimed = await repository
    .createQueryBuilder()
    .update()
    .set({ status: task.status, beginAt: task.beginAt, progressMsg: task.progressMsg, progressLog: task.progressLog as never })
    .where("id = :id AND status IN (:...active)", { id: task.id, active: ACTIVE_STATUSES })
    .execute();
  if (!claimed.affected) return;
  publishKbTask(services.platform, task);

  // A cancel from any process aborts this signal, and with it the model calls in flight.
  const taskRun = kbTaskRuns(services.platform).start(task.id);
  const state = new PublishedState(
    () => publishKbTask(services.platform, task),
    async () => {
      const written = await repository.update({ id: task.id, status: KbTaskStatus.RUNNING }, {
        progress: task.progress,
        progressMsg: task.progressMsg,
        // TypeORM cannot type a partial update of a JSON record
        progressLog: task.progressLog as never,
        processDuration: task.processDuration,
      });
      // Cancelled by a process that could not reach this one through the topic.
      if (!written.affected) taskRun.abort();
      return !!written.affected;
    },
    PROGRESS_WRITE_INTERVAL_MS,
  );
  const report = async (fraction: number, message?: LogMessage) => {
    if (message) Object.assign(task, appendLogLine(task, message));
    task.progress = Math.max(task.progress, Math.min(fraction, 0.99));
    task.processDuration = secondsSince(task.beginAt);
    await state.changed();
    taskRun.signal.throwIfAborted();
  };

  try {
    const knowledgeBase = await db.getRepository(KnowledgeBase).findOneByOrFail({ id: task.knowledgeBaseId });
    const config = knowledgeBase.parserConfig;
    const embedding = await services.models.client(knowledgeBase.tenantId, "embedding", knowledgeBase.embeddingModel);
    const run: KbTaskRun = {
      db,
      task,
      knowledgeBase,
      config,
      chat: async () => ({
        model: await services.models.client(knowledgeBase.tenantId, "chat", config.llm_id),
        id: config.llm_id || (await services.models.defaults(knowledgeBase.tenantId)).chat,
      }),
      embed: async (texts) => (await embedding.embed(texts, { purpose: "document", signal: taskRun.signal })).vectors,
      signal: taskRun.signal,
      report,
    };
    await report(0.01, logMessage(task.kind === KbTaskKind.RAPTOR ? "kbTaskLog.raptorStarted" : "kbTaskLog.graphStarted"));
    const output = await WORK[task.kind](run);
    await state.stop();
    taskRun.signal.throwIfAborted();
    const finished = await db.transaction(async (manager) => {
      const [rows]: [unknown[], number] = await manager.query(`UPDATE kb_task SET status = 'running' WHERE id = $1 AND status = 'running' RETURNING id`, [task.id]);
      if (rows.length === 0) return false;
      await output.replace(manager);
      task.processDuration = secondsSince(task.beginAt);
      const log = appendLogLine(appendLogLine(task, output.summary()), logMessage("parseLog.done", { seconds: task.processDuration.toFixed(2) }));
      Object.assign(task, output.counts, log, {
        status: KbTaskStatus.DONE,
        progress: 1,
        finishedAt: new Date(),
      });
      await manager.getRepository(KbTask).update({ id: task.id }, {
        ...output.counts,
        status: task.status,
        progress: task.progress,
        progressMsg: task.progressMsg,
        progressLog: task.progressLog as never,
        finishedAt: task.finishedAt,
        processDuration: task.processDuration,
      });
      return true;
    });
    if (finished) publishKbTask(services.platform, task);
  } catch (error) {
    await state.stop();
    if (taskRun.signal.aborted) return;
    await failKbTask(services, task.id, error instanceof Error ? error : new Error(String(error)));
  } finally {
    taskRun.end();
  }
}

/** Marks a task failed with the reason in its log, unless it ended meanwhile (cancelled). */
export async function failKbTask(services: Services, taskId: string, error: Error): Promise<void> {
  const repository = services.platform.db.getRepository(KbTask);
  const task = await repository.findOneBy({ id: taskId });
  if (!task || !ACTIVE_STATUSES.includes(task.status)) return;
  const log = appendLogLine(task, logMessage("parseLog.failed", { reason: failureOf(error) ?? error.message }));
  const changes = { status: KbTaskStatus.FAILED, progress: -1, ...log, finishedAt: new Date(), processDuration: secondsSince(task.beginAt) };
  const result = await repository.createQueryBuilder().update().set({ ...changes, progressLog: log.progressLog as never }).where("id = :id AND status IN (:...active)", { id: taskId, active: ACTIVE_STATUSES }).execute();
  if (result.affected) publishKbTask(services.platform, Object.assign(task, changes));
}

/** One RAPTOR or GraphRAG run; it is not retried (it would start over), a failure ends it with the reason. */
export const kbTaskJob: JobDefinition<Services, KbTaskPayload> = {
  name: KB_TASK_JOB,
  attempts: 1,
  backoffMs: 0,
  run: (payload, services) => runKbTask(services, payload.taskId),
  onFinalFailure: (payload, services, error) => failKbTask(services, payload.taskId, error),
};
