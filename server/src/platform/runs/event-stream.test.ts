import { startRedis, type TestRedis } from "../../testing/redis";
import { createMemoryPubSub, createRedisPubSub, type PubSub } from "../pubsub";
import { resumableStream, snapshotThenLive, type EventSource } from "./event-stream";

/**
 * A subscriber that joins a stream late, or rejoins it, gets every event exactly once and in order: over
 * the in-process pub/sub, over Redis (whose SUBSCRIBE takes effect late), and over a pub/sub that loses
 * publications.
 */

interface Step {
  seq: number;
  text: string;
  last?: boolean;
}

/** A producer that stores each event, then publishes it; `gate` lets a test hold it between events. */
class Producer {
  readonly stored: Step[] = [];
  constructor(
    private readonly pubsub: PubSub,
    readonly topic: string,
  ) {}

  emit(text: string, last = false): Step {
    const step: Step = { seq: this.stored.length + 1, text, ...(last ? { last } : {}) };
    this.stored.push(step);
    this.pubsub.publish(this.topic, step);
    return step;
  }

  source(): EventSource<Step> {
    return {
      topic: this.topic,
      stored: async (after) => this.stored.filter((step) => step.seq > (after ?? 0)),
      isLast: (step) => step.last === true,
    };
  }
}

/** Reads a stream to its end in the background; `waitFor` resolves once `count` events arrived. */
function collect(stream: AsyncIterable<Step>) {
  const received: Step[] = [];
  let notify = () => undefined as void;
  const done = (async () => {
    for await (const step of stream) {
      received.push(step);
      notify();
    }
  })();
  return {
    received,
    done,
    waitFor: (count: number) =>
      new Promise<void>((resolve) => {
        notify = () => received.length >= count && resolve();
        notify();
      }),
  };
}

const texts = (steps: Step[]) => steps.map((s) => `${s.seq}:${s.text}`);

/** A pub/sub that drops chosen publications on their way to subscribers (a lost message, a late SUBSCRIBE). */
function lossy(inner: PubSub, drop: (payload: Step) => boolean): PubSub {
  return {
    publish: (topic, payload) => {
      if (!drop(payload as Step)) inner.publish(topic, payload);
    },
    subscribe: (topic) => inner.subscribe(topic),
    close: () => inner.close(),
  };
}

let redis: TestRedis | undefined;

describe.each([
  { name: "in-process pub/sub", setup: async () => undefined, teardown: async () => undefined, create: () => createMemoryPubSub() },
  {
    name: "Redis pub/sub",
    setup: async () => {
      redis = await startRedis();
    },
    teardown: async () => redis?.stop(),
    create: () => createRedisPubSub(redis!.url),
  },
])("resumable streams over $name", (implementation) => {
  let opened: PubSub[] = [];
  beforeAll(() => implementation.setup(), 20_000);
  afterAll(() => implementation.teardown());
  afterEach(async () => {
    await Promise.all(opened.map((pubsub) => pubsub.close()));
    opened = [];
  });
  const open = () => {
    const pubsub = implementation.create();
    opened.push(pubsub);
    return pubsub;
  };

  it("a late subscriber gets what was stored, then the live rest, each event exactly once", async () => {
    const producer = new Producer(open(), "stream.late");
    producer.emit("a");
    producer.emit("b");
    const subscriber = collect(resumableStream(open(), producer.source(), { quietCheckMs: 50 }));
    await subscriber.waitFor(2);
    for (const text of ["c", "d", "e"]) producer.emit(text);
    producer.emit("end", true);
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["1:a", "2:b", "3:c", "4:d", "5:e", "6:end"]);
  });

  it("a reconnecting subscriber resumes after the last seq it saw", async () => {
    const producer = new Producer(open(), "stream.resume");
    for (const text of ["a", "b", "c"]) producer.emit(text);
    const subscriber = collect(resumableStream(open(), producer.source(), { after: 2, quietCheckMs: 50 }));
    await subscriber.waitFor(1);
    producer.emit("end", true);
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["3:c", "4:end"]);
  });

  it("a stream that ended before the subscriber came gives its stored events and ends", async () => {
    const producer = new Producer(open(), "stream.over");
    producer.emit("a");
    producer.emit("end", true);
    const subscriber = collect(resumableStream(open(), producer.source()));
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["1:a", "2:end"]);
  });
});

