/**
 * A callback's events read as an async iterable: `push` them as they come, `end` when there are no more.
 * For work that reports by callback (a chat answer's `listen`) but is written out by `bridgeToSse`.
 */
export interface PushedEvents<T> extends AsyncIterable<T> {
  push(event: T): void;
  end(): void;
}

export function pushedEvents<T>(): PushedEvents<T> {
  const queue: T[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  return {
    push(event) {
      if (ended) return;
      queue.push(event);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) yield queue.shift()!;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
