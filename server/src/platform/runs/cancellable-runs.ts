import type { PubSub } from "../pubsub";

/**
 * Long-running work that any process may cancel: a document's parse, a chat answer, (next) an agent
 * flow's run. The process doing the work starts a run with an id and hands its `signal` to the work;
 * a cancel for that id, taken by any process, is published on the run kind's topic (in-process, or Redis
 * so that it reaches every server and worker) and aborts the signal of the process running it. Ending
 * the run forgets it. A cancel for a run that is not (or no longer) running anywhere does nothing, so
 * work that must also stop when it is cancelled before it starts rechecks its own stored state.
 *
 *   const runs = CancellableRuns.on(platform.pubsub, "knowledge.parse.cancel");
 *   await runs.run(documentId, (signal) => parse(document, signal));   // in the worker
 *   runs.cancel(documentId);                                          // in any process
 */

/** The reason a cancelled run's signal carries (`signal.reason`). */
export class RunCancelled extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} was cancelled`);
    this.name = "AbortError";
  }
}

export interface Run {
  readonly id: string;
  /** Fires when a cancel for this id is published by any process, or `cancel()` is called here. */
  readonly signal: AbortSignal;
  /** Settles when the run ended (`end()`). */
  readonly ended: Promise<void>;
  /** Aborts this run here (e.g. its stored state shows someone else closed it); others are not told. */
  abort(): void;
  /** The run is over: it no longer answers cancels. */
  end(): void;
}

interface CancelMessage {
  runId: string;
}

export class CancellableRuns {
  private static readonly registries = new WeakMap<PubSub, Map<string, CancellableRuns>>();

  /** The one registry of a kind of run on this pub/sub (so the worker's jobs and the services share it). */
  static on(pubsub: PubSub, topic: string): CancellableRuns {
    let byTopic = CancellableRuns.registries.get(pubsub);
    if (!byTopic) CancellableRuns.registries.set(pubsub, (byTopic = new Map()));
    let runs = byTopic.get(topic);
    if (!runs) byTopic.set(topic, (runs = new CancellableRuns(pubsub, topic)));
    return runs;
  }

  /** The runs of this process by id (a document parsed again while its last job winds down has two). */
  private readonly running = new Map<string, Set<Run>>();
  private listening: AsyncIterator<unknown> | null = null;

  constructor(
    private readonly pubsub: PubSub,
    /** The topic cancels of this kind of run travel on. */
    readonly topic: string,
  ) {}

  /** Starts a run here. */
  start(id: string): Run {
    this.listen();
    const controller = new AbortController();
    let settle!: () => void;
    const ended = new Promise<void>((resolve) => (settle = resolve));
    const run: Run = {
      id,
      signal: controller.signal,
      ended,
      abort: () => controller.abort(new RunCancelled(id)),
      end: () => {
        const runs = this.running.get(id);
        runs?.delete(run);
        if (runs?.size === 0) this.running.delete(id);
        settle();
      },
    };
    const runs = this.running.get(id) ?? new Set<Run>();
    this.running.set(id, runs.add(run));
    return run;
  }

  /** Runs `work` as the run `id`, ending it however the work ends. */
  async run<T>(id: string, work: (signal: AbortSignal, run: Run) => Promise<T>): Promise<T> {
    const run = this.start(id);
    try {
      return await work(run.signal, run);
    } finally {
      run.end();
    }
  }

  /** The latest run `id` started in this process, if it still runs. */
  get(id: string): Run | undefined {
    return [...(this.running.get(id) ?? [])].at(-1);
  }

  /** Cancels the run `id` wherever it runs: at once here, through the topic elsewhere. */
  cancel(id: string): void {
    this.abortHere(id);
    this.pubsub.publish(this.topic, { runId: id } satisfies CancelMessage);
  }

  /** Aborts every run of this process and waits until each has ended (shutdown). */
  async cancelAll(): Promise<void> {
    const runs = [...this.running.values()].flatMap((set) => [...set]);
    for (const run of runs) run.abort();
    await Promise.all(runs.map((run) => run.ended));
  }

  /** Stops listening for cancels (the pub/sub is closing). */
  async close(): Promise<void> {
    const iterator = this.listening;
    this.listening = null;
    await iterator?.return?.().catch(() => undefined);
  }

  private abortHere(id: string): void {
    for (const run of this.running.get(id) ?? []) run.abort();
  }

  private listen(): void {
    if (this.listening) return;
    const iterator = this.pubsub.subscribe(this.topic)[Symbol.asyncIterator]();
    this.listening = iterator;
    void (async () => {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done || this.listening !== iterator) break;
          this.abortHere((next.value as CancelMessage).runId);
        }
      } catch {
        // the pub/sub closed
      }
      if (this.listening === iterator) this.listening = null;
    })();
  }
}
