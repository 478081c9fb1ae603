import { Queue, Worker, type Job } from "bullmq";
import Redis from "ioredis";
import { newId } from "./ids";

export interface JobRun {
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
}

/**
 * One kind of background job, self-described: its name, how often a failure is retried and how long
 * to wait before the first retry (doubled at each further one). `C` is what the job works with (the services).
 */
export interface JobDefinition<C, P = never> {
  name: string;
  attempts: number;
  backoffMs: number;
  run(payload: P, context: C, run: JobRun): Promise<void>;
  /** Called once the last attempt failed, to leave the work in a state a user can see and act on. */
  onFinalFailure?(payload: P, context: C, error: Error): Promise<void>;
}

export interface JobQueue<C> {
  readonly description: string;
  /** Queues a job; a job id that is already queued or running is not queued twice. */
  enqueue(name: string, payload: unknown, options?: { jobId?: string }): Promise<string>;
  /**
   * The place in line (1 = next to start) of each of these jobs that is waiting for a worker; a job that
   * is running, waiting to be retried, finished or unknown has none. Every kind of job counts: all share the line.
   */
  waitingPositions(jobIds: string[]): Promise<Map<string, number>>;
  /** Starts running jobs in this process; with concurrency 0 the process only enqueues. */
  start(context: C, concurrency: number): void;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition<C> = JobDefinition<C, any>;

function definitionsByName<C>(definitions: AnyDefinition<C>[]): Map<string, AnyDefinition<C>> {
  return new Map(definitions.map((d) => [d.name, d]));
}

function unknownJob(name: string): Error {
  return new Error(`Unknown job "${name}"`);
}

function logFailure(name: string, jobId: string, attempt: number, error: unknown): void {
  console.error(`[jobs] ${name} ${jobId} failed on attempt ${attempt}:`, error instanceof Error ? error.message : error);
}

interface QueuedJob {
  id: string;
  name: string;
  payload: unknown;
  attempt: number;
}

/** The embedded queue: jobs run in this process, with the same retry and back-off rules as the Redis queue. */
export class InProcessQueue<C> implements JobQueue<C> {
  readonly description = "in-process";
  private readonly definitions: Map<string, AnyDefinition<C>>;
  private readonly pending: QueuedJob[] = [];
  private readonly active = new Set<string>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private context?: C;
  private concurrency = 0;
  private closed = false;

  constructor(definitions: AnyDefinition<C>[]) {
    this.definitions = definitionsByName(definitions);
  }

  async enqueue(name: string, payload: unknown, options: { jobId?: string } = {}): Promise<string> {
    if (!this.definitions.has(name)) throw unknownJob(name);
    if (this.closed) throw new Error("The job queue is closed");
    const id = options.jobId ?? newId();
    if (!this.active.has(id)) {
      this.active.add(id);
      this.pending.push({ id, name, payload, attempt: 1 });
      this.pump();
    }
    return id;
  }

  async waitingPositions(jobIds: string[]): Promise<Map<string, number>> {
    const wanted = new Set(jobIds);
    const positions = new Map<string, number>();
    this.pending.forEach((job, index) => {
      if (wanted.has(job.id)) positions.set(job.id, index + 1);
    });
    return positions;
  }

  start(context: C, concurrency: number): void {
    this.context = context;
    this.concurrency = concurrency;
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.context !== undefined && this.running.size < this.concurrency && this.pending.length > 0) {
      const job = this.pending.shift()!;
      const execution = this.execute(job, this.context).finally(() => {
        this.running.delete(execution);
        this.pump();
      });
      this.running.add(execution);
    }
  }

