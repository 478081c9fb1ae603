import type { Platform } from "../../platform";
import { answerTopic, type AnswerEvent, type AnswerRow } from "../answer-stream";
import type { Message, MessageReference, MessageStatus } from "../message.entity";

/**
 * Writes answers while they stream. Text from the model is published as it comes, within a budget of
 * LIVE_EVENTS_PER_SECOND shared by the answers being written: each answer gets at most one event per
 * (answers × 1000 / budget) ms — a fraction of a millisecond for a few answers, 250 ms for a thousand. An
 * answer's first text (and any after a pause) goes out at the end of the event loop's turn; text that follows
 * sooner waits for the next beat and goes out with whatever else came meanwhile, as one event. Every event
 * costs each subscriber a GraphQL execution and a socket write, so a thousand streams cost what the process
 * can carry instead of one event per token. The rows of all answers this process is writing are brought up to date
 * together, in one UPDATE, FLUSH_INTERVAL_MS after the previous one ended (never per token, and never
 * piling up behind a slow one): a crash loses at most the text of that window and of the flush under way.
 * All writes of the process go through one queue, so a row's seq only ever grows. A row that someone
 * else closed meanwhile (a stop forced from another process, the start-up sweep) is not written again,
 * and its generation is told to stop.
 *
 * It writes a conversation's answers (chat_message) or a search's summary answers (search_record, whose answer
 * columns mirror chat_message's): one writer per table.
 */

/** The tables holding streamed answers; a fixed list, since a table name cannot be a query parameter. */
export type AnswerTable = "chat_message" | "search_record";

export const FLUSH_INTERVAL_MS = 100;
/** The live events per second that all answers of a process share (one answer's text is held at most answers × 1000 / this ms). */
export const LIVE_EVENTS_PER_SECOND = 4000;
/** Rows of answers still being written are touched at least this often, so a sweep can tell them from abandoned ones. */
export const HEARTBEAT_MS = 5000;
/** Rows not written for this long while open belong to no running generation: a sweep may close them. */
export const ABANDONED_AFTER_MS = 6 * HEARTBEAT_MS;

export interface FinalAnswer {
  status: Extract<MessageStatus, "done" | "stopped" | "failed">;
  content: string;
  error?: string | null;
  reference?: MessageReference | null;
  prompt?: string | null;
  promptTokens?: number;
  completionTokens?: number;
  firstTokenMs?: number | null;
  durationMs?: number;
}

export class AnswerStreamState {
  seq = 0;
  /** Everything the model wrote so far (the answer a stop keeps). */
  content = "";
  reference: MessageReference | null = null;
  /** How much of `content` the published events (and so `seq`) cover; the rest goes out with the next event. */
  published = 0;
  /** When its last live event went out (performance.now()). */
  publishedAt = -Infinity;
  status: MessageStatus = "searching";
  dirty = false;
  lastWrite = Date.now();
  closed = false;
  /** The references are being written: text the model sends meanwhile waits for their event, so that events keep their order. */
  referencing = false;

  constructor(
    readonly messageId: string,
    /** Called when the row was closed by someone else: the generation should stop. */
    readonly onClosedElsewhere: () => void,
    /** Receives every event of the answer as it is published, in this process (a REST stream). */
    readonly listen?: (event: AnswerEvent) => void,
  ) {}
}

export class AnswerWriter {
  private readonly open = new Map<string, AnswerStreamState>();
  /** Answers with text not yet published; the end of this turn publishes the idle ones, the beat the others. */
  private readonly unpublished = new Set<AnswerStreamState>();
  private publishing: NodeJS.Immediate | null = null;
  private beat: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The next flush, or the one under way: there is never more than one. */
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Answers ended whose final row waits for the next write (one UPDATE for all of them). */
  private readonly finals: { state: AnswerStreamState; final: FinalAnswer; seq: number; written: { resolve: () => void; reject: (error: unknown) => void } }[] = [];
  /** Answers whose final row is being written. */
  private readonly finishing = new Map<string, AnswerStreamState>();

  constructor(
    private readonly platform: Platform,
    private readonly table: AnswerTable = "chat_message",
  ) {}

  /** Starts writing a new answer whose row exists with status 'searching' and seq 0. */
  begin(messageId: string, onClosedElsewhere: () => void, listen?: (event: AnswerEvent) => void): AnswerStreamState {
    const state = new AnswerStreamState(messageId, onClosedElsewhere, listen);
    this.open.set(messageId, state);
    this.scheduleFlush();
    return state;
  }

  private scheduleFlush(): void {
    if (this.timer !== null || this.closed || this.open.size === 0) return;
    this.timer = setTimeout(() => {
      void this.enqueue(() => this.flushAll()).finally(() => {
        this.timer = null;
        this.scheduleFlush();
      });
    }, FLUSH_INTERVAL_MS);
    this.timer.unref?.();
  }

