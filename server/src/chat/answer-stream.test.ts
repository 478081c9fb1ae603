import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { Platform } from "../platform";
import { createMemoryPubSub, type PubSub } from "../platform/pubsub";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { answerTopic, resumableAnswer, type AnswerEvent } from "./answer-stream";
import type { Message } from "./message.entity";
import { startFakeChatServer, type FakeChatServer } from "./testing/fake-chat-server";
import { addFakeModel, chatUser, createAssistant, type ChatUser } from "./testing/support";

/**
 * The resumable answer stream: a subscriber that arrives late, or reconnects midway, gets the whole
 * answer exactly once — through graphql-ws against a model that streams at a fixed pace, and against a
 * pub/sub whose subscriptions take effect late or lose events (as Redis can).
 */

interface Received {
  seq: number;
  status: string;
  delta: string | null;
  content: string | null;
}

/** What a client shows: the snapshot's content, each delta appended; the final event's content replaces it. */
function reconstruct(events: Received[]): string {
  let text = "";
  for (const event of events) {
    if (event.content !== null && event.content !== undefined) text = event.content;
    else if (event.delta) text += event.delta;
  }
  return text;
}

function expectOrdered(events: Received[]): void {
  for (let i = 1; i < events.length; i++) expect(events[i].seq).toBeGreaterThan(events[i - 1].seq);
  expect(events.filter((e) => ["done", "stopped", "failed"].includes(e.status))).toHaveLength(1);
  expect(events.at(-1)!.status).toBe("done");
}