  private async execute(job: QueuedJob, context: C): Promise<void> {
    const definition = this.definitions.get(job.name)!;
    try {
      await definition.run(job.payload as never, context, { jobId: job.id, attempt: job.attempt });
      this.active.delete(job.id);
    } catch (error) {
      logFailure(job.name, job.id, job.attempt, error);
      if (job.attempt < definition.attempts && !this.closed) {
        const timer = setTimeout(() => {
          this.retryTimers.delete(timer);
          this.pending.push({ ...job, attempt: job.attempt + 1 });
          this.pump();
        }, definition.backoffMs * 2 ** (job.attempt - 1));
        this.retryTimers.add(timer);
      } else {
        this.active.delete(job.id);
        await definition.onFinalFailure?.(job.payload as never, context, asError(error)).catch((e) => logFailure(job.name, job.id, job.attempt, e));
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    await Promise.allSettled([...this.running]);
  }
}

const QUEUE_NAME = "cairn-jobs";

/** Jobs in Redis through BullMQ: any number of server and `npm run worker` processes share them. */
export class RedisQueue<C> implements JobQueue<C> {
  readonly description: string;
  private readonly definitions: Map<string, AnyDefinition<C>>;
  private readonly connection: Redis;
  private readonly queue: Queue;
  private worker?: Worker;
  /** BullMQ never closes a connection it was handed, so close() must. */
  private workerConnection?: Redis;

  constructor(redisUrl: string, definitions: AnyDefinition<C>[]) {
    this.definitions = definitionsByName(definitions);
    // BullMQ needs blocking commands that never give up, hence maxRetriesPerRequest: null.
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection });
    const { hostname, port } = new URL(redisUrl);
    this.description = `Redis (${hostname}:${port || 6379})`;
  }

  async enqueue(name: string, payload: unknown, options: { jobId?: string } = {}): Promise<string> {
    const definition = this.definitions.get(name);
    if (!definition) throw unknownJob(name);
    const job = await this.queue.add(name, payload, {
      jobId: options.jobId ?? newId(),
      attempts: definition.attempts,
      backoff: { type: "exponential", delay: definition.backoffMs },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    });
    return job.id!;
  }

  async waitingPositions(jobIds: string[]): Promise<Map<string, number>> {
    const positions = new Map<string, number>();
    if (jobIds.length === 0) return positions;
    // BullMQ pushes a new job at the head of its wait list and workers take the tail (RPOPLPUSH), so a job's
    // place is its distance from the tail. One MULTI reads the length and every index from the same list.
    const batch = this.connection.multi().llen(this.queue.keys.wait);
    for (const id of jobIds) batch.lpos(this.queue.keys.wait, id);
    const answers = (await batch.exec()) ?? [];
    const length = Number(answers[0]?.[1] ?? 0);
    jobIds.forEach((id, i) => {
      const index = answers[i + 1]?.[1];
      if (typeof index === "number") positions.set(id, length - index);
    });
    return positions;
  }

  start(context: C, concurrency: number): void {
    if (concurrency === 0 || this.worker) return;
    this.workerConnection = this.connection.duplicate();
    this.worker = new Worker(
      QUEUE_NAME,
      async (job: Job) => {
        const definition = this.definitions.get(job.name);
        if (!definition) throw unknownJob(job.name);
        await definition.run(job.data as never, context, { jobId: job.id!, attempt: job.attemptsMade + 1 });
      },
      // A worker that dies mid-job loses its lock after 15 s and the job runs again elsewhere (BullMQ's
      // default is 30 s); the lock is renewed every 7.5 s, which a job's awaits leave room for.
      { connection: this.workerConnection, concurrency, lockDuration: 15_000, stalledInterval: 5_000 },
    );
    this.worker.on("failed", (job, error) => {
      if (!job) return;
      logFailure(job.name, job.id!, job.attemptsMade, error);
      const definition = this.definitions.get(job.name);
      // finishedOn is set once BullMQ gives up: after the last attempt, but also earlier for a job that stalled
      // twice (its worker died twice: "job stalled more than allowable limit") with attempts left.
      if (definition?.onFinalFailure && job.finishedOn !== undefined) {
        definition.onFinalFailure(job.data as never, context, error).catch((e) => logFailure(job.name, job.id!, job.attemptsMade, e));
      }
    });
    this.worker.on("error", (error) => console.error("[jobs] worker error:", error.message));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.connection.disconnect();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
