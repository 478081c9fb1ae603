import type { PubSub } from "../pubsub";

/**
 * Streams that a subscriber may join late, or rejoin, without missing or repeating anything. The
 * process producing events publishes each on the pub/sub port (in-process, or Redis so that any server
 * process can serve the subscriber) and keeps them, or what they add up to, in a store it reads back
 * (a database row, a log). Two shapes:
 *
 * - `resumableStream`: events numbered 1, 2, 3… (`seq`). A subscriber subscribes first, then reads the
 *   store from the start (or after a given seq), then takes only live events with a greater seq. A live
 *   event that shows a gap (those before it were published before the subscription took effect: Redis's
 *   SUBSCRIBE is asynchronous) makes it re-read the store until the store holds them. A stream that falls
 *   quiet is checked against the store now and then, so that a lost publication cannot leave a subscriber
 *   waiting. The store may merge events (one event carrying the seq of the last one it stands for).
 * - `snapshotThenLive`: state events where the latest wins (a document's progress, a task's status):
 *   subscribe first, then the current states, then every change.
 */

export interface SequencedEvent {
  /** 1 for the first event of a stream; one more for each. */
  seq: number;
}

export interface EventSource<E extends SequencedEvent> {
  /** The topic the producer publishes each event on. */
  topic: string;
  /**
   * What the store holds after seq `after` (`null`: from the start, as a snapshot), in order, possibly merged
   * into fewer events; `null` when the stream no longer exists (the stream ends).
   */
  stored(after: number | null): Promise<E[] | null>;
  /** Whether the event is the stream's last. */
  isLast(event: E): boolean;
  /**
   * The last event stands for every event before it (a chat answer's final snapshot): a subscriber that meets
   * it after a gap needs nothing from the store. Otherwise (a flow run's end) the gap is filled first.
   */
  lastIsSnapshot?: boolean;
}

export interface ResumeOptions<E = unknown> {
  /** Resume after this seq (a reconnecting subscriber's last); default: from the start. */
  after?: number;
  /**
   * The stream's subscription, opened by the caller before it read what `stored` will first return (a row it
   * read anyway to check access); default: opened here, before the store is read.
   */
  live?: LiveSubscription<E>;
  /** How long the subscriber waits for a live event before it reads the store itself. */
  quietCheckMs?: number;
  /** How often the store is re-read while it has not caught up with a live event. */
  catchUpPollMs?: number;
}

const QUIET_CHECK_MS = 1000;
const CATCH_UP_POLL_MS = 25;
/** How long closing waits for a subscription to be given back. */
const CLOSE_WAIT_MS = 1000;

/**
 * A pull queue over pub/sub subscriptions that start listening at once (not on the first pull). Several
 * topics read as one queue, in arrival order; `label` tells their payloads apart.
 */
export class LiveSubscription<E> {
  private readonly buffered: E[] = [];
  private waiting: ((event: E | null) => void) | null = null;
  private readonly iterators: AsyncIterator<unknown>[];
  private closed = false;

  constructor(pubsub: PubSub, topics: string | string[], label: (topic: string, payload: unknown) => E = (_topic, payload) => payload as E) {
    this.iterators = (Array.isArray(topics) ? topics : [topics]).map((topic) => {
      const iterator = pubsub.subscribe(topic)[Symbol.asyncIterator]();
      void this.pump(iterator, (payload) => label(topic, payload));
      return iterator;
    });
  }

  private async pump(iterator: AsyncIterator<unknown>, label: (payload: unknown) => E): Promise<void> {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done || this.closed) break;
        const event = label(next.value);
        if (this.waiting) {
          const resolve = this.waiting;
          this.waiting = null;
          resolve(event);
        } else this.buffered.push(event);
      }
    } catch {
      // a closed Redis connection ends the subscription; the store still answers
    }
  }

  /** The next event, or null when none arrives within `timeoutMs` (never: wait until one arrives or close). */
  next(timeoutMs?: number): Promise<E | null> {
    if (this.buffered.length > 0) return Promise.resolve(this.buffered.shift()!);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = timeoutMs === undefined ? null : setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = (value) => {
        if (timer) clearTimeout(timer);
        resolve(value);
      };
    });
  }

  /**
   * Stops listening. Settles once the subscriptions are given back (a Redis UNSUBSCRIBE is sent, after its
   * SUBSCRIBE completed, before the connection may be closed), or after CLOSE_WAIT_MS: an iterator stuck in
   * its own await (a generator that filters a subscription) gives itself back only when its next event comes.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting?.(null);
    this.waiting = null;
    const returned = Promise.all(this.iterators.map((iterator) => iterator.return?.().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([returned, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)).unref?.())]);
    clearTimeout(timer);
  }
}

/** The events of one stream for one subscriber, from the start (or `after`), each exactly once, in order. */
export async function* resumableStream<E extends SequencedEvent>(pubsub: PubSub, source: EventSource<E>, options: ResumeOptions<E> = {}): AsyncGenerator<E> {
  const quietCheckMs = options.quietCheckMs ?? QUIET_CHECK_MS;
  const catchUpPollMs = options.catchUpPollMs ?? CATCH_UP_POLL_MS;
  const live = options.live ?? new LiveSubscription<E>(pubsub, source.topic);
  let seq = options.after ?? 0;
  let ended = false;
  /** The stored events not given yet; false when the stream no longer exists. */
  async function* fromStore(after: number | null): AsyncGenerator<E, boolean> {
    const events = await source.stored(after);
    if (events === null) return false;
    for (const event of events) {
      if (after !== null && event.seq <= seq) continue;
      seq = Math.max(seq, event.seq);
      yield event;
      if (source.isLast(event)) {
        ended = true;
        break;
      }
    }
    return true;
  }
  try {
    if (!(yield* fromStore(options.after ?? null)) || ended) return;
    for (;;) {
      const event = await live.next(quietCheckMs);
      if (event === null) {
        if (!(yield* fromStore(seq)) || ended) return;
        continue;
      }
      if (event.seq <= seq) continue;
      if (event.seq > seq + 1 && !(source.lastIsSnapshot && source.isLast(event))) {
        // A gap: the events before this one were published before the subscription took effect.
        const missing = event.seq - 1;
        while (seq < missing) {
          if (!(yield* fromStore(seq)) || ended) return;
          if (seq < missing) await new Promise((resolve) => setTimeout(resolve, catchUpPollMs));
        }
        if (event.seq <= seq) continue;
      }
      seq = event.seq;
      yield event;
      if (source.isLast(event)) return;
    }
  } finally {
    await live.close();
  }
}

/**
 * State events: first those of `current()` (read once the subscriptions are open, so that nothing in
 * between is missed), then every event published on the topics, in arrival order, until the subscriber leaves.
 */
export async function snapshotThenLive<E>(pubsub: PubSub, topics: string | string[], current: () => Promise<E[]>, label?: (topic: string, payload: unknown) => E): Promise<AsyncGenerator<E>> {
  const live = new LiveSubscription<E>(pubsub, topics, label);
  let now: E[];
  try {
    now = await current();
  } catch (error) {
    await live.close();
    throw error;
  }
  return (async function* () {
    try {
      yield* now;
      for (;;) {
        const event = await live.next();
        if (event === null) return;
        yield event;
      }
    } finally {
      await live.close();
    }
  })();
}
