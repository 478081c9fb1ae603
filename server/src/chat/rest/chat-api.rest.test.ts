import OpenAI from "openai";
import { startTestServer, type TestServer } from "../../testing/app";
import { FAKE_AUDIO, startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { addFakeModel, chatUser, createAssistant, parsedKnowledgeBase, type ChatUser } from "../testing/support";

/**
 * The chat service API through the real server: sessions (§7), native completions with RAGFlow's SSE
 * framing (§8), the OpenAI-compatible endpoint with the official `openai` client (§9), citations on
 * every surface, and the TTS route.
 */

let server: TestServer;
let fake: FakeChatServer;
let owner: ChatUser;
let stranger: ChatUser;
let fakeModel: string;
let datasetId: string;
/** Built-in extractive model over the knowledge base: real citations. */
let kbChat: string;
/** The fake model without knowledge bases. */
let plainChat: string;

const FILES = {
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans. The highest tides of the month are called spring tides.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
};

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  fake = await startFakeChatServer({ paceMs: 2, reply: () => "Ahoy there, sailor!" });
  [owner, stranger] = [await chatUser(server), await chatUser(server)];
  fakeModel = await addFakeModel(server, owner, fake);
  ({ datasetId } = await parsedKnowledgeBase(server, owner, Object.entries(FILES).map(([name, data]) => ({ name, data }))));
  kbChat = (await createAssistant(server, owner, { kbIds: [datasetId], prompt: { prologue: "Ask me about tides." } })).id;
  plainChat = (await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "You are a pirate.", parameters: [], prologue: "Arr." } })).id;
}, 240_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const rest = (method: string, path: string, body?: unknown, user = owner) => server.rest(method, path, { token: user.key, body });

/** A raw SSE answer: the frames' text after `data:`, and the raw body. */
async function sse(path: string, body: unknown, key = owner.key): Promise<{ raw: string; frames: string[]; json: any[]; contentType: string | null }> {
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const raw = await response.text();
  const frames = raw.split("\n\n").filter((f) => f !== "");
  for (const frame of frames) expect(frame.startsWith("data:")).toBe(true);
  const texts = frames.map((f) => f.slice("data:".length));
  return { raw, frames: texts, json: texts.map((t) => (t === "[DONE]" ? t : JSON.parse(t))), contentType: response.headers.get("content-type") };
}

async function newSession(chatId: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await rest("POST", `/api/v1/chats/${chatId}/sessions`, body);
  expect(created.body.code).toBe(0);
  return created.body.data.id;
}