describe("over graphql-ws, with a model streaming at a fixed pace", () => {
  let server: TestServer;
  let fake: FakeChatServer;
  let user: ChatUser;
  let token: string;
  const WORDS = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");

  beforeAll(async () => {
    server = await startTestServer();
    fake = await startFakeChatServer({ paceMs: 20, reply: () => WORDS });
    user = await chatUser(server);
    token = user.token;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  const wsClient = (): Client =>
    createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });

  const SUBSCRIBE = `subscription($id: ID!) { answerStream(messageId: $id) { messageId seq status delta content error references { index } } }`;

  /** Collects events until the final one, or until `stopAfter` events when given (a disconnect). */
  async function collect(client: Client, messageId: string, stopAfter?: number): Promise<Received[]> {
    const events: Received[] = [];
    const iterator = client.iterate<{ answerStream: Received }>({ query: SUBSCRIBE, variables: { id: messageId } });
    for await (const result of iterator) {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      events.push(result.data!.answerStream);
      if (["done", "stopped", "failed"].includes(result.data!.answerStream.status)) break;
      if (stopAfter !== undefined && events.length >= stopAfter) break;
    }
    await iterator.return?.();
    return events;
  }

  async function seqOf(messageId: string): Promise<number> {
    const rows: { seq: number }[] = await server.platform.db.query(`SELECT seq FROM chat_message WHERE id = $1`, [messageId]);
    return rows[0].seq;
  }

  it("a subscriber from the start, one arriving late and one reconnecting midway each get the whole answer once", async () => {
    const model = await addFakeModel(server, user, fake);
    const assistant = await createAssistant(server, user, { llmId: model, prompt: { system: "Talk.", parameters: [] } });
    const created = await server.graphql<{ createConversation: { id: string } }>(`mutation($a: ID!) { createConversation(assistantId: $a) { id } }`, { a: assistant.id }, token);
    const asked = await server.graphql<{ ask: { answer: { id: string } } }>(
      `mutation($c: ID!) { ask(conversationId: $c, question: "Talk to me") { answer { id status } } }`,
      { c: created.data!.createConversation.id },
      token,
    );
    const messageId = asked.data!.ask.answer.id;
    const clients = [wsClient(), wsClient(), wsClient(), wsClient()];
    try {
      const early = collect(clients[0], messageId);
      // Late: once part of the answer is written.
      while ((await seqOf(messageId)) < 10) await new Promise((resolve) => setTimeout(resolve, 20));
      const late = collect(clients[1], messageId);
      // Reconnecting: a few events, a disconnect, then a new subscription on another connection.
      const before = await collect(clients[2], messageId, 5);
      await clients[2].dispose();
      await new Promise((resolve) => setTimeout(resolve, 150));
      const after = await collect(clients[3], messageId);

      for (const events of [await early, await late, after]) {
        expectOrdered(events);
        expect(events[0].content).not.toBeNull();
        // Before the final event (which repeats the whole content), snapshot + deltas are already the answer.
        expect(reconstruct(events.slice(0, -1))).toBe(WORDS);
        expect(reconstruct(events)).toBe(WORDS);
      }
      expect((await late)[0].content!.length).toBeGreaterThan(0);
      expect(before.length).toBe(5);
      expect(after[0].content!.length).toBeGreaterThanOrEqual(reconstruct(before).length);
      // A stream of a finished answer: one event with everything, then the end.
      const finished = await collect(clients[1], messageId);
      expect(finished).toEqual([expect.objectContaining({ status: "done", content: WORDS, delta: null })]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it("refuses a stream to someone who may not read the answer", async () => {
    const model = await addFakeModel(server, user, fake, "chat", "other-model");
    const assistant = await createAssistant(server, user, { llmId: model, prompt: { system: "Talk.", parameters: [] } });
    const created = await server.graphql<{ createConversation: { id: string } }>(`mutation($a: ID!) { createConversation(assistantId: $a) { id } }`, { a: assistant.id }, token);
    const asked = await server.graphql<{ ask: { answer: { id: string } } }>(`mutation($c: ID!) { ask(conversationId: $c, question: "hi") { answer { id } } }`, { c: created.data!.createConversation.id }, token);
    const stranger = await signUpAndIn(server);
    const client = createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${stranger.token}` }, retryAttempts: 0 });
    try {
      const iterator = client.iterate({ query: SUBSCRIBE, variables: { id: asked.data!.ask.answer.id } });
      const { value } = await iterator.next();
      expect((value as { errors?: { extensions: { code: string } }[] }).errors?.[0].extensions.code).toBe("NOT_FOUND");
    } finally {
      await client.dispose();
    }
  });
});

describe("resumableAnswer against a pub/sub that subscribes late or loses events", () => {
  /** A pub/sub whose subscriptions see nothing published in their first `blindMs` (or ever, with Infinity). */
  function lateSubscriptions(blindMs: number): PubSub {
    const inner = createMemoryPubSub();
    return {
      publish: inner.publish,
      close: inner.close,
      subscribe(topic) {
        const source = inner.subscribe(topic);
        const start = Date.now();
        return (async function* () {
          for await (const event of source) if (Date.now() - start >= blindMs) yield event;
        })();
      },
    };
  }

  /** An answer written like AnswerWriter does: every event published, the row written every few events and at the end. */
  async function writeAnswer(pubsub: PubSub, row: Message, words: string[], everyEvents = 5, paceMs = 5) {
    let content = "";
    for (let seq = 1; seq <= words.length; seq++) {
      content += words[seq - 1];
      pubsub.publish(answerTopic(row.id), { messageId: row.id, seq, status: "streaming", delta: words[seq - 1] } satisfies AnswerEvent);
      if (seq % everyEvents === 0) Object.assign(row, { seq, content, status: "streaming" });
      await new Promise((resolve) => setTimeout(resolve, paceMs));
    }
    const seq = words.length + 1;
    Object.assign(row, { seq, content, status: "done" });
    pubsub.publish(answerTopic(row.id), { messageId: row.id, seq, status: "done", content } satisfies AnswerEvent);
  }

  async function subscribeDuring(blindMs: number, startAfterMs: number) {
    const pubsub = lateSubscriptions(blindMs);
    const platform = { pubsub } as unknown as Platform;
    const row = { id: "m1", seq: 0, content: "", status: "searching", reference: null, error: null } as unknown as Message;
    const words = Array.from({ length: 80 }, (_, i) => `w${i} `);
    const writing = writeAnswer(pubsub, row, words);
    await new Promise((resolve) => setTimeout(resolve, startAfterMs));
    const events: Received[] = [];
    for await (const event of resumableAnswer(platform, row.id, async () => ({ ...row }) as Message)) {
      events.push({ seq: event.seq, status: event.status, delta: event.delta ?? null, content: event.content ?? null });
    }
    await writing;
    return { events, expected: words.join("") };
  }

  it("fills the gap from the row when the subscription takes effect after events were published", async () => {
    const { events, expected } = await subscribeDuring(60, 100);
    expectOrdered(events);
    expect(reconstruct(events.slice(0, -1))).toBe(expected);
    expect(reconstruct(events)).toBe(expected);
  });

  it("finishes from the row when no event ever arrives", async () => {
    const { events, expected } = await subscribeDuring(Infinity, 50);
    expectOrdered(events);
    expect(reconstruct(events)).toBe(expected);
  });
});
