import type { DataSource } from "typeorm";
import type { Platform } from "../platform";
import { resumableStream } from "../platform/runs/event-stream";
import { storableJson } from "../platform/sql";
import type { RunEvent, SequencedRunEvent } from "./events";
import { FlowRunEventRow } from "./flow-run.entity";

/**
 * A run's events: numbered, published on the run's topic, and stored (flow_run_event), so that a watcher who
 * comes late or reconnects reads the run from its first event (platform/runs/event-stream.ts), whichever process
 * runs it. Writes are group commits, as chat's answers and parse completions are: what every run of this process
 * told since the last write goes in one statement (the events, consecutive message deltas in one row, and each
 * finished component's step), at most every WRITE_EVERY_MS and one at a time, so that two hundred runs in flight
 * cost a few statements a second instead of a few each. A run's end is written at once, with whatever else is
 * waiting. A crash loses at most the events of the last WRITE_EVERY_MS and of the write in flight (the run itself
 * is then failed as interrupted). While a run runs, a watcher in the same process reads what the store would give
 * from the run's recorder instead, every event up to the last one published, without a query.
 */

export const runTopic = (runId: string) => `flows.run.${runId}`;

/** A run ends with one of these. */
export const isLastEvent = (event: Pick<RunEvent, "type">) => event.type === "run_finished" || event.type === "run_failed" || event.type === "run_cancelled";

/**
 * Often enough that a watcher in another process (with Redis), who reads the store, lags little; seldom enough that
 * a busy process writes a few statements a second, however many runs it runs (watchers in this process read the recorder).
 */
const WRITE_EVERY_MS = 250;

/** The recorders of the runs this process runs, by run id, from their first event to their last. */
const runningHere = new Map<string, RunRecorder>();

/** A finished component's row of flow_run_step, as the write stores it. */
interface StepRow {
  run_id: string;
  seq: number;
  component_id: string;
  component_name: string;
  inputs: unknown;
  output: unknown;
  error: string | null;
  elapsed_ms: number;
  tokens: number;
}

/**
 * One statement for a batch of any number of runs: the steps and the event rows given as two JSON documents (one
 * parameter each, no per-column parameters to bind), the steps' insert as a data-modifying WITH that runs even
 * though nothing reads it.
 */
const WRITE_BATCH = `WITH steps AS (
    INSERT INTO flow_run_step (run_id, seq, component_id, component_name, inputs, output, error, elapsed_ms, tokens)
    SELECT s.run_id, s.seq, s.component_id, s.component_name, coalesce(s.inputs, '[]'), s.output, s.error, s.elapsed_ms, s.tokens
    FROM jsonb_to_recordset($1::jsonb) AS s(run_id text, seq integer, component_id text, component_name text, inputs jsonb, output jsonb, error text, elapsed_ms integer, tokens integer)
  )
  INSERT INTO flow_run_event (run_id, seq, events)
  SELECT e.run_id, e.seq, e.events FROM jsonb_to_recordset($2::jsonb) AS e(run_id text, seq integer, events jsonb)`;

/** What one run told since its last write, and who learns how its write went. */
class RunWrite {
  readonly steps: StepRow[] = [];
  readonly events: SequencedRunEvent[] = [];
  readonly stored: Promise<void>;
  settle!: (error?: unknown) => void;

  constructor(
    readonly runId: string,
    recorder: RunRecorder,
  ) {
    // Never rejects: a failed write is the recorder's to report (RunRecorder.close).
    this.stored = new Promise((resolve) => {
      this.settle = (error) => {
        if (error !== undefined) recorder.failed(error);
        resolve();
      };
    });
  }
}

/** The group commit of one database's run events (see the top of this file). */
class RunEventWriter {
  /** The runs' writes being collected for the next statement, by run id. */
  private collecting = new Map<string, RunWrite>();
  /** Each run's latest write, collecting or in flight: a run's writes go out in order, one statement at a time. */
  private latest = new Map<string, RunWrite>();
  private timer: NodeJS.Timeout | null = null;
  private writing = false;
  /** A run waits for its write: the next statement goes out as soon as the one in flight is done. */
  private urgent = false;

