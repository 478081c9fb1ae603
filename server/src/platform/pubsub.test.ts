import { listen, untilListening, type Listener } from "../testing/pubsub";
import { startRedis, type TestRedis } from "../testing/redis";
import { createMemoryPubSub, createRedisPubSub, type PubSub } from "./pubsub";

const payload = (seq: number) => ({ seq, text: `event ${seq} — 会议通知`, nested: { done: seq % 2 === 0, ids: [seq, seq + 1] } });

interface Implementation {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  create(): PubSub;
}

const memory: Implementation = {
  name: "in-process pub/sub",
  setup: async () => undefined,
  teardown: async () => undefined,
  create: createMemoryPubSub,
};

let redis: TestRedis | undefined;
const redisPubSub: Implementation = {
  name: "Redis pub/sub",
  setup: async () => {
    redis = await startRedis();
  },
  teardown: async () => {
    await redis?.stop();
  },
  create: () => createRedisPubSub(redis!.url),
};

describe.each([memory, redisPubSub])("$name", (implementation) => {
  let opened: PubSub[] = [];
  let listeners: Listener[] = [];
  const open = () => {
    const pubsub = implementation.create();
    opened.push(pubsub);
    return pubsub;
  };
  const subscribe = (pubsub: PubSub, topic: string) => {
    const listener = listen(pubsub, topic);
    listeners.push(listener);
    return listener;
  };

  beforeAll(() => implementation.setup());
  afterAll(() => implementation.teardown());
  afterEach(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await Promise.all(opened.map((p) => p.close()));
    listeners = [];
    opened = [];
  });

  test("a subscriber receives every published payload, in the order it was published", async () => {
    const pubsub = open();
    const listener = subscribe(pubsub, "document.progress");
    await untilListening(pubsub, "document.progress", [listener]);

    const sent = Array.from({ length: 100 }, (_, i) => payload(i));
    for (const p of sent) pubsub.publish("document.progress", p);

    expect(await listener.waitFor(100)).toEqual(sent);
  });

  test("two subscribers of one topic both receive each payload", async () => {
    const pubsub = open();
    const first = subscribe(pubsub, "chat.tokens");
    const second = subscribe(pubsub, "chat.tokens");
    await untilListening(pubsub, "chat.tokens", [first, second]);

    pubsub.publish("chat.tokens", payload(1));
    pubsub.publish("chat.tokens", payload(2));

    expect(await first.waitFor(2)).toEqual([payload(1), payload(2)]);
    expect(await second.waitFor(2)).toEqual([payload(1), payload(2)]);
  });

  test("a subscriber hears only its own topic", async () => {
    const pubsub = open();
    const onA = subscribe(pubsub, "topic.a");
    const onB = subscribe(pubsub, "topic.b");
    await untilListening(pubsub, "topic.a", [onA]);
    await untilListening(pubsub, "topic.b", [onB]);

    pubsub.publish("topic.b", payload(1));
    pubsub.publish("topic.b", payload(2));
    pubsub.publish("topic.a", payload(3));

    // topic.a's payload was published last; anything of topic.b leaking to A would have arrived before it.
    expect(await onA.waitFor(1)).toEqual([payload(3)]);
    expect(await onB.waitFor(2)).toEqual([payload(1), payload(2)]);
    expect(onA.received).toEqual([payload(3)]);
  });

  test("a subscription that ended receives nothing more, and the others keep receiving", async () => {
    const pubsub = open();
    const leaving = subscribe(pubsub, "flow.run");
    const staying = subscribe(pubsub, "flow.run");
    await untilListening(pubsub, "flow.run", [leaving, staying]);

    await leaving.close();
    pubsub.publish("flow.run", payload(7));

    expect(await staying.waitFor(1)).toEqual([payload(7)]);
    expect(leaving.received).toEqual([]);
  });

  if (implementation === redisPubSub) {
    test("a payload published by one process reaches a subscriber in another (two PubSub instances)", async () => {
      const worker = open();
      const server = open();
      const browser = subscribe(server, "system.echo");
      await untilListening(worker, "system.echo", [browser]);

      worker.publish("system.echo", payload(1));
      worker.publish("system.echo", payload(2));

      expect(await browser.waitFor(2)).toEqual([payload(1), payload(2)]);
    });
  }
});
