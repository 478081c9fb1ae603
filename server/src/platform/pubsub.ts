import { createPubSub } from "@graphql-yoga/subscription";
import { RedisPubSub } from "graphql-redis-subscriptions";
import Redis from "ioredis";

/**
 * Events that reach subscribers (parsing progress, chat tokens, flow runs). In-process by default;
 * Redis when REDIS_URL is set, so that an event published by a worker process reaches a browser
 * connected to any server process. It has the shape TypeGraphQL's `pubSub` option expects.
 */
export interface PubSub {
  publish(topic: string, payload: unknown): void;
  subscribe(topic: string): AsyncIterable<unknown>;
  close(): Promise<void>;
}

export function createMemoryPubSub(): PubSub {
  const pubsub = createPubSub<Record<string, [unknown]>>();
  return {
    publish: (topic, payload) => pubsub.publish(topic, payload),
    subscribe: (topic) => pubsub.subscribe(topic),
    close: async () => undefined,
  };
}

export function createRedisPubSub(redisUrl: string): PubSub {
  const options = { maxRetriesPerRequest: null, lazyConnect: false };
  const redis = new RedisPubSub({
    publisher: new Redis(redisUrl, options),
    // No ready check (an INFO command) on the subscriber: a SUBSCRIBE sent while the connection is still starting
    // puts it in subscriber mode first, the INFO is then refused, and ioredis drops the connection and the
    // subscription with it — a fast start lost its first subscriptions so.
    subscriber: new Redis(redisUrl, { ...options, enableReadyCheck: false }),
  });
  let closing = false;
  return {
    // A publication is fire-and-forget; one that fails is reported, and one that meets a closing connection is
    // dropped quietly (its stream's subscribers read it from the store).
    publish: (topic, payload) =>
      void redis.publish(topic, payload).catch((error: Error) => {
        if (!closing) console.error(`[pubsub] could not publish on ${topic}:`, error.message);
      }),
    subscribe: (topic) => redis.asyncIterableIterator(topic),
    close: async () => {
      closing = true;
      await redis.close();
    },
  };
}

/**
 * Calls `handle` with every message on `topic` until `close` (a process-wide feed, such as revocations or changes
 * other processes announce); a feed that fails is reported under `what`.
 */
export function followTopic(pubsub: PubSub, topic: string, what: string, handle: (message: unknown) => void): { close(): Promise<void> } {
  const messages = pubsub.subscribe(topic)[Symbol.asyncIterator]();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await messages.next();
        if (done) return;
        handle(value);
      }
    } catch (error) {
      console.error(`[pubsub] the feed of ${what} stopped:`, error);
    }
  })();
  return { close: async () => void (await messages.return?.()) };
}