  private publish(state: AnswerStreamState, event: AnswerEvent): void {
    this.platform.pubsub.publish(answerTopic(event.messageId), event);
    state.listen?.(event);
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch((error) => console.error("[chat] could not write an answer:", error));
    return run;
  }

  /** Text from the model: published at the end of this turn, or with the next beat if the answer's last event is recent; written with the next flush. */
  delta(state: AnswerStreamState, text: string): void {
    if (state.closed || text === "") return;
    state.content += text;
    state.status = "streaming";
    this.unpublished.add(state);
    const gap = this.liveEventGapMs();
    if (performance.now() - state.publishedAt >= gap) {
      this.publishing ??= setImmediate(() => {
        this.publishing = null;
        const now = performance.now();
        const due = this.liveEventGapMs();
        for (const waiting of this.unpublished) if (now - waiting.publishedAt >= due) this.publishPending(waiting);
      });
    }
    if (this.beat === null) {
      this.beat = setTimeout(() => {
        this.beat = null;
        for (const waiting of this.unpublished) this.publishPending(waiting);
      }, gap);
      this.beat.unref?.();
    }
  }

  /** The shortest time between two live events of one answer, now. */
  private liveEventGapMs(): number {
    return (this.open.size * 1000) / LIVE_EVENTS_PER_SECOND;
  }

  /** One event with the text the answer received since its last event, if any. */
  private publishPending(state: AnswerStreamState): void {
    if (state.referencing) return;
    this.unpublished.delete(state);
    if (state.closed || state.published === state.content.length) return;
    const delta = state.content.slice(state.published);
    state.published = state.content.length;
    state.publishedAt = performance.now();
    state.seq += 1;
    state.dirty = true;
    this.publish(state, { messageId: state.messageId, seq: state.seq, status: "streaming", delta });
  }

  /**
   * The references, known once retrieval is over: written before they are published, so every snapshot after carries
   * them. The model may be asked meanwhile: its text waits for the references' event (`referencing`), then follows it.
   */
  async reference(state: AnswerStreamState, reference: MessageReference): Promise<AnswerEvent | null> {
    this.publishPending(state);
    if (state.closed) return null;
    // The state moves on once the row holds it (the answer's view for subscribers, `current`, never runs ahead of the row and the events).
    const seq = state.seq + 1;
    const content = state.content.slice(0, state.published);
    state.referencing = true;
    let written: boolean;
    try {
      written = await this.enqueue(async () => {
        const rows: unknown[] = await this.platform.db.query(
          `UPDATE ${this.table} SET reference = $2, status = 'streaming', seq = $3, content = $4, updated_at = now()
           WHERE id = $1 AND status IN ('searching', 'streaming') RETURNING id`,
          [state.messageId, JSON.stringify(reference), seq, content],
        );
        return rowCount(rows) > 0;
      });
    } finally {
      state.referencing = false;
    }
    if (!written) {
      this.closedElsewhere(state);
      return null;
    }
    state.lastWrite = Date.now();
    state.seq = seq;
    state.status = "streaming";
    state.reference = reference;
    const event: AnswerEvent = { messageId: state.messageId, seq, status: "streaming", reference };
    this.publish(state, event);
    this.publishPending(state);
    return event;
  }

  /** Writes the final row, then publishes the final event (with the whole content). */
  async finish(state: AnswerStreamState, final: FinalAnswer): Promise<AnswerEvent> {
    this.publishPending(state);
    this.open.delete(state.messageId);
    const wasClosed = state.closed;
    state.closed = true;
    const seq = state.seq + 1;
    const event: AnswerEvent = {
      messageId: state.messageId,
      seq,
      status: final.status,
      content: final.content,
      reference: final.reference ?? null,
      error: final.error ?? null,
    };
    if (wasClosed) {
      state.seq = seq;
      return event;
    }
    // Until its final row is written, subscribers of this process are given the answer as streamed so far.
    this.finishing.set(state.messageId, state);
    try {
      await new Promise<void>((resolve, reject) => {
        this.finals.push({ state, final, seq, written: { resolve, reject } });
        // The first final waiting queues the write of all those that join it meanwhile.
        if (this.finals.length === 1) void this.enqueue(() => this.writeFinals()).catch(() => undefined);
      });
    } finally {
      this.finishing.delete(state.messageId);
    }
    state.seq = seq;
    this.publish(state, event);
    return event;
  }