describe("§7 sessions", () => {
  it("creates a session opened by the prologue (an empty one when the chat has none), with RAGFlow's defaults and errors", async () => {
    const created = await rest("POST", `/api/v1/chats/${kbChat}/sessions`, { user_id: "u-1" });
    expect(created.body).toMatchObject({ code: 0, data: { chat_id: kbChat, name: "New session", user_id: "u-1", messages: [{ role: "assistant", content: "Ask me about tides." }] } });
    expect(Object.keys(created.body.data).sort()).toEqual(["chat_id", "create_date", "create_time", "id", "messages", "name", "update_date", "update_time", "user_id"]);
    expect((await rest("POST", `/api/v1/chats/${kbChat}/sessions`, { name: "" })).body).toEqual({ code: 102, message: "`name` can not be empty." });

    const silentChat = (await createAssistant(server, owner, { prompt: { prologue: "" } })).id;
    const silent = await rest("POST", `/api/v1/chats/${silentChat}/sessions`, { user_id: "u-2" });
    expect(silent.body.data.messages).toEqual([{ role: "assistant", content: "" }]);
    const listed = await server.rest("GET", `/api/v1/chats/${silentChat}/sessions`, { token: owner.key });
    expect(listed.body.data[0].messages).toEqual([{ role: "assistant", content: "", reference: [] }]);
    expect((await rest("POST", `/api/v1/chats/${kbChat}/sessions`, {}, stranger)).body).toEqual({ code: 102, message: "You do not own the assistant." });
  });

  it("lists sessions with their messages and each answer's references, filtered and paged", async () => {
    const sessionId = await newSession(kbChat, { name: "listed", user_id: "lister" });
    const answered = await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question: "What causes tides?", session_id: sessionId, stream: false });
    expect(answered.body.code).toBe(0);
    const listed = await server.rest("GET", `/api/v1/chats/${kbChat}/sessions?user_id=lister`, { token: owner.key });
    expect(listed.body.code).toBe(0);
    expect(listed.body.data).toHaveLength(1);
    const [session] = listed.body.data;
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(["assistant", "user", "assistant"]);
    expect(session.messages[0].reference).toEqual([]);
    expect(session.messages[2].reference[0]).toEqual(
      expect.objectContaining({ document_name: "tides.txt", dataset_id: datasetId, content: expect.stringContaining("gravitational") }),
    );
    expect(session.messages[1]).not.toHaveProperty("reference");
    expect((await server.rest("GET", `/api/v1/chats/${kbChat}/sessions?name=listed&page_size=0`, { token: owner.key })).body).toEqual({ code: 0, data: [] });
    expect((await server.rest("GET", `/api/v1/chats/${kbChat}/sessions?id=unknown`, { token: owner.key })).body).toEqual({ code: 0, data: [] });
    expect((await server.rest("GET", `/api/v1/chats/${kbChat}/sessions`, { token: stranger.key })).body).toEqual({ code: 102, message: `You don't own the assistant ${kbChat}.` });
  });

  it("renames a session, refusing what cannot change, in RAGFlow's order", async () => {
    const sessionId = await newSession(plainChat);
    const path = `/api/v1/chats/${plainChat}/sessions/${sessionId}`;
    expect((await rest("PUT", path, { name: "renamed" })).body).toEqual({ code: 0 });
    expect((await rest("PUT", path, {})).body).toEqual({ code: 0 });
    expect((await rest("PUT", `/api/v1/chats/${kbChat}/sessions/${sessionId}`, { name: "x" })).body).toEqual({ code: 102, message: "Session does not exist" });
    expect((await rest("PUT", path, { name: "x" }, stranger)).body).toEqual({ code: 102, message: "You do not own the session" });
    expect((await rest("PUT", path, { messages: [] })).body).toEqual({ code: 102, message: "`message` can not be change" });
    expect((await rest("PUT", path, { reference: [] })).body).toEqual({ code: 102, message: "`reference` can not be change" });
    expect((await rest("PUT", path, { name: "" })).body).toEqual({ code: 102, message: "`name` can not be empty." });
    expect((await rest("PUT", path, { colour: "red" })).body).toMatchObject({ code: 100, message: expect.stringMatching(/^ValueError\(/) });
    const listed = await server.rest("GET", `/api/v1/chats/${plainChat}/sessions?id=${sessionId}`, { token: owner.key });
    expect(listed.body.data[0].name).toBe("renamed");
  });

  it("deletes sessions, reporting the ones the chat does not own and duplicates", async () => {
    const [a, b] = [await newSession(plainChat), await newSession(plainChat)];
    const path = `/api/v1/chats/${plainChat}/sessions`;
    expect((await rest("DELETE", path, { ids: [a, a, "invalid_id"] })).body).toEqual({
      code: 0,
      data: { success_count: 1, errors: ["The chat doesn't own the session invalid_id", `Duplicate session ids: ${a}`] },
    });
    expect((await rest("DELETE", path, { ids: ["x", "y"] })).body).toEqual({ code: 102, message: "The chat doesn't own the session x; The chat doesn't own the session y" });
    expect((await rest("DELETE", path, { ids: [b] }, stranger)).body).toEqual({ code: 102, message: "You don't own the chat" });
    expect((await rest("DELETE", path, { ids: [b] })).body).toEqual({ code: 0 });
  });
});

