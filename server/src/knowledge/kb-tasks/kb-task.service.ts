import { QueryFailedError, type Repository } from "typeorm";
import type { SignedIn } from "../../policies/principal";
import type { Platform } from "../../platform";
import { Conflict, NotFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { appendLogLine, logMessage } from "../../ingestion/parse-log";
import type { KnowledgeBaseService } from "../knowledge-base.service";
import { deleteGraph } from "../knowledge-graph";
import { KB_TASK_JOB } from "./kb-task.job";
import { ACTIVE_STATUSES, KbTask, KbTaskKind, KbTaskStatus } from "./kb-task.entity";
import { kbTaskRuns, publishKbTask } from "./kb-task-events";

/** Python's repr of a float, as RAGFlow's messages interpolate a task's progress ("0.0", "0.25"). */
export function pythonFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

const RUNNING_MESSAGE_KEYS: Record<KbTaskKind, string> = {
  [KbTaskKind.RAPTOR]: "errors.kbTasks.raptorRunning",
  [KbTaskKind.GRAPHRAG]: "errors.kbTasks.graphragRunning",
};

/** What a dataset of the REST API says of its RAPTOR and GraphRAG runs (`raptor_task_id`, `raptor_task_finish_at`, …). */
export type DatasetTaskRefs = Partial<Record<KbTaskKind, { taskId: string; finishedAt: Date | null }>>;

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error as QueryFailedError & { code?: string }).code === "23505";
}

/**
 * RAPTOR and GraphRAG as knowledge-base tasks (RAGFlow v0.24's run_raptor / run_graphrag): started by
 * someone who may edit the knowledge base, over all its documents, one unfinished task per kind at a
 * time, queued as a job (kb-task.job.ts), cancellable; a run's output replaces the previous run's
 * only when it succeeds.
 */