  constructor(private readonly db: DataSource) {}

  /** The run's write that collects what it tells now. */
  collect(recorder: RunRecorder, runId: string): RunWrite {
    let write = this.collecting.get(runId);
    if (!write) {
      write = new RunWrite(runId, recorder);
      this.collecting.set(runId, write);
      this.latest.set(runId, write);
      void write.stored.then(() => this.latest.get(runId) === write && this.latest.delete(runId));
    }
    if (!this.writing) this.timer ??= setTimeout(() => void this.drain(), WRITE_EVERY_MS);
    return write;
  }

  /** Resolves once everything the run told so far is stored, or its write failed. */
  async stored(runId: string): Promise<void> {
    const write = this.latest.get(runId);
    if (!write) return;
    if (this.collecting.get(runId) === write) {
      this.urgent = true;
      if (!this.writing) void this.drain();
    }
    await write.stored;
  }

  private async drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing) return;
    this.writing = true;
    try {
      do {
        this.urgent = false;
        const writes = [...this.collecting.values()];
        this.collecting = new Map();
        if (writes.length > 0) await this.write(writes);
      } while (this.urgent && this.collecting.size > 0);
    } finally {
      this.writing = false;
      // What came while it wrote waits its turn, as new events would.
      if (this.collecting.size > 0) this.timer ??= setTimeout(() => void this.drain(), WRITE_EVERY_MS);
    }
  }

  /** One statement for the runs' writes; when it fails, each run's is written alone, so one run's failure is its own. */
  private async write(writes: RunWrite[]): Promise<void> {
    try {
      await this.statement(writes);
      for (const write of writes) write.settle();
    } catch (error) {
      if (writes.length === 1) writes[0].settle(error);
      else for (const write of writes) await this.statement([write]).then(() => write.settle(), (alone) => write.settle(alone));
    }
  }

  private async statement(writes: RunWrite[]): Promise<void> {
    const steps = writes.flatMap((w) => w.steps);
    const rows = writes.flatMap((w) => rowsOf(w.runId, w.events));
    await this.db.query(WRITE_BATCH, [storableJson(steps), storableJson(rows)]);
  }
}

const writers = new WeakMap<DataSource, RunEventWriter>();

function writerOf(db: DataSource): RunEventWriter {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new RunEventWriter(db)));
  return writer;
}

export class RunRecorder {
  private seq = 0;
  private stepSeq = 0;
  private failure: unknown = null;
  /** Every event of a new run so far, in order, for the watchers of this process; null for a run's late last word. */
  private readonly told: SequencedRunEvent[] | null;

  constructor(
    private readonly platform: Platform,
    private readonly runId: string,
    /** Events already stored for this run (none for a new run). */
    startSeq = 0,
  ) {
    this.seq = startSeq;
    this.told = startSeq === 0 ? [] : null;
    if (this.told) runningHere.set(runId, this);
  }

  /** The run's events after seq `after`, as the store will hold them (a new run's recorder only). */
  eventsAfter(after: number): SequencedRunEvent[] {
    return (this.told ?? []).filter((event) => event.seq > after);
  }

  /** The run's watchers read the store from now on (it holds every event, or the run failed to be recorded). */
  detach(): void {
    if (runningHere.get(this.runId) === this) runningHere.delete(this.runId);
  }

  /** Numbers, publishes and (soon) stores an event; what a component finished becomes a step too. */
  emit(event: RunEvent): SequencedRunEvent {
    const sequenced = this.add(event);
    this.platform.pubsub.publish(runTopic(this.runId), sequenced);
    return sequenced;
  }

  /**
   * The run's last event: stored with everything before it, then published, so that a watcher who subscribed just
   * after it went out finds it in the store at once instead of at its next quiet check.
   */
  async end(event: RunEvent): Promise<void> {
    const sequenced = this.add(event);
    try {
      await this.close();
    } finally {
      this.detach();
    }
    this.platform.pubsub.publish(runTopic(this.runId), sequenced);
  }

