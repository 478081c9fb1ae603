/**
 * A run's state (a parse's or a task's progress and log) as subscribers and the database see it. Every change is
 * published at once; the database is written now and then, because on the embedded database every write costs the
 * one thread that also does the work: at most once an interval, and the last change always, an interval after the
 * write before it at the latest. A page that opens mid-run, or a client polling the REST API, reads where the run
 * is, however long its next step takes.
 *
 * A subscriber reads the database after subscribing (`snapshotThenLive`): a change published before it subscribed
 * and written after it read would never reach it. So the state is published again each time it is stored.
 */
export class PublishedState {
  private lastWrite = Date.now();
  private pending: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  /**
   * `publish` sends the run's state as it is when called; `store` writes it and says whether the run still owns the
   * row (false once it was cancelled or taken over: nothing is published then). Stores never overlap.
   */
  constructor(
    private readonly publish: () => void,
    private readonly store: () => Promise<boolean>,
    private readonly intervalMs: number,
  ) {}

  /**
   * The run's state changed: it is published, and written now if the last write is an interval old (the promise
   * settles with that write), else once the interval has passed. A late write that fails is left to the next one.
   */
  changed(): Promise<void> {
    this.publish();
    if (this.stopped) return Promise.resolve();
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) return this.write();
    this.pending ??= setTimeout(() => void this.write().catch(() => undefined), wait);
    return Promise.resolve();
  }

  /** No more writes: one waiting is dropped, one under way is waited for. Call it before the run's final write. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelPending();
    await this.writing.catch(() => undefined);
  }

  private write(): Promise<void> {
    this.cancelPending();
    this.lastWrite = Date.now();
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (!this.stopped && (await this.store())) this.publish();
      });
    return this.writing;
  }

  private cancelPending(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
  }
}
