import type { Platform } from "../platform";
import { FINAL_STATUSES, type Message, type MessageReference, type MessageStatus } from "./message.entity";

/**
 * The resumable stream of one answer. The process generating it publishes every event on the pub/sub
 * port (in-process, or Redis so that any server process can serve the subscriber) and writes the row as
 * it grows: content and `seq`, the number of events the content holds (at least every 100 ms, and at
 * the end). A subscriber subscribes first, then reads the row, and gives
 *  1. one snapshot event: the whole content so far, with the row's seq;
 *  2. then only live events with a greater seq. When a live event shows a gap (events published before
 *     the subscription took effect, as with Redis, whose SUBSCRIBE is asynchronous), it re-reads the row
 *     until it holds them, and gives what the row adds as one catch-up event.
 * So a subscriber that arrives late, or reconnects, gets the whole answer once: nothing lost, nothing
 * repeated, whichever process generates it. A final row (done, stopped, failed) gives one event and ends.
 * A live stream that falls quiet is checked against the row now and then, so that a lost publication
 * (or an answer that ended before the subscription took effect) cannot leave a subscriber waiting.
 */

export interface AnswerEvent {
  messageId: string;
  seq: number;
  status: MessageStatus;
  /** Text added since the previous event (live events). */
  delta?: string;
  /** The whole answer so far: on the snapshot, and on the final event (citations may be added at the end). */
  content?: string;
  reference?: MessageReference | null;
  error?: string | null;
}

export const answerTopic = (messageId: string) => `chat.answer.${messageId}`;

/** Stop requests reach the process generating an answer through this topic, whichever process took them. */
export const STOP_TOPIC = "chat.answer.stop";

export const isFinal = (status: string) => (FINAL_STATUSES as readonly string[]).includes(status);

/** How long a subscriber waits for a live event before it checks the row itself. */
const QUIET_CHECK_MS = 1000;
/** How often a subscriber re-reads a row that has not caught up with a live event yet. */
const CATCH_UP_POLL_MS = 25;

/** A pull queue over a pub/sub subscription that starts listening at once (not on the first pull). */
class LiveEvents {
  private readonly buffered: AnswerEvent[] = [];
  private waiting: ((event: AnswerEvent | null) => void) | null = null;
  private readonly iterator: AsyncIterator<unknown>;
  private closed = false;

  constructor(source: AsyncIterable<unknown>) {
    this.iterator = source[Symbol.asyncIterator]();
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.iterator.next();
        if (next.done || this.closed) break;
        const event = next.value as AnswerEvent;
        if (this.waiting) {
          const resolve = this.waiting;
          this.waiting = null;
          resolve(event);
        } else this.buffered.push(event);
      }
    } catch {
      // a closed Redis connection ends the stream; the row still answers
    }
  }

  /** The next event, or null when none arrives within `timeoutMs`. */
  next(timeoutMs: number): Promise<AnswerEvent | null> {
    const event = this.buffered.shift();
    if (event) return Promise.resolve(event);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
    });
  }

  close(): void {
    this.closed = true;
    this.waiting?.(null);
    this.waiting = null;
    void this.iterator.return?.().catch(() => undefined);
  }
}

function snapshotOf(row: Message): AnswerEvent {
  return { messageId: row.id, seq: row.seq, status: row.status, content: row.content, reference: row.reference, error: row.error };
}

/**
 * The events of one answer for one subscriber, from whatever point the answer has reached.
 * `readRow` reads the message row (null once it is deleted: the stream ends).
 */
export async function* resumableAnswer(platform: Platform, messageId: string, readRow: () => Promise<Message | null>): AsyncGenerator<AnswerEvent> {
  const live = new LiveEvents(platform.pubsub.subscribe(answerTopic(messageId)));
  try {
    let row = await readRow();
    if (!row) return;
    yield snapshotOf(row);
    if (isFinal(row.status)) return;
    let seq = row.seq;
    let length = row.content.length;
    let referenced = row.reference !== null;

    /** What the row holds beyond what was given; null when it holds nothing new. */
    const catchUp = (current: Message): AnswerEvent | null => {
      if (current.seq <= seq && !isFinal(current.status)) return null;
      const event: AnswerEvent = { messageId, seq: Math.max(seq, current.seq), status: current.status };
      if (isFinal(current.status)) {
        event.content = current.content;
        event.reference = current.reference;
        event.error = current.error;
      } else {
        event.delta = current.content.slice(length);
        if (!referenced && current.reference) event.reference = current.reference;
      }
      return event;
    };

    for (;;) {
      const event = await live.next(QUIET_CHECK_MS);
      let out: AnswerEvent | null = null;
      if (event === null) {
        row = await readRow();
        if (!row) return;
        out = catchUp(row);
      } else if (event.seq <= seq) {
        continue;
      } else if (event.seq === seq + 1 || isFinal(event.status)) {
        out = event;
      } else {
        // A gap: the events before this one were published before the subscription took effect.
        for (;;) {
          row = await readRow();
          if (!row) return;
          if (row.seq >= event.seq - 1 || isFinal(row.status)) break;
          await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
        }
        out = catchUp(row);
        if (out && !isFinal(out.status) && event.seq > out.seq) {
          yield out;
          seq = out.seq;
          length += out.delta?.length ?? 0;
          referenced ||= Boolean(out.reference);
          out = event;
        }
      }
      if (!out) continue;
      yield out;
      if (isFinal(out.status)) return;
      seq = out.seq;
      length += out.delta?.length ?? 0;
      referenced ||= Boolean(out.reference);
    }
  } finally {
    live.close();
  }
}
