import type { Platform } from "../platform";
import { LiveSubscription, resumableStream } from "../platform/runs/event-stream";
import { FINAL_STATUSES, type Message, type MessageReference, type MessageStatus } from "./message.entity";

/**
 * The resumable stream of one answer (platform/runs/event-stream.ts). The process generating it
 * publishes every event and writes the row as it grows: content and `seq`, the number of events the
 * content holds (at least every 100 ms, and at the end). The row is the store a subscriber reads: first
 * as one snapshot event (the whole content so far, with the row's seq), later as one catch-up event (what
 * the row adds to what the subscriber was given). So a subscriber that arrives late, or reconnects, gets
 * the whole answer once, whichever process generates it. A final row (done, stopped, failed) gives one
 * event and ends.
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

/** What the stream reads of a row holding an answer (a chat message, a search's summary answer). */
export type AnswerRow = Pick<Message, "id" | "seq" | "status" | "content" | "reference" | "error">;

export const answerTopic = (messageId: string) => `chat.answer.${messageId}`;

/** Stop requests reach the process generating an answer through this topic, whichever process took them. */
export const STOP_TOPIC = "chat.answer.stop";

export const isFinal = (status: string) => (FINAL_STATUSES as readonly string[]).includes(status);

function snapshotOf(row: AnswerRow): AnswerEvent {
  return { messageId: row.id, seq: row.seq, status: row.status, content: row.content, reference: row.reference, error: row.error };
}

/** The answer's events, listened to from now on: open it before reading the row that `resumableAnswer` starts from. */
export const answerSubscription = (platform: Platform, messageId: string) => new LiveSubscription<AnswerEvent>(platform.pubsub, answerTopic(messageId));

/**
 * The events of one answer for one subscriber, from whatever point the answer has reached.
 * `readRow` reads the answer's row (null once it is deleted: the stream ends). `opened`: the subscription
 * (answerSubscription) and the row as read after it opened, which the stream starts from without reading it again.
 */
export async function* resumableAnswer(
  platform: Platform,
  messageId: string,
  readRow: () => Promise<AnswerRow | null>,
  opened?: { live: LiveSubscription<AnswerEvent>; row: AnswerRow },
): AsyncGenerator<AnswerEvent> {
  // What this subscriber was given: a catch-up event adds only the rest.
  let length = 0;
  let referenced = false;
  const catchUp = (current: AnswerRow, after: number): AnswerEvent | null => {
    if (current.seq <= after && !isFinal(current.status)) return null;
    const event: AnswerEvent = { messageId, seq: Math.max(after, current.seq), status: current.status };
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
  const source = {
    topic: answerTopic(messageId),
    isLast: (event: AnswerEvent) => isFinal(event.status),
    lastIsSnapshot: true,
    stored: async (after: number | null) => {
      const row = after === null && opened ? opened.row : await readRow();
      if (!row) return null;
      if (after === null) return [snapshotOf(row)];
      const event = catchUp(row, after);
      return event ? [event] : [];
    },
  };
  const events = resumableStream<AnswerEvent>(platform.pubsub, source, { live: opened?.live });
  for await (const event of events) {
    length = event.content !== undefined ? event.content.length : length + (event.delta?.length ?? 0);
    referenced ||= Boolean(event.reference);
    yield event;
  }
}