  /** The final rows waiting, in one UPDATE; each final event is published once its row is written. */
  private async writeFinals(): Promise<void> {
    const batch = this.finals.splice(0);
    const column = <T>(value: (f: FinalAnswer, state: AnswerStreamState) => T) => batch.map(({ final, state }) => value(final, state));
    const whole = (n: number | null | undefined) => (n === undefined || n === null ? null : Math.round(n));
    try {
      await this.platform.db.query(
        `UPDATE ${this.table} m SET status = v.status, content = v.content, error = v.error, reference = COALESCE(v.reference, m.reference), prompt = v.prompt,
           prompt_tokens = v.prompt_tokens, completion_tokens = v.completion_tokens, first_token_ms = v.first_token_ms, duration_ms = v.duration_ms, seq = v.seq, updated_at = now()
         FROM (SELECT unnest($1::varchar[]) AS id, unnest($2::varchar[]) AS status, unnest($3::text[]) AS content, unnest($4::text[]) AS error, unnest($5::jsonb[]) AS reference,
           unnest($6::text[]) AS prompt, unnest($7::int[]) AS prompt_tokens, unnest($8::int[]) AS completion_tokens, unnest($9::int[]) AS first_token_ms,
           unnest($10::int[]) AS duration_ms, unnest($11::int[]) AS seq) v
         WHERE m.id = v.id AND m.status IN ('searching', 'streaming')`,
        [
          column((_, state) => state.messageId),
          column((f) => f.status),
          column((f) => f.content),
          column((f) => f.error ?? null),
          column((f) => (f.reference ? JSON.stringify(f.reference) : null)),
          column((f) => f.prompt ?? null),
          column((f) => f.promptTokens ?? 0),
          column((f) => f.completionTokens ?? 0),
          column((f) => whole(f.firstTokenMs)),
          column((f) => whole(f.durationMs)),
          batch.map((f) => f.seq),
        ],
      );
    } catch (error) {
      for (const { written } of batch) written.reject(error);
      throw error;
    }
    for (const { written } of batch) written.resolve();
  }

  private closedElsewhere(state: AnswerStreamState): void {
    if (state.closed) return;
    state.closed = true;
    this.open.delete(state.messageId);
    state.onClosedElsewhere();
  }

  /** One UPDATE for every answer with unwritten text (or due a heartbeat). */
  private async flushAll(): Promise<void> {
    // The row holds what was published (its seq counts events): text still waiting for its event goes out first.
    for (const waiting of this.unpublished) this.publishPending(waiting);
    const now = Date.now();
    const due = [...this.open.values()].filter((s) => !s.closed && (s.dirty || now - s.lastWrite >= HEARTBEAT_MS));
    if (due.length === 0) return;
    // What the events so far add up to: text held behind references being written is not in the row yet.
    const snapshot = due.map((s) => ({ state: s, seq: s.seq, content: s.content.slice(0, s.published), status: s.status }));
    for (const s of due) s.dirty = false;
    const rows: { id: string }[] = await this.platform.db.query(
      `UPDATE ${this.table} m SET content = v.content, seq = v.seq, status = v.status, updated_at = now()
       FROM (SELECT unnest($1::varchar[]) AS id, unnest($2::text[]) AS content, unnest($3::int[]) AS seq, unnest($4::varchar[]) AS status) v
       WHERE m.id = v.id AND m.status IN ('searching', 'streaming') AND m.seq <= v.seq
       RETURNING m.id`,
      [snapshot.map((s) => s.state.messageId), snapshot.map((s) => s.content), snapshot.map((s) => s.seq), snapshot.map((s) => s.status)],
    );
    const written = new Set(resultRows<{ id: string }>(rows).map((r) => r.id));
    for (const { state } of snapshot) {
      if (written.has(state.messageId)) state.lastWrite = now;
      else if (!state.closed && this.open.has(state.messageId)) {
        const current: { status: string }[] = await this.platform.db.query(`SELECT status FROM ${this.table} WHERE id = $1`, [state.messageId]);
        if (current.length === 0 || !["searching", "streaming"].includes(current[0].status)) this.closedElsewhere(state);
      }
    }
  }

  /**
   * The answer as its events so far add up to, when this process is writing it (else null: read the row): fresher
   * than the row, which is written every FLUSH_INTERVAL_MS, and no query. A subscriber of this process starts from it.
   */
  current(messageId: string): AnswerRow | null {
    const state = this.open.get(messageId) ?? this.finishing.get(messageId);
    if (!state || (state.closed && !this.finishing.has(messageId))) return null;
    return { id: messageId, seq: state.seq, status: state.status, content: state.content.slice(0, state.published), reference: state.reference, error: null };
  }

  /** Waits for every queued write (tests, shutdown). */
  async drain(): Promise<void> {
    await this.enqueue(async () => undefined);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.beat) clearTimeout(this.beat);
    this.beat = null;
  }
}

/** TypeORM's `query` gives the rows of UPDATE … RETURNING as [rows, count] on PostgreSQL. */
function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === "number") return result[0] as T[];
  return result as T[];
}

function rowCount(result: unknown): number {
  return resultRows(result).length;
}

export type { Message };
