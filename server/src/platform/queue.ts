import { Queue, Worker, type Job } from "bullmq";
import Redis from "ioredis";
import { newId } from "./ids";

export interface JobRun {
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
}

/**
 * Which line a job waits in. Each lane has its own waiting line and its own number of slots, so that work a person
 * is watching (a flow's turn) never waits behind a pile of parse jobs.
 */
export type JobLane = "background" | "interactive";

const JOB_LANES: readonly JobLane[] = ["background", "interactive"];

/** How many jobs of each lane a process runs at once; 0 leaves that lane's jobs to other processes. */
export type LaneConcurrency = Record<JobLane, number>;

/**
 * One kind of job, self-described: its name, its lane (background unless said), how often a failure is retried
 * and how long to wait before the first retry (doubled at each further one). `C` is what the job works with (the services).
 */
export interface JobDefinition<C, P = never> {
  name: string;
  lane?: JobLane;
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
   * is running, waiting to be retried, finished or unknown has none. Places count within the job's own lane: every
   * kind of job of that lane shares its line.
   */
  waitingPositions(jobIds: string[]): Promise<Map<string, number>>;
  /** Starts running jobs in this process, up to each lane's concurrency; a lane at 0 is only enqueued to. */
  start(context: C, concurrency: LaneConcurrency): void;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition<C> = JobDefinition<C, any>;

function definitionsByName<C>(definitions: AnyDefinition<C>[]): Map<string, AnyDefinition<C>> {
  return new Map(definitions.map((d) => [d.name, d]));
}

function laneOf(definition: AnyDefinition<unknown>): JobLane {
  return definition.lane ?? "background";
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

/** The embedded queue: jobs run in this process, with the same lanes, retry and back-off rules as the Redis queue. */
export class InProcessQueue<C> implements JobQueue<C> {
  readonly description = "in-process";
  private readonly definitions: Map<string, AnyDefinition<C>>;
  private readonly pending: Record<JobLane, QueuedJob[]> = { background: [], interactive: [] };
  private readonly running: Record<JobLane, Set<Promise<void>>> = { background: new Set(), interactive: new Set() };
  private readonly active = new Set<string>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private context?: C;
  private concurrency: LaneConcurrency = { background: 0, interactive: 0 };
  private closed = false;

  constructor(definitions: AnyDefinition<C>[]) {
    this.definitions = definitionsByName(definitions);
  }

  async enqueue(name: string, payload: unknown, options: { jobId?: string } = {}): Promise<string> {
    const definition = this.definitions.get(name);
    if (!definition) throw unknownJob(name);
    if (this.closed) throw new Error("The job queue is closed");
    const id = options.jobId ?? newId();
    if (!this.active.has(id)) {
      const lane = laneOf(definition);
      this.active.add(id);
      this.pending[lane].push({ id, name, payload, attempt: 1 });
      this.pump(lane);
    }
    return id;
  }

  async waitingPositions(jobIds: string[]): Promise<Map<string, number>> {
    const wanted = new Set(jobIds);
    const positions = new Map<string, number>();
    for (const lane of JOB_LANES) {
      this.pending[lane].forEach((job, index) => {
        if (wanted.has(job.id)) positions.set(job.id, index + 1);
      });
    }
    return positions;
  }

  start(context: C, concurrency: LaneConcurrency): void {
    this.context = context;
    this.concurrency = { ...concurrency };
    for (const lane of JOB_LANES) this.pump(lane);
  }

  private pump(lane: JobLane): void {
    const pending = this.pending[lane];
    const running = this.running[lane];
    while (!this.closed && this.context !== undefined && running.size < this.concurrency[lane] && pending.length > 0) {
      const job = pending.shift()!;
      const execution = this.execute(job, lane, this.context).finally(() => {
        running.delete(execution);
        this.pump(lane);
      });
      running.add(execution);
    }
  }

  private async execute(job: QueuedJob, lane: JobLane, context: C): Promise<void> {
    const definition = this.definitions.get(job.name)!;
    try {
      await definition.run(job.payload as never, context, { jobId: job.id, attempt: job.attempt });
      this.active.delete(job.id);
    } catch (error) {
      logFailure(job.name, job.id, job.attempt, error);
      if (job.attempt < definition.attempts && !this.closed) {
        const timer = setTimeout(() => {
          this.retryTimers.delete(timer);
          this.pending[lane].push({ ...job, attempt: job.attempt + 1 });
          this.pump(lane);
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
    await Promise.allSettled(JOB_LANES.flatMap((lane) => [...this.running[lane]]));
  }
}

/** BullMQ's queue of each lane. Background keeps the name it had before lanes, so that jobs already queued in a deployment are not lost. */
const QUEUE_NAMES: Record<JobLane, string> = { background: "cairn-jobs", interactive: "cairn-interactive" };

/** Jobs in Redis through BullMQ, one queue per lane: any number of server and `npm run worker` processes share them. */
export class RedisQueue<C> implements JobQueue<C> {
  readonly description: string;
  private readonly definitions: Map<string, AnyDefinition<C>>;
  private readonly connection: Redis;
  private readonly queues: Record<JobLane, Queue>;
  private readonly workers = new Map<JobLane, Worker>();
  /** BullMQ never closes a connection it was handed, so close() must. */
  private readonly workerConnections: Redis[] = [];

  constructor(redisUrl: string, definitions: AnyDefinition<C>[]) {
    this.definitions = definitionsByName(definitions);
    // BullMQ needs blocking commands that never give up, hence maxRetriesPerRequest: null.
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.queues = {
      background: new Queue(QUEUE_NAMES.background, { connection: this.connection }),
      interactive: new Queue(QUEUE_NAMES.interactive, { connection: this.connection }),
    };
    const { hostname, port } = new URL(redisUrl);
    this.description = `Redis (${hostname}:${port || 6379})`;
  }

  async enqueue(name: string, payload: unknown, options: { jobId?: string } = {}): Promise<string> {
    const definition = this.definitions.get(name);
    if (!definition) throw unknownJob(name);
    const job = await this.queues[laneOf(definition)].add(name, payload, {
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
    // place is its distance from the tail. One MULTI reads each lane's length and every index from the same lists;
    // a job id is in one lane's list at most.
    const batch = this.connection.multi();
    for (const lane of JOB_LANES) {
      const wait = this.queues[lane].keys.wait;
      batch.llen(wait);
      for (const id of jobIds) batch.lpos(wait, id);
    }
    const answers = (await batch.exec()) ?? [];
    JOB_LANES.forEach((_lane, l) => {
      const offset = l * (jobIds.length + 1);
      const length = Number(answers[offset]?.[1] ?? 0);
      jobIds.forEach((id, i) => {
        const index = answers[offset + i + 1]?.[1];
        if (typeof index === "number") positions.set(id, length - index);
      });
    });
    return positions;
  }

  start(context: C, concurrency: LaneConcurrency): void {
    for (const lane of JOB_LANES) {
      if (concurrency[lane] > 0 && !this.workers.has(lane)) this.workers.set(lane, this.startWorker(lane, context, concurrency[lane]));
    }
  }

  private startWorker(lane: JobLane, context: C, concurrency: number): Worker {
    const connection = this.connection.duplicate();
    this.workerConnections.push(connection);
    const worker = new Worker(
      QUEUE_NAMES[lane],
      async (job: Job) => {
        const definition = this.definitions.get(job.name);
        if (!definition) throw unknownJob(job.name);
        await definition.run(job.data as never, context, { jobId: job.id!, attempt: job.attemptsMade + 1 });
      },
      // A worker that dies mid-job loses its lock after 15 s and the job runs again elsewhere (BullMQ's
      // default is 30 s); the lock is renewed every 7.5 s, which a job's awaits leave room for.
      { connection, concurrency, lockDuration: 15_000, stalledInterval: 5_000 },
    );
    worker.on("failed", (job, error) => {
      if (!job) return;
      logFailure(job.name, job.id!, job.attemptsMade, error);
      const definition = this.definitions.get(job.name);
      // finishedOn is set once BullMQ gives up: after the last attempt, but also earlier for a job that stalled
      // twice (its worker died twice: "job stalled more than allowable limit") with attempts left.
      if (definition?.onFinalFailure && job.finishedOn !== undefined) {
        definition.onFinalFailure(job.data as never, context, error).catch((e) => logFailure(job.name, job.id!, job.attemptsMade, e));
      }
    });
    worker.on("error", (error) => console.error(`[jobs] ${lane} worker error:`, error.message));
    return worker;
  }

  async close(): Promise<void> {
    // A connection handed to BullMQ is checked (its Redis version read) after it connects; BullMQ stops listening
    // to it on close, so disconnecting it while that check is under way, just after a start, would throw the
    // check's "Connection is closed" from an emitter nobody listens to. Let every check finish first.
    const opened = [...this.workers.values(), ...JOB_LANES.map((lane) => this.queues[lane])];
    await Promise.all(opened.map((client) => client.waitUntilReady().catch(() => undefined)));
    await Promise.all([...this.workers.values()].map((worker) => worker.close()));
    await Promise.all(JOB_LANES.map((lane) => this.queues[lane].close()));
    for (const connection of this.workerConnections) connection.disconnect();
    this.connection.disconnect();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