describe("§8 completions", () => {
  it("without a session: a new session answered with the prologue, streamed as two frames", async () => {
    const { frames, contentType } = await sse(`/api/v1/chats/${kbChat}/completions`, { question: "ignored", name: "from completions" });
    expect(contentType).toBe("text/event-stream; charset=utf-8");
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatch(/^\{"code": 0, "message": "", "data": \{"answer": "Ask me about tides\.", "reference": \{\}, "audio_binary": null, "id": null, "session_id": "[0-9a-f]{32}"\}\}$/);
    expect(frames[1]).toBe(`{"code": 0, "message": "", "data": true}`);
    const plain = await rest("POST", `/api/v1/chats/${kbChat}/completions`, { stream: false });
    expect(plain.body).toEqual({ code: 0, data: { answer: "Ask me about tides.", reference: {}, audio_binary: null, id: null, session_id: expect.any(String) } });
  });

  it("streams deltas, one final frame with the reference and the debug prompt, then data:true (Python json.dumps framing)", async () => {
    const sessionId = await newSession(kbChat);
    const { frames, json } = await sse(`/api/v1/chats/${kbChat}/completions`, { question: "What causes tides?", session_id: sessionId });
    expect(frames.at(-1)).toBe(`{"code": 0, "data": true}`);
    const deltas = json.filter((f) => f.data?.final === false);
    const finals = json.filter((f) => f.data?.final === true);
    expect(deltas.length).toBeGreaterThan(1);
    expect(finals).toHaveLength(1);
    for (const frame of frames.slice(0, -1)) expect(frame.startsWith(`{"code": 0, "data": {"answer": `)).toBe(true);
    expect(deltas[0].data).toEqual({ answer: expect.any(String), reference: { chunks: [] }, audio_binary: null, final: false, id: expect.any(String), session_id: sessionId });
    const final = finals[0].data;
    expect(Object.keys(final)).toEqual(["answer", "reference", "prompt", "created_at", "final", "audio_binary", "id", "session_id"]);
    expect(final.answer).toBe("");
    expect(final.prompt).toContain("### Query:");
    const answer = deltas.map((d) => d.data.answer).join("");
    expect(answer).toMatch(/gravitational pull of the moon.*\[ID:\d+\]/);
    const cited = Number(/\[ID:(\d+)\]/.exec(answer)![1]);
    expect(final.reference.chunks[cited]).toEqual(expect.objectContaining({ document_name: "tides.txt", content: expect.stringContaining("gravitational") }));
    expect(Object.keys(final.reference.chunks[cited]).sort()).toEqual(
      ["content", "dataset_id", "doc_type", "document_id", "document_name", "id", "image_id", "positions", "similarity", "term_similarity", "url", "vector_similarity"],
    );
    // The answer is stored in the session.
    const listed = await server.rest("GET", `/api/v1/chats/${kbChat}/sessions?id=${sessionId}`, { token: owner.key });
    expect(listed.body.data[0].messages.at(-1).content).toBe(answer);
  });

  it("answers without streaming: answer, reference, prompt, created_at, audio_binary, id, session_id", async () => {
    const sessionId = await newSession(kbChat);
    const answered = await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question: "What causes tides?", session_id: sessionId, stream: false });
    expect(answered.body.code).toBe(0);
    expect(answered.body.data).toEqual({
      answer: expect.stringMatching(/gravitational.*\[ID:\d+\]/),
      reference: { total: expect.any(Number), chunks: expect.any(Array), doc_aggs: [{ doc_name: "tides.txt", doc_id: expect.any(String), count: expect.any(Number) }] },
      prompt: expect.stringContaining("### Query:"),
      created_at: expect.any(Number),
      audio_binary: null,
      id: expect.any(String),
      session_id: sessionId,
    });
  });

  it("without datasets: deltas carry prompt and created_at, there is no final frame", async () => {
    const sessionId = await newSession(plainChat);
    const { frames, json } = await sse(`/api/v1/chats/${plainChat}/completions`, { question: "hello", session_id: sessionId });
    expect(json.slice(0, -1).map((f) => f.data.answer).join("")).toBe("Ahoy there, sailor!");
    expect(frames[0]).toMatch(/^\{"code": 0, "data": \{"answer": "Ahoy ", "reference": \{"chunks": \[\]\}, "audio_binary": null, "prompt": "", "created_at": \d+\.\d+, "final": false, "id": "[0-9a-f]{32}", "session_id": "[0-9a-f]{32}"\}\}$/);
    expect(json.some((f) => f.data?.final === true)).toBe(false);
    const plain = await rest("POST", `/api/v1/chats/${plainChat}/completions`, { question: "hello", session_id: sessionId, stream: false });
    expect(plain.body.data).toMatchObject({ answer: "Ahoy there, sailor!", reference: { chunks: [] }, prompt: "" });
  });

  it("gives the empty response in one final frame when nothing is retrieved", async () => {
    const sessionId = await newSession(kbChat);
    const { json } = await sse(`/api/v1/chats/${kbChat}/completions`, { question: "quantum chromodynamics lattice", session_id: sessionId });
    expect(json).toHaveLength(2);
    expect(json[0].data).toMatchObject({ answer: "Sorry! No relevant content was found in the knowledge base!", final: true });
  });

  it("checks ownership and the metadata condition before streaming; a missing variable is an error frame", async () => {
    const sessionId = await newSession(kbChat);
    expect((await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question: "q", session_id: sessionId }, stranger)).body).toEqual({ code: 102, message: `You don't own the chat ${kbChat}` });
    expect((await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question: "q", session_id: "nope" })).body).toEqual({ code: 102, message: "You don't own the session nope" });
    expect((await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question: "q", session_id: sessionId, metadata_condition: "x" })).body).toEqual({ code: 102, message: "metadata_condition must be an object." });

    const needsCompany = (await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "For {company}.", parameters: [{ key: "company", optional: false }] } })).id;
    const session = await newSession(needsCompany);
    const { frames } = await sse(`/api/v1/chats/${needsCompany}/completions`, { question: "hi", session_id: session });
    expect(frames).toEqual([`{"code": 500, "message": "'Miss parameter: company'", "data": {"answer": "**ERROR**: 'Miss parameter: company'", "reference": []}}`, `{"code": 0, "data": true}`]);
    const given = await rest("POST", `/api/v1/chats/${needsCompany}/completions`, { question: "hi", session_id: session, company: "Acme", stream: false });
    expect(given.body.data.answer).toBe("Ahoy there, sailor!");
    expect(fake.requests.at(-1)!.body.messages[0].content).toBe("For Acme.");
  });

  it("restricts retrieval to the documents of a metadata condition (none match: the empty response)", async () => {
    const sessionId = await newSession(kbChat);
    const answered = await rest("POST", `/api/v1/chats/${kbChat}/completions`, {
      question: "What causes tides?",
      session_id: sessionId,
      stream: false,
      metadata_condition: { conditions: [{ name: "author", comparison_operator: "is", value: "nobody" }] },
    });
    expect(answered.body.data.answer).toBe("Sorry! No relevant content was found in the knowledge base!");
  });
});

