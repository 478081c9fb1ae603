import type { Platform } from "../platform";
import { resumableStream } from "../platform/runs/event-stream";
import type { RunEvent, SequencedRunEvent } from "./events";
import { FlowRunEventRow, FlowRunStep } from "./flow-run.entity";

/**
 * A run's events: numbered, published on the run's topic, and stored (flow_run_event), so that a watcher who
 * comes late or reconnects reads the run from its first event (platform/runs/event-stream.ts), whichever process
 * runs it. Writes are batched as chat's answers are: what came in the last WRITE_EVERY_MS goes in one statement,
 * consecutive message deltas in one row; each finished component's step is written with them.
 */

export const runTopic = (runId: string) => `flows.run.${runId}`;

/** A run ends with one of these. */
export const isLastEvent = (event: Pick<RunEvent, "type">) => event.type === "run_finished" || event.type === "run_failed" || event.type === "run_cancelled";

/** As chat writes a growing answer: often enough that a reader lags little, seldom enough that tokens are not a statement each. */
const WRITE_EVERY_MS = 100;

export class RunRecorder {
  private seq = 0;
  private stepSeq = 0;
  private pending: SequencedRunEvent[] = [];
  private pendingSteps: FlowRunStep[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly platform: Platform,
    private readonly runId: string,
    /** Events already stored for this run (none for a new run). */
    startSeq = 0,
  ) {
    this.seq = startSeq;
  }

  /** Numbers, publishes and (soon) stores an event; what a component finished becomes a step too. */
  emit(event: RunEvent): SequencedRunEvent {
    const sequenced = this.add(event);
    this.platform.pubsub.publish(runTopic(this.runId), sequenced);
    this.timer ??= setTimeout(() => void this.flush(), WRITE_EVERY_MS);
    return sequenced;
  }

  /**
   * The run's last event: stored with everything before it, then published, so that a watcher who subscribed just
   * after it went out finds it in the store at once instead of at its next quiet check.
   */
  async end(event: RunEvent): Promise<void> {
    const sequenced = this.add(event);
    await this.close();
    this.platform.pubsub.publish(runTopic(this.runId), sequenced);
  }

  private add(event: RunEvent): SequencedRunEvent {
    const sequenced = { ...event, seq: ++this.seq, at: new Date().toISOString() } as SequencedRunEvent;
    this.pending.push(sequenced);
    if (event.type === "node_finished") {
      this.pendingSteps.push(
        this.platform.db.getRepository(FlowRunStep).create({
          runId: this.runId,
          seq: ++this.stepSeq,
          componentId: event.componentId,
          componentName: event.componentName,
          inputs: event.inputs,
          output: event.output,
          error: event.error,
          elapsedMs: Math.round(event.elapsedMs),
          tokens: event.tokens,
        }),
      );
    }
    return sequenced;
  }

  /** Writes what is pending; resolves once everything emitted so far is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.pending;
    const steps = this.pendingSteps;
    this.pending = [];
    this.pendingSteps = [];
    if (events.length === 0 && steps.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      try {
        if (steps.length > 0) await this.platform.db.getRepository(FlowRunStep).insert(steps as never);
        if (events.length > 0) await this.platform.db.getRepository(FlowRunEventRow).insert(rowsOf(this.runId, events) as never);
      } catch (error) {
        this.failure ??= error;
      }
    });
    return this.writing;
  }

  /** Writes the rest; throws when a write failed (the run's record is incomplete). */
  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
  }
}

/** Consecutive message deltas share a row; any other event has its own. */
function rowsOf(runId: string, events: SequencedRunEvent[]): Pick<FlowRunEventRow, "runId" | "seq" | "events">[] {
  const rows: Pick<FlowRunEventRow, "runId" | "seq" | "events">[] = [];
  for (const event of events) {
    const last = rows.at(-1);
    const lastEvent = last?.events.at(-1) as SequencedRunEvent | undefined;
    if (last && event.type === "message" && lastEvent?.type === "message") {
      last.events.push(event);
      last.seq = event.seq;
    } else rows.push({ runId, seq: event.seq, events: [event] });
  }
  return rows;
}

/** The stored events of a run after `after`, in order; null when the run does not exist. */
export async function storedEvents(platform: Platform, runId: string, after: number | null): Promise<SequencedRunEvent[] | null> {
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