  /** A write of the run's events failed: its record is incomplete, which `close` reports. */
  failed(error: unknown): void {
    this.failure ??= error;
  }

  private add(event: RunEvent): SequencedRunEvent {
    const sequenced = { ...event, seq: ++this.seq, at: new Date().toISOString() } as SequencedRunEvent;
    this.told?.push(sequenced);
    const write = writerOf(this.platform.db).collect(this, this.runId);
    write.events.push(sequenced);
    if (event.type === "node_finished") {
      write.steps.push({
        run_id: this.runId,
        seq: ++this.stepSeq,
        component_id: event.componentId,
        component_name: event.componentName,
        inputs: event.inputs,
        output: event.output,
        error: event.error,
        elapsed_ms: Math.round(event.elapsedMs),
        tokens: event.tokens,
      });
    }
    return sequenced;
  }

  /** Writes the rest now; throws when a write failed (the run's record is incomplete). */
  async close(): Promise<void> {
    await writerOf(this.platform.db).stored(this.runId);
    if (this.failure) throw this.failure;
  }
}

/** Consecutive message deltas share a row; any other event has its own. */
function rowsOf(runId: string, events: SequencedRunEvent[]): (Pick<FlowRunEventRow, "seq" | "events"> & { run_id: string })[] {
  const rows: (Pick<FlowRunEventRow, "seq" | "events"> & { run_id: string })[] = [];
  for (const event of events) {
    const last = rows.at(-1);
    const lastEvent = last?.events.at(-1) as SequencedRunEvent | undefined;
    if (last && event.type === "message" && lastEvent?.type === "message") {
      last.events.push(event);
      last.seq = event.seq;
    } else rows.push({ run_id: runId, seq: event.seq, events: [event] });
  }
  return rows;
}

/** The stored events of a run after `after`, in order; null when the run does not exist. */
export async function storedEvents(platform: Platform, runId: string, after: number | null): Promise<SequencedRunEvent[] | null> {
  const recorder = runningHere.get(runId);
  if (recorder) return recorder.eventsAfter(after ?? 0);
  const rows = await platform.db
    .getRepository(FlowRunEventRow)
    .createQueryBuilder("e")
    .where("e.runId = :runId AND e.seq > :after", { runId, after: after ?? 0 })
    .orderBy("e.seq", "ASC")
    .getMany();
  if (rows.length === 0 && !(await platform.db.query(`SELECT 1 FROM flow_run WHERE id = $1`, [runId])).length) return null;
  return rows.flatMap((row) => row.events as SequencedRunEvent[]).filter((event) => event.seq > (after ?? 0));
}

/** A run's events for one watcher: from the start (or after `after`), each once, in order, until the run's last. */
export function runEventStream(platform: Platform, runId: string, after?: number): AsyncGenerator<SequencedRunEvent> {
  return resumableStream<SequencedRunEvent>(
    platform.pubsub,
    { topic: runTopic(runId), stored: (from) => storedEvents(platform, runId, from), isLast: isLastEvent },
    { after },
  );
}

/**
 * A run's events for a watcher that subscribes before the run is queued (the one who starts it and streams it):
 * the stream's first step opens its subscription before its first await, so, taken now, every event the run
 * publishes comes live, none has to wait for its batch to be stored.
 */
export function runEventStreamFromStart(platform: Platform, runId: string): AsyncGenerator<SequencedRunEvent> {
  // Nothing is stored yet: the first read of the store (from the start, `null`) is known empty; the later ones (a
  // quiet check, a gap) read it.
  const stored = (from: number | null) => (from === null ? Promise.resolve([]) : storedEvents(platform, runId, from));
  const stream = resumableStream<SequencedRunEvent>(platform.pubsub, { topic: runTopic(runId), stored, isLast: isLastEvent });
  const first = stream.next();
  return (async function* () {
    try {
      const head = await first;
      if (head.done) return;
      yield head.value;
      yield* stream;
    } finally {
      await stream.return(undefined);
    }
  })();
}