describe("§9 OpenAI-compatible completions", () => {
  const path = (chatId: string) => `/api/v1/chats_openai/${chatId}/chat/completions`;
  const client = (chatId: string, key = owner.key) => new OpenAI({ apiKey: key, baseURL: `${server.url}/api/v1/chats_openai/${chatId}` });

  it("answers the official client without streaming, with cl100k usage", async () => {
    const completion = await client(plainChat).chat.completions.create({ model: "any", messages: [{ role: "system", content: "ignored" }, { role: "user", content: "hello there" }], stream: false });
    expect(completion.choices[0].message.content).toBe("Ahoy there, sailor!");
    expect(completion).toMatchObject({ id: `chatcmpl-${plainChat}`, object: "chat.completion", model: "any", choices: [{ finish_reason: "stop", index: 0, logprobs: null }] });
    expect(completion.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 6, total_tokens: 8 });
    expect(fake.requests.at(-1)!.body.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
  });

  it("streams chat.completion.chunk frames to the official client, ending with usage and [DONE]", async () => {
    const stream = await client(plainChat).chat.completions.create({ model: "any", messages: [{ role: "user", content: "hello" }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe("Ahoy there, sailor!");
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "model" && c.id === `chatcmpl-${plainChat}`)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 6, total_tokens: 7 } });
    const { frames } = await sse(path(plainChat), { model: "m", messages: [{ role: "user", content: "hello" }] });
    expect(frames.at(-1)).toBe("[DONE]");
    expect(frames[0]).toMatch(/^\{"id": "chatcmpl-[0-9a-f]{32}", "choices": \[\{"delta": \{"content": "Ahoy ", "role": "assistant", "function_call": null, "tool_calls": null, "reasoning_content": null\}, "finish_reason": null, "index": 0, "logprobs": null\}\], "created": \d+, "model": "model", "object": "chat.completion.chunk", "system_fingerprint": "", "usage": null\}$/);
  });

  it("checks the fields before authentication, then RAGFlow's 102 errors", async () => {
    expect((await server.rest("POST", path(plainChat), { body: { messages: [] } })).body).toEqual({ code: 101, message: "required argument are missing: model; ", data: null });
    expect((await server.rest("POST", path(plainChat), { body: { model: "m", messages: [] } })).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
    expect((await server.rest("POST", path(plainChat), { token: "nope", body: { model: "m", messages: [] } })).body).toMatchObject({ code: 109 });
    const post = (body: unknown, user = owner) => server.rest("POST", path(plainChat), { token: user.key, body });
    expect((await post({ model: "m", messages: [{ role: "user", content: "x" }], extra_body: "x" })).body).toEqual({ code: 102, message: "extra_body must be an object." });
    expect((await post({ model: "m", messages: [] })).body).toEqual({ code: 102, message: "You have to provide messages." });
    expect((await post({ model: "m", messages: [{ role: "user", content: "x" }, { role: "assistant", content: "y" }] })).body).toEqual({ code: 102, message: "The last content of this conversation is not from user." });
    expect((await post({ model: "m", messages: [{ role: "user", content: "x" }] }, stranger)).body).toEqual({ code: 102, message: `You don't own the chat ${plainChat}` });
  });
});

