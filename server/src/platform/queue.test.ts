import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Redis from "ioredis";
import type { Services } from "./services";
import { ECHO_TOPIC, echoJob, type EchoResult } from "../system/echo.job";
import { spawnTs, type TsProcess } from "../testing/processes";
import { startPostgres, type TestPostgres } from "../testing/postgres";
import { listen, untilListening, type Listener } from "../testing/pubsub";
import { startRedis, type TestRedis } from "../testing/redis";
import { createMemoryPubSub, createRedisPubSub, type PubSub } from "./pubsub";
import { InProcessQueue, RedisQueue, type JobDefinition, type JobLane, type JobQueue, type JobRun } from "./queue";

interface Run {
  name: string;
  payload: unknown;
  jobId: string;
  attempt: number;
  at: number;
}

/** Purpose-made jobs that write down every attempt, so a test sees exactly what the queue did. */
function testJobs() {
  const runs: Run[] = [];
  const finalFailures: { payload: unknown; error: Error }[] = [];
  const gates = new Map<string, { release(): void; opened: Promise<void> }>();
  const changed = new Set<() => void>();
  /** Jobs of each lane running right now, and the most that ever ran at once. */
  const runningNow: Record<JobLane, number> = { background: 0, interactive: 0 };
  const mostAtOnce: Record<JobLane, number> = { background: 0, interactive: 0 };
  const record = (name: string, payload: unknown, run: JobRun) => {
    runs.push({ name, payload, jobId: run.jobId, attempt: run.attempt, at: Date.now() });
    for (const listener of changed) listener();
  };

  /** Runs once; if its payload names a gate, it stays running until the gate is released. */
  const recordJobOf = (name: string, lane: JobLane): JobDefinition<Services, { label: string; gate?: string }> => ({
    name,
    lane,
    attempts: 1,
    backoffMs: 10,
    async run(payload, _context, run) {
      runningNow[lane] += 1;
      mostAtOnce[lane] = Math.max(mostAtOnce[lane], runningNow[lane]);
      try {
        record(name, payload, run);
        if (payload.gate) await gates.get(payload.gate)!.opened;
      } finally {
        runningNow[lane] -= 1;
      }
    },
  });
  /** Fails until the attempt named in its payload, then succeeds. */
  const flakyJob: JobDefinition<Services, { succeedOn: number }> = {
    name: "test.flaky",
    attempts: 3,
    backoffMs: 100,
    async run(payload, _context, run) {
      record("test.flaky", payload, run);
      if (run.attempt < payload.succeedOn) throw new Error(`flaky on attempt ${run.attempt}`);
    },
  };
  /** Always fails. */
  const brokenJobOf = (name: string, lane: JobLane): JobDefinition<Services, { label: string }> => ({
    name,
    lane,
    attempts: 3,
    backoffMs: 20,
    async run(payload, _context, run) {
      record(name, payload, run);
      throw new Error(`broken on attempt ${run.attempt}`);
    },
    async onFinalFailure(payload, _context, error) {
      finalFailures.push({ payload, error });
      for (const listener of changed) listener();
    },
  });

  return {
    definitions: [
      echoJob,
      recordJobOf("test.record", "background"),
      flakyJob,
      brokenJobOf("test.broken", "background"),
      recordJobOf("test.interactive", "interactive"),
      brokenJobOf("test.interactive.broken", "interactive"),
    ],
    runs,
    finalFailures,
    mostAtOnce,
    runsOf: (name: string) => runs.filter((r) => r.name === name),
    gate(name: string) {
      let release!: () => void;
      const opened = new Promise<void>((resolve) => (release = resolve));
      gates.set(name, { release, opened });
      return release;
    },
    /** Lets every gated job finish, so that a failed test's queue can still close. */
    releaseAll() {
      for (const gate of gates.values()) gate.release();
    },
    /** Resolves once `condition` holds, checked after every attempt and final failure. */
    until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!condition()) return;
          clearTimeout(timer);
          changed.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          changed.delete(check);
          reject(new Error(`timed out waiting for ${what}; runs so far: ${JSON.stringify(runs)}`));
        }, timeoutMs);
        changed.add(check);
        check();
      });
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the echo job needs from the services: the pub/sub port. */
function echoContext(pubsub: PubSub): Services {
  return { platform: { pubsub } } as unknown as Services;
}