export class KbTaskService {
  private readonly repository: Repository<KbTask>;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBases: KnowledgeBaseService,
  ) {
    this.repository = platform.db.getRepository(KbTask);
  }

  private runningError(task: KbTask): Error {
    return Conflict(RUNNING_MESSAGE_KEYS[task.kind], { taskId: task.id, progress: pythonFloat(task.progress) });
  }

  private active(knowledgeBaseId: string, kind: KbTaskKind): Promise<KbTask | null> {
    return this.repository.createQueryBuilder("t").where("t.knowledgeBaseId = :knowledgeBaseId AND t.kind = :kind AND t.status IN (:...active)", { knowledgeBaseId, kind, active: ACTIVE_STATUSES }).getOne();
  }

  /** Queues a task over every document of the knowledge base; refused while one of its kind has not ended, or when there are no documents. */
  async start(principal: SignedIn, knowledgeBaseId: string, kind: KbTaskKind): Promise<KbTask> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    const running = await this.active(kb.id, kind);
    if (running) throw this.runningError(running);
    const documents: { id: string }[] = await this.platform.db.query(`SELECT id FROM document WHERE knowledge_base_id = $1 ORDER BY created_at, id`, [kb.id]);
    if (documents.length === 0) throw Conflict("errors.kbTasks.noDocuments", { id: kb.id });
    const task = this.repository.create({
      id: newId(),
      knowledgeBaseId: kb.id,
      tenantId: kb.tenantId,
      createdBy: principal.user.id,
      kind,
      status: KbTaskStatus.QUEUED,
      progress: 0,
      ...appendLogLine({ progressMsg: "", progressLog: [] }, logMessage("kbTaskLog.queued")),
      documentIds: documents.map((d) => d.id),
      chunkCount: null,
      entityCount: null,
      relationCount: null,
      beginAt: null,
      finishedAt: null,
      processDuration: 0,
    });
    try {
      // TypeORM cannot type the JSON records of an insert (progressLog)
      await this.repository.insert(task as never);
    } catch (error) {
      // Another request started one in between: the partial unique index refused this one.
      const winner = isUniqueViolation(error) ? await this.active(kb.id, kind) : null;
      if (winner) throw this.runningError(winner);
      throw error;
    }
    const stored = await this.repository.findOneByOrFail({ id: task.id });
    publishKbTask(this.platform, stored);
    await this.platform.queue.enqueue(KB_TASK_JOB, { taskId: stored.id }, { jobId: `kb-task-${stored.id}` });
    return stored;
  }

  /** Stops a task that has not ended; its partial output is dropped and the previous run's output stays. */
  async cancel(principal: SignedIn, taskId: string): Promise<KbTask> {
    const task = await this.repository.findOneBy({ id: taskId });
    if (!task) throw NotFound("errors.kbTasks.notFound");
    await this.knowledgeBases.accessible(principal, task.knowledgeBaseId, "manage");
    if (!ACTIVE_STATUSES.includes(task.status)) return task;
    const finishedAt = new Date();
    const log = appendLogLine(task, logMessage("parseLog.cancelled"));
    const processDuration = task.beginAt ? (finishedAt.getTime() - task.beginAt.getTime()) / 1000 : 0;
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ status: KbTaskStatus.CANCELLED, progress: -1, progressMsg: log.progressMsg, progressLog: log.progressLog as never, finishedAt, processDuration })
      .where("id = :id AND status IN (:...active)", { id: task.id, active: ACTIVE_STATUSES })
      .execute();
    const current = await this.repository.findOneByOrFail({ id: task.id });
    if (result.affected) {
      kbTaskRuns(this.platform).cancel(task.id);
      publishKbTask(this.platform, current);
    }
    return current;
  }

  /** The latest task of each kind that ever ran on the knowledge base. */
  async latest(principal: SignedIn, knowledgeBaseId: string): Promise<KbTask[]> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId);
    return this.latestOf(kb.id);
  }

  async latestOf(knowledgeBaseId: string): Promise<KbTask[]> {
    return this.repository
      .createQueryBuilder("t")
      .distinctOn(["t.kind"])
      .where("t.knowledgeBaseId = :knowledgeBaseId", { knowledgeBaseId })
      .orderBy("t.kind")
      .addOrderBy("t.createdAt", "DESC")
      .addOrderBy("t.id", "DESC")
      .getMany();
  }

  /**
   * For each knowledge base, its latest task of each kind and when a task of that kind last succeeded: RAGFlow sets
   * `*_task_id` when a run is queued and `*_task_finish_at` only when one finishes, so a running or failed run keeps the
   * previous success's time. One query for a whole listing.
   */
  async datasetTaskRefs(knowledgeBaseIds: string[]): Promise<Map<string, DatasetTaskRefs>> {
    const refs = new Map<string, DatasetTaskRefs>(knowledgeBaseIds.map((id) => [id, {}]));
    if (knowledgeBaseIds.length === 0) return refs;
    const rows: { knowledge_base_id: string; kind: KbTaskKind; task_id: string; finished_at: Date | null }[] = await this.platform.db.query(
      `SELECT knowledge_base_id, kind, (array_agg(id ORDER BY created_at DESC, id DESC))[1] AS task_id, max(finished_at) FILTER (WHERE status = $2) AS finished_at
         FROM kb_task WHERE knowledge_base_id = ANY($1) GROUP BY knowledge_base_id, kind`,
      [knowledgeBaseIds, KbTaskStatus.DONE],
    );
    for (const row of rows) refs.get(row.knowledge_base_id)![row.kind] = { taskId: row.task_id, finishedAt: row.finished_at && new Date(row.finished_at) };
    return refs;
  }

  async latestOfKind(principal: SignedIn, knowledgeBaseId: string, kind: KbTaskKind): Promise<KbTask | null> {
    return (await this.latest(principal, knowledgeBaseId)).find((t) => t.kind === kind) ?? null;
  }

  /** Removes the knowledge base's graph (RAGFlow's DELETE …/knowledge_graph). */
  async deleteGraph(principal: SignedIn, knowledgeBaseId: string): Promise<void> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    await deleteGraph(this.platform.db.manager, kb.id);
  }

  /**
   * After a restart of the embedded mode the in-process queue is empty: unfinished tasks are queued again
   * (with Redis a job still queued or running keeps its id, so queueing it again does nothing).
   */
  async resumeInterrupted(): Promise<number> {
    const unfinished = await this.repository.createQueryBuilder("t").where("t.status IN (:...active)", { active: ACTIVE_STATUSES }).getMany();
    for (const task of unfinished) await this.platform.queue.enqueue(KB_TASK_JOB, { taskId: task.id }, { jobId: `kb-task-${task.id}` });
    return unfinished.length;
  }
}