describe("citations on every surface", () => {
  it("GraphQL references, §8 reference.chunks and §9 reference (extra_body.reference) cite the same chunk", async () => {
    const question = "What causes tides?";
    // GraphQL: a conversation, the question, then the conversation's answer with its references.
    const created = await server.graphql<{ createConversation: { id: string } }>(`mutation($a: ID!) { createConversation(assistantId: $a) { id } }`, { a: kbChat }, owner.token);
    const conversationId = created.data!.createConversation.id;
    const asked = await server.graphql<{ ask: { answer: { id: string; status: string } } }>(
      `mutation($c: ID!, $q: String!) { ask(conversationId: $c, question: $q) { question { id content } answer { id status } } }`,
      { c: conversationId, q: question },
      owner.token,
    );
    expect(asked.data!.ask.answer.status).toBe("searching");
    let graphAnswer: { content: string; status: string; references: { index: number; documentName: string; content: string }[]; documents: { documentName: string }[] } | undefined;
    for (let i = 0; i < 200; i++) {
      const read = await server.graphql<{ conversation: { messages: NonNullable<typeof graphAnswer>[] } }>(
        `query($id: ID!) { conversation(id: $id) { messages { id content status references { index documentName content } documents { documentName } } } }`,
        { id: conversationId },
        owner.token,
      );
      graphAnswer = read.data!.conversation.messages.at(-1);
      if (["done", "stopped", "failed"].includes(graphAnswer?.status ?? "")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const graphCited = Number(/\[ID:(\d+)\]/.exec(graphAnswer!.content)![1]);
    expect(graphAnswer!.references[graphCited]).toMatchObject({ index: graphCited, documentName: "tides.txt", content: expect.stringContaining("gravitational") });
    expect(graphAnswer!.documents).toEqual([{ documentName: "tides.txt" }]);

    const sessionId = await newSession(kbChat);
    const native = await rest("POST", `/api/v1/chats/${kbChat}/completions`, { question, session_id: sessionId, stream: false });
    const nativeCited = Number(/\[ID:(\d+)\]/.exec(native.body.data.answer)![1]);
    expect(native.body.data.reference.chunks[nativeCited].content).toContain("gravitational");

    const openai = new OpenAI({ apiKey: owner.key, baseURL: `${server.url}/api/v1/chats_openai/${kbChat}` });
    const completion = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: question }], stream: false, extra_body: { reference: true } } as never);
    const message = completion.choices[0].message as unknown as { content: string; reference: { content: string; document_name: string }[] };
    const openaiCited = Number(/\[ID:(\d+)\]/.exec(message.content)![1]);
    expect(message.reference[openaiCited]).toMatchObject({ document_name: "tides.txt", content: expect.stringContaining("gravitational") });

    const stream = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: question }], stream: true, extra_body: { reference: true } } as never);
    let last: { delta: { reference?: { content: string }[]; final_content?: string } } | undefined;
    for await (const chunk of stream as unknown as AsyncIterable<{ choices: NonNullable<typeof last>[] }>) last = chunk.choices[0];
    const streamedCited = Number(/\[ID:(\d+)\]/.exec(last!.delta.final_content!)![1]);
    expect(last!.delta.reference![streamedCited].content).toContain("gravitational");
  });
});

