import { startRedis, type TestRedis } from "../../testing/redis";
import { createMemoryPubSub, createRedisPubSub, type PubSub } from "../pubsub";
import { CancellableRuns, RunCancelled } from "./cancellable-runs";

/**
 * A run cancelled in one process stops in the process running it: two registries on two pub/sub clients
 * stand for two processes (one in-process pub/sub shared by both, or two Redis connections).
 */

const TOPIC = "test.runs.cancel";

/** Resolves when the signal fires. */
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));

/**
 * Cancels until the run's signal fires: what is published before another process's Redis SUBSCRIBE takes
 * effect is (correctly) not delivered, so the canceller repeats itself as a user would press stop again.
 */
async function cancelUntilAborted(canceller: CancellableRuns, id: string, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!signal.aborted) {
    if (Date.now() > deadline) throw new Error(`run ${id} was never cancelled`);
    canceller.cancel(id);
    await Promise.race([aborted(signal), new Promise((resolve) => setTimeout(resolve, 20))]);
  }
}

let redis: TestRedis | undefined;

const implementations: { name: string; setup(): Promise<void>; teardown(): Promise<void>; twoProcesses(): [PubSub, PubSub] }[] = [
  {
    name: "in-process pub/sub",
    setup: async () => undefined,
    teardown: async () => undefined,
    twoProcesses: () => {
      const shared = createMemoryPubSub();
      return [shared, shared];
    },
  },
  {
    name: "Redis pub/sub",
    setup: async () => {
      redis = await startRedis();
    },
    teardown: async () => {
      await redis?.stop();
    },
    twoProcesses: () => [createRedisPubSub(redis!.url), createRedisPubSub(redis!.url)],
  },
];

describe.each(implementations)("cancellable runs over $name", (implementation) => {
  let pubsubs: PubSub[] = [];
  let registries: CancellableRuns[] = [];

  beforeAll(() => implementation.setup(), 20_000);
  afterAll(() => implementation.teardown());
  afterEach(async () => {
    await Promise.all(registries.map((registry) => registry.close()));
    await Promise.all([...new Set(pubsubs)].map((pubsub) => pubsub.close()));
    pubsubs = [];
    registries = [];
  });

  function twoProcesses(): [CancellableRuns, CancellableRuns] {
    const [a, b] = implementation.twoProcesses();
    pubsubs.push(a, b);
    registries = [new CancellableRuns(a, TOPIC), new CancellableRuns(b, TOPIC)];
    return registries as [CancellableRuns, CancellableRuns];
  }

  it("a cancel published by another process aborts the run's signal, with a RunCancelled reason, and only that run", async () => {
    const [worker, server] = twoProcesses();
    const target = worker.start("doc-1");
    const other = worker.start("doc-2");
    await cancelUntilAborted(server, "doc-1", target.signal);
    expect(target.signal.reason).toBeInstanceOf(RunCancelled);
    expect((target.signal.reason as RunCancelled).runId).toBe("doc-1");
    expect(other.signal.aborted).toBe(false);
    target.end();
    other.end();
  });

  it("run() hands the work its signal and ends the run however the work ends: a later cancel finds nothing", async () => {
    const [worker, server] = twoProcesses();
    const outcome = worker.run("answer-1", async (signal) => {
      await aborted(signal);
      throw signal.reason;
    });
    const running = worker.get("answer-1");
    expect(running).toBeDefined();
    await cancelUntilAborted(server, "answer-1", running!.signal);
    await expect(outcome).rejects.toBeInstanceOf(RunCancelled);
    await running!.ended;
    expect(worker.get("answer-1")).toBeUndefined();

    // The same id again is a new run: the old cancel does not reach it.
    const again = worker.start("answer-1");
    expect(again.signal.aborted).toBe(false);
    again.end();
  });

  it("cancels at once in its own process, and cancelAll aborts and waits for every run here", async () => {
    const [worker] = twoProcesses();
    const first = worker.start("a");
    worker.cancel("a");
    expect(first.signal.aborted).toBe(true);
    first.end();

    const runs = [worker.start("b"), worker.start("c")];
    for (const run of runs) void aborted(run.signal).then(() => run.end());
    await worker.cancelAll();
    expect(runs.every((run) => run.signal.aborted)).toBe(true);
    expect(worker.get("b")).toBeUndefined();
  });
});
