import http from "node:http";
import { startTestServer, type TestServer } from "../testing/app";
import { startFakeChatServer, type FakeChatServer } from "./testing/fake-chat-server";
import { addFakeModel, chatUser, createAssistant, type ChatUser } from "./testing/support";

/**
 * Every surface that answers a chat assistant's questions — the chat page (GraphQL), RAGFlow's completions
 * and the OpenAI-compatible endpoint — stores the conversation through ConversationService, and each
 * answer can be stopped mid-way by the chat page's stop (the same path for all), or by its client going away.
 */

let server: TestServer;
let fake: FakeChatServer;
let owner: ChatUser;
let chatId: string;
/** Long enough to be stopped well before its end: one word per 20 ms. */
const REPLY = Array.from({ length: 150 }, (_, i) => `w${i}`).join(" ");

beforeAll(async () => {
  server = await startTestServer();
  fake = await startFakeChatServer({ paceMs: 20, reply: () => REPLY });
  owner = await chatUser(server);
  const model = await addFakeModel(server, owner, fake);
  chatId = (await createAssistant(server, owner, { llmId: model, prompt: { system: "You answer.", parameters: [], prologue: "" } })).id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

interface StoredAnswer {
  id: string;
  status: string;
  content: string;
}

const graphql = <T>(query: string, variables: Record<string, unknown>) => server.graphql<T>(query, variables, owner.token);

async function stopAnswer(messageId: string): Promise<StoredAnswer> {
  const stopped = await graphql<{ stopAnswer: StoredAnswer }>(`mutation($m: ID!) { stopAnswer(messageId: $m) { id status content } }`, { m: messageId });
  expect(stopped.errors).toBeUndefined();
  return stopped.data!.stopAnswer;
}

/** The chat's conversations as the chat page lists them, newest first, with their messages. */
async function conversations(): Promise<{ id: string; messages: (StoredAnswer & { role: string })[] }[]> {
  const listed = await graphql<{ conversations: { id: string; messages: (StoredAnswer & { role: string })[] }[] }>(
    `query($a: ID!) { conversations(assistantId: $a) { id messages { id role status content } } }`,
    { a: chatId },
  );
  return listed.data!.conversations;
}

/** Polls (a state, not a time) until `read` gives a value. */
async function until<T>(read: () => Promise<T | null | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A streamed POST read frame by frame: the frames so far, and the moment the stream ends. */
function streamPost(path: string, body: unknown) {
  const frames: string[] = [];
  let buffer = "";
  let onFrame = () => undefined as void;
  const request = http.request(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" } });
  const ended = new Promise<void>((resolve, reject) => {
    request.on("response", (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          frames.push(buffer.slice("data:".length, cut));
          buffer = buffer.slice(cut + 2);
          onFrame();
        }
      });
      response.on("end", resolve);
      response.on("close", resolve);
    });
    request.on("error", (error) => (request.destroyed ? resolve() : reject(error)));
  });
  request.end(JSON.stringify(body));
  return {
    frames,
    ended,
    request,
    firstFrame: () => new Promise<string>((resolve) => (onFrame = () => resolve(frames[0])) && frames.length > 0 && resolve(frames[0])),
  };
}

/** What was stopped is stored: a real part of the answer, not all of it. */
function expectStoppedMidway(answer: StoredAnswer): void {
  expect(answer.status).toBe("stopped");
  expect(answer.content.length).toBeGreaterThan(0);
  expect(REPLY.startsWith(answer.content)).toBe(true);
  expect(answer.content.length).toBeLessThan(REPLY.length);
}

describe("each surface stores the conversation and its answer can be stopped mid-way", () => {
  it("GraphQL (the chat page)", async () => {
    const created = await graphql<{ createConversation: { id: string } }>(`mutation($a: ID!) { createConversation(assistantId: $a) { id } }`, { a: chatId });
    const conversationId = created.data!.createConversation.id;
    const asked = await graphql<{ ask: { answer: { id: string } } }>(`mutation($c: ID!) { ask(conversationId: $c, question: "talk") { answer { id } } }`, { c: conversationId });
    const answerId = asked.data!.ask.answer.id;
    await until(async () => (await conversations()).find((c) => c.id === conversationId)?.messages.find((m) => m.id === answerId && m.content !== ""), "the answer streams");
    expectStoppedMidway(await stopAnswer(answerId));
    const stored = (await conversations()).find((c) => c.id === conversationId)!;
    expect(stored.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("RAGFlow completions (§8): the stream ends with the stored part and data:true", async () => {
    const session = await server.rest("POST", `/api/v1/chats/${chatId}/sessions`, { token: owner.key, body: { name: "rest" } });
    const sessionId = session.body.data.id as string;
    const stream = streamPost(`/api/v1/chats/${chatId}/completions`, { question: "talk", session_id: sessionId, stream: true });
    const answerId = JSON.parse(await stream.firstFrame()).data.id as string;
    const stopped = await stopAnswer(answerId);
    await stream.ended;
    expectStoppedMidway(stopped);
    expect(stream.frames.at(-1)).toBe(`{"code": 0, "data": true}`);
    const streamed = stream.frames.slice(0, -1).map((f) => JSON.parse(f).data.answer).join("");
    expect(streamed).toBe(stopped.content);
    const listed = await server.rest("GET", `/api/v1/chats/${chatId}/sessions?id=${sessionId}`, { token: owner.key });
    expect(listed.body.data[0].messages.at(-1)).toMatchObject({ role: "assistant", content: stopped.content });
  });

  it("the OpenAI-compatible endpoint (§9): the conversation it sent is stored, and the stream ends with finish_reason stop", async () => {
    const before = new Set((await conversations()).map((c) => c.id));
    const stream = streamPost(`/api/v1/chats_openai/${chatId}/chat/completions`, {
      model: "any",
      stream: true,
      messages: [
        { role: "user", content: "earlier question" },
        { role: "assistant", content: "earlier answer" },
        { role: "user", content: "talk" },
      ],
    });
    await stream.firstFrame();
    const stored = await until(async () => (await conversations()).find((c) => !before.has(c.id)), "the OpenAI conversation is stored");
    expect(stored.messages.map((m) => [m.role, m.role === "user" ? m.content : ""])).toEqual([
      ["user", "earlier question"],
      ["assistant", ""],
      ["user", "talk"],
      ["assistant", ""],
    ]);
    expect(stored.messages[1].content).toBe("earlier answer");
    const stopped = await stopAnswer(stored.messages[3].id);
    await stream.ended;
    expectStoppedMidway(stopped);
    expect(stream.frames.at(-1)).toBe("[DONE]");
    const chunks = stream.frames.slice(0, -1).map((f) => JSON.parse(f));
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe(stopped.content);
  });
});

describe("a streaming client that goes away stops its answer, which keeps what was written", () => {
  it.each([
    ["RAGFlow completions", "completions"],
    ["the OpenAI-compatible endpoint", "openai"],
  ])("%s", async (_name, surface) => {
    const before = new Set((await conversations()).map((c) => c.id));
    let stream;
    if (surface === "completions") {
      const session = await server.rest("POST", `/api/v1/chats/${chatId}/sessions`, { token: owner.key, body: { name: "leaving" } });
      stream = streamPost(`/api/v1/chats/${chatId}/completions`, { question: "talk", session_id: session.body.data.id });
    } else stream = streamPost(`/api/v1/chats_openai/${chatId}/chat/completions`, { model: "any", messages: [{ role: "user", content: "talk" }] });
    await stream.firstFrame();
    stream.request.destroy();
    const answer = await until(async () => {
      const conversation = (await conversations()).find((c) => !before.has(c.id));
      const last = conversation?.messages.at(-1);
      return last && last.status !== "searching" && last.status !== "streaming" ? last : null;
    }, "the answer stops");
    expectStoppedMidway(answer);
  });
});
