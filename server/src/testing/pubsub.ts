import type { PubSub } from "../platform/pubsub";

/** A subscription being read in the background, as a GraphQL subscription would read it. */
export interface Listener {
  received: unknown[];
  /** Resolves once `count` payloads (not counting probes) have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<unknown[]>;
  sawProbe: boolean;
  close(): Promise<void>;
}

const PROBE = "__probe__";

export function listen(pubsub: PubSub, topic: string): Listener {
  const iterator = pubsub.subscribe(topic)[Symbol.asyncIterator]();
  const waiters = new Set<() => void>();
  const listener: Listener = {
    received: [],
    sawProbe: false,
    waitFor: (count, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (listener.received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(listener.received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} payloads on "${topic}", got ${JSON.stringify(listener.received)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      await iterator.return?.();
      await reading;
    },
  };
  const reading = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      if ((next.value as { [PROBE]?: boolean })?.[PROBE]) listener.sawProbe = true;
      else listener.received.push(next.value);
      for (const waiter of waiters) waiter();
    }
  })();
  return listener;
}

/**
 * Publishes probes until every listener has received one. A Redis SUBSCRIBE completes asynchronously,
 * and what is published before it completes is (correctly) not delivered, so a test first makes sure the
 * subscriptions are live, as a browser's subscription is live before the events it waits for.
 */
export async function untilListening(publisher: PubSub, topic: string, listeners: Listener[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!listeners.every((l) => l.sawProbe)) {
    if (Date.now() > deadline) throw new Error(`subscriptions to "${topic}" never became live`);
    publisher.publish(topic, { [PROBE]: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