interface Implementation {
  name: string;
  setup(): Promise<void>;
  /** Removes whatever a test left behind, so the next one starts from an empty queue. */
  reset(): Promise<void>;
  teardown(): Promise<void>;
  create(definitions: JobDefinition<Services, never>[]): JobQueue<Services>;
}

let redis: TestRedis | undefined;
let redisAdmin: Redis | undefined;

const inProcess: Implementation = {
  name: "in-process queue",
  setup: async () => undefined,
  reset: async () => undefined,
  teardown: async () => undefined,
  create: (definitions) => new InProcessQueue(definitions),
};

const bullmq: Implementation = {
  name: "Redis queue (BullMQ)",
  setup: async () => {
    redis ??= await startRedis();
    redisAdmin ??= new Redis(redis.url);
  },
  reset: async () => {
    await redisAdmin!.flushall();
  },
  teardown: async () => undefined,
  create: (definitions) => new RedisQueue(redis!.url, definitions),
};

afterAll(async () => {
  redisAdmin?.disconnect();
  await redis?.stop();
});

describe.each([inProcess, bullmq])("$name", (implementation) => {
  let queues: JobQueue<Services>[] = [];
  let pubsub: PubSub;
  let echoes: Listener;
  let jobs: ReturnType<typeof testJobs>;
  let errorLog: jest.SpyInstance;

  const open = () => {
    const queue = implementation.create(jobs.definitions as JobDefinition<Services, never>[]);
    queues.push(queue);
    return queue;
  };

  beforeAll(() => implementation.setup());
  afterAll(() => implementation.teardown());
  beforeEach(async () => {
    jobs = testJobs();
    pubsub = createMemoryPubSub();
    echoes = listen(pubsub, ECHO_TOPIC);
    await untilListening(pubsub, ECHO_TOPIC, [echoes]);
    // Failed attempts are logged on purpose; keep them out of the test output but count them.
    errorLog = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(async () => {
    jobs.releaseAll();
    await Promise.all(queues.map((q) => q.close()));
    queues = [];
    await echoes.close();
    await pubsub.close();
    await implementation.reset();
    errorLog.mockRestore();
  });

  test("a queued job runs and its result is seen (the echo job publishes it)", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 2, interactive: 2 });

    const jobId = await queue.enqueue("system.echo", { message: "hello" });

    const [result] = (await echoes.waitFor(1)) as EchoResult[];
    expect(result).toEqual({ jobId, attempt: 1, message: "hello", pid: process.pid });
  });

  test("a job whose attempts fail is retried with growing back-off and succeeds on a later attempt", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 2, interactive: 2 });

    const echoId = await queue.enqueue("system.echo", { message: "third time lucky", failAttempts: 2 });
    const flakyId = await queue.enqueue("test.flaky", { succeedOn: 3 });

    const [echo] = (await echoes.waitFor(1)) as EchoResult[];
    expect(echo).toMatchObject({ jobId: echoId, attempt: 3, message: "third time lucky" });

    await jobs.until(() => jobs.runsOf("test.flaky").length === 3, "three attempts of test.flaky");
    const flaky = jobs.runsOf("test.flaky");
    expect(flaky.map((r) => [r.jobId, r.attempt])).toEqual([[flakyId, 1], [flakyId, 2], [flakyId, 3]]);
    // backoffMs is 100: the first retry waits at least 100 ms, the second at least 200 ms (a few ms of timer slack allowed).
    expect(flaky[1].at - flaky[0].at).toBeGreaterThanOrEqual(95);
    expect(flaky[2].at - flaky[1].at).toBeGreaterThanOrEqual(195);
  });

  test("a job that always fails is tried `attempts` times and then reported as failed exactly once", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 2, interactive: 2 });

    const jobId = await queue.enqueue("test.broken", { label: "doomed" });

    await jobs.until(() => jobs.finalFailures.length === 1, "the final failure");
    // Longer than any back-off of test.broken (20 ms, 40 ms): a further attempt or report would show by now.
    await sleep(250);
    expect(jobs.runsOf("test.broken").map((r) => [r.jobId, r.attempt])).toEqual([[jobId, 1], [jobId, 2], [jobId, 3]]);
    expect(jobs.finalFailures).toHaveLength(1);
    expect(jobs.finalFailures[0].payload).toEqual({ label: "doomed" });
    expect(jobs.finalFailures[0].error.message).toBe("broken on attempt 3");
    expect(errorLog.mock.calls.filter(([line]) => String(line).includes("test.broken"))).toHaveLength(3);
  });

  test("a job id that is already queued is not queued a second time", async () => {
    const queue = open();

    const first = await queue.enqueue("test.record", { label: "first" }, { jobId: "parse-doc-1" });
    const second = await queue.enqueue("test.record", { label: "second" }, { jobId: "parse-doc-1" });
    await queue.enqueue("test.record", { label: "after" }, { jobId: "sentinel" });
    queue.start(echoContext(pubsub), { background: 1, interactive: 1 });

    // One at a time, first in first out: a duplicate would have run before the sentinel.
    await jobs.until(() => jobs.runs.some((r) => r.jobId === "sentinel"), "the sentinel job");
    expect([first, second]).toEqual(["parse-doc-1", "parse-doc-1"]);
    expect(jobs.runs.map((r) => [r.jobId, r.payload])).toEqual([
      ["parse-doc-1", { label: "first" }],
      ["sentinel", { label: "after" }],
    ]);
  });

  test("a job id that is running is not queued a second time", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 1, interactive: 1 });
    const release = jobs.gate("slow");

    await queue.enqueue("test.record", { label: "running", gate: "slow" }, { jobId: "parse-doc-2" });
    await jobs.until(() => jobs.runs.length === 1, "the job to start");
    await queue.enqueue("test.record", { label: "again" }, { jobId: "parse-doc-2" });
    await queue.enqueue("test.record", { label: "after" }, { jobId: "sentinel" });
    release();

    await jobs.until(() => jobs.runs.some((r) => r.jobId === "sentinel"), "the sentinel job");
    expect(jobs.runs.map((r) => [r.jobId, r.payload])).toEqual([
      ["parse-doc-2", { label: "running", gate: "slow" }],
      ["sentinel", { label: "after" }],
    ]);
  });

  test("with concurrency 0 a process only enqueues; the job runs once a process takes jobs", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 0, interactive: 0 });

    const jobId = await queue.enqueue("test.record", { label: "waiting" });
    await sleep(300);
    expect(jobs.runs).toEqual([]);

    queue.start(echoContext(pubsub), { background: 1, interactive: 1 });
    await jobs.until(() => jobs.runs.length === 1, "the job to run");
    expect(jobs.runs[0]).toMatchObject({ jobId, attempt: 1, payload: { label: "waiting" } });
  });

  test("a waiting job knows its place in line, and moves up as the jobs ahead of it start", async () => {
    const queue = open();
    queue.start(echoContext(pubsub), { background: 1, interactive: 1 });
    const releaseFirst = jobs.gate("first");
    const releaseSecond = jobs.gate("second");
    await queue.enqueue("test.record", { label: "running", gate: "first" }, { jobId: "running" });
    await jobs.until(() => jobs.runs.length === 1, "the first job to start");
    for (const id of ["a", "b", "c"]) await queue.enqueue("test.record", { label: id, gate: id === "a" ? "second" : undefined }, { jobId: id });

    const everyone = ["running", "a", "b", "c", "unknown"];
    expect(Object.fromEntries(await queue.waitingPositions(everyone))).toEqual({ a: 1, b: 2, c: 3 });

    releaseFirst();
    await jobs.until(() => jobs.runs.some((r) => r.jobId === "a"), "a to start");
    expect(Object.fromEntries(await queue.waitingPositions(everyone))).toEqual({ b: 1, c: 2 });
    expect(await queue.waitingPositions([])).toEqual(new Map());
    releaseSecond();
    await jobs.until(() => jobs.runs.length === 4, "every job to run");
    expect(await queue.waitingPositions(everyone)).toEqual(new Map());
  });

  test("a job name nobody defined is refused at enqueue", async () => {
    const queue = open();
    await expect(queue.enqueue("no.such.job", {})).rejects.toThrow('Unknown job "no.such.job"');
  });


  describe("lanes", () => {
    /** Two background jobs that hold both background slots until `release` is called. */
    async function fillBackground(queue: JobQueue<Services>) {
      const release = jobs.gate("background");
      for (const id of ["busy-1", "busy-2"]) await queue.enqueue("test.record", { label: id, gate: "background" }, { jobId: id });
      await jobs.until(() => jobs.runsOf("test.record").length === 2, "both background slots to be taken");
      return release;
    }

    test("an interactive job starts while every background slot is busy, and background jobs keep waiting", async () => {
      const queue = open();
      queue.start(echoContext(pubsub), { background: 2, interactive: 1 });
      const release = await fillBackground(queue);
      await queue.enqueue("test.record", { label: "parse me later" }, { jobId: "waiting-parse" });

      await queue.enqueue("test.interactive", { label: "answer me now" }, { jobId: "turn" });

      await jobs.until(() => jobs.runsOf("test.interactive").length === 1, "the interactive job to run");
      expect(Object.fromEntries(await queue.waitingPositions(["busy-1", "busy-2", "waiting-parse", "turn"]))).toEqual({ "waiting-parse": 1 });
      expect(jobs.runsOf("test.record").map((r) => r.jobId)).toEqual(["busy-1", "busy-2"]);
      release();
      await jobs.until(() => jobs.runs.some((r) => r.jobId === "waiting-parse"), "the background job to run once a slot frees");
    });

    test("each lane runs at most its own concurrency at once", async () => {
      const queue = open();
      queue.start(echoContext(pubsub), { background: 1, interactive: 2 });
      const releaseBackground = jobs.gate("background");
      const releaseInteractive = jobs.gate("interactive");
      for (const id of ["b1", "b2"]) await queue.enqueue("test.record", { label: id, gate: "background" }, { jobId: id });
      for (const id of ["i1", "i2", "i3"]) await queue.enqueue("test.interactive", { label: id, gate: "interactive" }, { jobId: id });

      await jobs.until(() => jobs.runs.length === 3, "one background and two interactive jobs to start");
      // The others are still in their lane's line, so no worker took them: each lane is full.
      expect(Object.fromEntries(await queue.waitingPositions(["b1", "b2", "i1", "i2", "i3"]))).toEqual({ b2: 1, i3: 1 });
      expect(jobs.runs.map((r) => r.jobId).sort()).toEqual(["b1", "i1", "i2"]);

      releaseInteractive();
      releaseBackground();
      await jobs.until(() => jobs.runs.length === 5, "every job to run");
      expect(jobs.mostAtOnce).toEqual({ background: 1, interactive: 2 });
    });

    test("an interactive job is retried and reported as failed in its lane while the background lane is full", async () => {
      const queue = open();
      queue.start(echoContext(pubsub), { background: 2, interactive: 1 });
      const release = await fillBackground(queue);

      const jobId = await queue.enqueue("test.interactive.broken", { label: "doomed turn" });

      await jobs.until(() => jobs.finalFailures.length === 1, "the interactive job's final failure");
      expect(jobs.runsOf("test.interactive.broken").map((r) => [r.jobId, r.attempt])).toEqual([[jobId, 1], [jobId, 2], [jobId, 3]]);
      expect(jobs.finalFailures[0]).toMatchObject({ payload: { label: "doomed turn" }, error: { message: "broken on attempt 3" } });
      release();
    });

    test("a waiting job's place counts only the jobs of its own lane", async () => {
      const queue = open();
      queue.start(echoContext(pubsub), { background: 1, interactive: 1 });
      const release = jobs.gate("hold");
      await queue.enqueue("test.record", { label: "running", gate: "hold" }, { jobId: "b-running" });
      await queue.enqueue("test.interactive", { label: "running", gate: "hold" }, { jobId: "i-running" });
      await jobs.until(() => jobs.runs.length === 2, "one job of each lane to start");

      for (const id of ["b1", "i1", "b2", "i2", "b3"]) {
        await queue.enqueue(id.startsWith("b") ? "test.record" : "test.interactive", { label: id }, { jobId: id });
      }

      expect(Object.fromEntries(await queue.waitingPositions(["b1", "b2", "b3", "i1", "i2", "b-running"]))).toEqual({ b1: 1, b2: 2, b3: 3, i1: 1, i2: 2 });
      release();
      await jobs.until(() => jobs.runs.length === 7, "every job to run");
    });
  });

  if (implementation === bullmq) {
    test("background jobs stay in the BullMQ queue deployments already have, interactive ones have their own", async () => {
      const queue = open();
      await queue.enqueue("test.record", { label: "parse" }, { jobId: "a-parse" });
      await queue.enqueue("test.interactive", { label: "turn" }, { jobId: "a-turn" });

      expect(await redisAdmin!.lrange("bull:cairn-jobs:wait", 0, -1)).toEqual(["a-parse"]);
      expect(await redisAdmin!.lrange("bull:cairn-interactive:wait", 0, -1)).toEqual(["a-turn"]);
    });

    test("a closed queue leaves no connection to Redis open (so a process can exit)", async () => {
      const queue = open();
      queue.start(echoContext(pubsub), { background: 2, interactive: 2 });
      await queue.enqueue("system.echo", { message: "before closing" });
      await echoes.waitFor(1);

      await queue.close();

      await expect(otherRedisClients()).resolves.toEqual([]);
    });
  }
});