describe("resumable streams over a pub/sub that loses publications", () => {
  it("fills a gap from the store when a live event shows one", async () => {
    const memory = createMemoryPubSub();
    const dropped = new Set([2, 3, 5]);
    const producer = new Producer(lossy(memory, (step) => dropped.has(step.seq)), "stream.lossy");
    const subscriber = collect(resumableStream(memory, producer.source(), { quietCheckMs: 20, catchUpPollMs: 5 }));
    await subscriber.waitFor(0);
    // The snapshot is read; from here, every event goes live (or is lost).
    await new Promise<void>((resolve) => setImmediate(resolve));
    producer.emit("a");
    await subscriber.waitFor(1);
    producer.emit("b");
    producer.emit("c");
    producer.emit("d");
    producer.emit("end", true);
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["1:a", "2:b", "3:c", "4:d", "5:end"]);
  });

  it("fills a gap before the last event from the store, unless the last event is a snapshot of the whole stream", async () => {
    const memory = createMemoryPubSub();
    for (const lastIsSnapshot of [false, true]) {
      const topic = `stream.gap-before-end.${lastIsSnapshot}`;
      const producer = new Producer(lossy(memory, (step) => !step.last), topic);
      const subscriber = collect(resumableStream(memory, { ...producer.source(), lastIsSnapshot }, { quietCheckMs: 10_000, catchUpPollMs: 5 }));
      await subscriber.waitFor(0);
      await new Promise<void>((resolve) => setImmediate(resolve));
      producer.emit("a"); // lost, as every publication before a subscription that took effect late
      producer.emit("b");
      producer.emit("end", true);
      await subscriber.done;
      expect(texts(subscriber.received)).toEqual(lastIsSnapshot ? ["3:end"] : ["1:a", "2:b", "3:end"]);
    }
  });

  it("finds the end in the store when the last publication is lost and the stream falls quiet", async () => {
    const memory = createMemoryPubSub();
    const producer = new Producer(lossy(memory, (step) => step.last === true), "stream.lost-end");
    producer.emit("a");
    const subscriber = collect(resumableStream(memory, producer.source(), { quietCheckMs: 20 }));
    await subscriber.waitFor(1);
    producer.emit("end", true);
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["1:a", "2:end"]);
  });

  it("reads a gap the store has not caught up with yet once the store holds it", async () => {
    const memory = createMemoryPubSub();
    const producer = new Producer(lossy(memory, (step) => step.seq === 2), "stream.slow-store");
    const source = producer.source();
    // The store lags: it shows events up to `visible` only, as a row written every 100 ms does.
    let visible = Infinity;
    let reads = 0;
    let onRead = () => undefined as void;
    const laggingStore: EventSource<Step> = {
      ...source,
      stored: async (after) => {
        reads += 1;
        onRead();
        return (await source.stored(after))!.filter((step) => step.seq <= visible);
      },
    };
    producer.emit("a");
    const subscriber = collect(resumableStream(memory, laggingStore, { quietCheckMs: 10_000, catchUpPollMs: 5 }));
    await subscriber.waitFor(1);
    visible = 1;
    producer.emit("b"); // its publication is lost
    const readsBefore = reads;
    const polling = new Promise<void>((resolve) => (onRead = () => reads >= readsBefore + 3 && resolve()));
    producer.emit("c"); // arrives live and shows the gap: the subscriber re-reads the store until it holds 2
    await polling;
    expect(texts(subscriber.received)).toEqual(["1:a"]);
    visible = Infinity;
    producer.emit("end", true);
    await subscriber.done;
    expect(texts(subscriber.received)).toEqual(["1:a", "2:b", "3:c", "4:end"]);
  });
});

describe("snapshot then live", () => {
  it("gives the current states, then every change published from the moment it subscribed, from several topics", async () => {
    const pubsub = createMemoryPubSub();
    let publishedMeanwhile = false;
    const stream = await snapshotThenLive<string>(pubsub, ["states.a", "states.b"], async () => {
      // A change published while the states are read is not lost: the subscriptions are already open.
      pubsub.publish("states.a", "changed while reading");
      publishedMeanwhile = true;
      return ["current 1", "current 2"];
    }, (topic, payload) => `${topic}: ${String(payload)}`);
    expect(publishedMeanwhile).toBe(true);
    const received: string[] = [];
    for await (const state of stream) {
      received.push(state);
      if (received.length === 3) pubsub.publish("states.b", "later");
      if (received.length === 4) break;
    }
    expect(received).toEqual(["current 1", "current 2", "states.a: changed while reading", "states.b: later"]);
  });
});