describe("TTS", () => {
  it("refuses with 400 and a message when the tenant has no TTS model, and streams the model's audio when it has one", async () => {
    const sessionId = await newSession(plainChat);
    const answered = await rest("POST", `/api/v1/chats/${plainChat}/completions`, { question: "hello", session_id: sessionId, stream: false });
    const messageId = answered.body.data.id;
    const refused = await server.rest("POST", "/v1/chat/tts", { token: owner.token, body: { messageId } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ messageKey: "errors.conversation.ttsNotSet", message: expect.stringContaining("text-to-speech") });

    const ttsModel = await addFakeModel(server, owner, fake, "tts");
    const set = await server.graphql(`mutation($i: DefaultModelsInput!) { setDefaultModels(input: $i) { tts } }`, { i: { tts: ttsModel } }, owner.token);
    expect(set.errors).toBeUndefined();
    const response = await fetch(`${server.url}/v1/chat/tts`, { method: "POST", headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" }, body: JSON.stringify({ messageId }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(FAKE_AUDIO);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/audio/speech", body: { input: "Ahoy there, sailor!" } });

    const other = await server.rest("POST", "/v1/chat/tts", { token: stranger.token, body: { messageId } });
    expect(other.status).toBe(404);
  });

  it("gives completions of an assistant with TTS on their audio as audio_binary, hex-encoded: the whole answer, or each streamed piece", async () => {
    const ttsModel = await addFakeModel(server, owner, fake, "tts", "reading-tts");
    await server.graphql(`mutation($i: DefaultModelsInput!) { setDefaultModels(input: $i) { tts } }`, { i: { tts: ttsModel } }, owner.token);
    const speaking = (await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "You are a pirate.", parameters: [], prologue: "Arr.", tts: true } })).id;
    fake.reply = () => "Ahoy there, sailor!";
    const whole = await rest("POST", `/api/v1/chats/${speaking}/completions`, { question: "hello", session_id: await newSession(speaking), stream: false });
    expect(whole.body.data).toMatchObject({ answer: "Ahoy there, sailor!", audio_binary: FAKE_AUDIO.toString("hex") });
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/audio/speech", body: { input: "Ahoy there, sailor!" } });

    fake.requests.length = 0;
    const { json } = await sse(`/api/v1/chats/${speaking}/completions`, { question: "hello", session_id: await newSession(speaking), stream: true });
    const deltas = json.filter((f) => f.data?.final === false);
    expect(deltas.length).toBeGreaterThan(1);
    for (const delta of deltas) expect(delta.data.audio_binary).toBe(FAKE_AUDIO.toString("hex"));
    expect(fake.requests.filter((r) => r.path.endsWith("/audio/speech")).map((r) => r.body.input).join(" ")).toBe("Ahoy there, sailor!");
  });
});

describe("the share page over GraphQL", () => {
  async function asVisitor(shareToken: string, visitorId: string, query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${shareToken}`, "x-visitor-id": visitorId },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { extensions: { code: string } }[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  it("a visitor (X-Visitor-Id) chats with the shared assistant and finds only its own conversations", async () => {
    const principal = await server.services.principalFor(`Bearer ${owner.key}`);
    if (principal.kind !== "apiToken") throw new Error("no API token");
    const share = await server.services.shares.share(principal, plainChat);
    const created = await asVisitor(share.id, "visitor-a", `mutation($a: ID!) { createConversation(assistantId: $a) { id messages { role content } } }`, { a: plainChat });
    expect(created.data.createConversation.messages).toEqual([{ role: "assistant", content: "Arr." }]);
    const conversationId = created.data.createConversation.id;
    const asked = await asVisitor(share.id, "visitor-a", `mutation($c: ID!) { ask(conversationId: $c, question: "hi") { answer { id } } }`, { c: conversationId });
    expect(asked.errors).toBeUndefined();
    const mine = await asVisitor(share.id, "visitor-a", `query($a: ID!) { conversations(assistantId: $a) { id } }`, { a: plainChat });
    expect(mine.data.conversations).toEqual([{ id: conversationId }]);
    const theirs = await asVisitor(share.id, "visitor-b", `query($a: ID!) { conversations(assistantId: $a) { id } }`, { a: plainChat });
    expect(theirs.data.conversations).toEqual([]);
    const elsewhere = await asVisitor(share.id, "visitor-a", `query($a: ID!) { conversations(assistantId: $a) { id } }`, { a: kbChat });
    expect(elsewhere.errors?.[0].extensions.code).toBe("NOT_FOUND");
  });
});