/** The connections Redis has besides the test's own admin one, once closed ones have gone (up to 2 s). */
async function otherRedisClients(): Promise<string[]> {
  const own = await redisAdmin!.client("ID");
  const deadline = Date.now() + 2_000;
  for (;;) {
    const list = (await redisAdmin!.client("LIST")) as string;
    const others = list.trim().split("\n").filter((line) => !line.startsWith(`id=${own} `));
    if (others.length === 0 || Date.now() > deadline) return others;
    await sleep(20);
  }
}

describe("a worker process", () => {
  let postgres: TestPostgres;
  let producer: RedisQueue<Services> | undefined;
  let server: PubSub | undefined;
  let echoes: Listener | undefined;
  let worker: TsProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    redis ??= await startRedis();
    postgres = await startPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-worker-"));
  });
  afterAll(async () => {
    await worker?.stop();
    await echoes?.close();
    await server?.close();
    await producer?.close();
    await postgres?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("runs a job a server process queued, and the server sees the result through Redis pub/sub", async () => {
    // The server side: enqueues only, and listens for results as a browser subscription would.
    server = createRedisPubSub(redis!.url);
    echoes = listen(server, ECHO_TOPIC);
    await untilListening(server, ECHO_TOPIC, [echoes]);
    producer = new RedisQueue<Services>(redis!.url, [echoJob]);
    producer.start(echoContext(server), { background: 0, interactive: 0 });

    // Queued before any worker exists: the job waits in Redis.
    const early = await producer.enqueue("system.echo", { message: "queued before the worker started" });

    worker = spawnTs("src/worker.ts", {
      REDIS_URL: redis!.url,
      DATABASE_URL: postgres.url,
      DATA_DIR: dataDir,
      JOB_CONCURRENCY: "1",
    });
    // It prints which implementation backs each port once it takes jobs; "jobs:" is the last line.
    await worker.waitForOutput(/jobs: .*\n/, 30_000);
    expect(worker.output()).toContain(`Cairn worker ${worker.pid} is running jobs`);
    expect(worker.output()).toContain("database: PostgreSQL (127.0.0.1:");
    expect(worker.output()).toContain("jobs: Redis (127.0.0.1:");

    const late = await producer.enqueue("system.echo", { message: "retried in the worker", failAttempts: 1 });

    const results = (await echoes.waitFor(2, 15_000)) as EchoResult[];
    expect(results).toEqual([
      { jobId: early, attempt: 1, message: "queued before the worker started", pid: worker.pid },
      { jobId: late, attempt: 2, message: "retried in the worker", pid: worker.pid },
    ]);
    expect(worker.pid).not.toBe(process.pid);

    // A worker stops cleanly on SIGTERM: it closes the queue, pub/sub and database and exits 0.
    expect(await worker.stop(10_000)).toEqual({ code: 0, signal: null });
  });
});
