import type http from "node:http";
import { completeChat } from "../model-types";
import { collect, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { cohereProvider } from "./cohere";

const KEY = "co-test-key";
const MODELS = ["command-r-08-2024", "embed-multilingual-v3.0", "rerank-v3.5"];
const DELTAS = ["Bon", "jour ", "à ", "tous", " 👋"];

/** Cohere's v2 API as documented: bearer key, SSE chat stream of typed events, embed and rerank. */
function cohereHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.headers.authorization !== `Bearer ${KEY}`) return sendJson(response, 401, { id: "e1", message: "invalid api token" });
  if (!MODELS.includes(request.json?.model)) {
    return sendJson(response, 404, { id: "e2", message: `model '${request.json?.model}' not found, make sure the correct model ID was used and that you have access to the model.` });
  }
  if (request.path === "/v2/chat") {
    const events = [
      { event: "message-start", data: { id: "m1", type: "message-start", delta: { message: { role: "assistant", content: [] } } } },
      { event: "content-start", data: { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } } },
      ...DELTAS.map((text) => ({ event: "content-delta", data: { type: "content-delta", index: 0, delta: { message: { content: { text } } } } })),
      { event: "content-end", data: { type: "content-end", index: 0 } },
      {
        event: "message-end",
        data: { type: "message-end", delta: { finish_reason: "MAX_TOKENS", usage: { billed_units: { input_tokens: 9, output_tokens: 5 }, tokens: { input_tokens: 71, output_tokens: 5 } } } },
      },
    ];
    return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody(events), { pieceSize: 13 });
  }
  if (request.path === "/v2/embed") {
    const texts = request.json.texts as string[];
    return sendJson(response, 200, {
      id: "emb",
      embeddings: { float: texts.map((t) => [t.length, request.json.input_type === "search_query" ? 1 : 0]) },
      texts,
      meta: { api_version: { version: "2" }, billed_units: { input_tokens: texts.length * 2 } },
    });
  }
  if (request.path === "/v2/rerank") {
    const documents = request.json.documents as string[];
    const scored = documents.map((d, index) => ({ index, relevance_score: d.includes(request.json.query) ? 0.91 : 0.02 }));
    scored.sort((a, b) => b.relevance_score - a.relevance_score);
    return sendJson(response, 200, { id: "r", results: scored.slice(0, request.json.top_n), meta: { billed_units: { search_units: 1 } } });
  }
  return sendJson(response, 404, { message: "Not Found" });
}

describe("Cohere", () => {
  let server: VendorServer;
  const provider = (timeoutMs = 2_000) => cohereProvider({ timeoutMs });
  const credentials = () => ({ apiKey: KEY, baseUrl: server.url });

  beforeAll(async () => {
    server = await startVendorServer(cohereHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(cohereHandler));

  it("asks for an API key and a base URL defaulting to api.cohere.com", () => {
    expect(cohereProvider().credentialFields).toEqual([
      expect.objectContaining({ key: "apiKey", type: "secret", required: true }),
      expect.objectContaining({ key: "baseUrl", type: "url", required: false, default: "https://api.cohere.com" }),
    ]);
  });

  it("streams chat v2 events: text from content-delta, reason and tokens from message-end", async () => {
    const chat = provider().create("chat", { modelName: "command-r-08-2024", credentials: credentials() });
    const events = await collect(
      chat.stream(
        [
          { role: "system", content: "Be kind." },
          { role: "user", content: "Salut" },
        ],
        { temperature: 0.4, topP: 0.75, maxTokens: 5, stop: ["###"], frequencyPenalty: 0.1 },
      ),
    );
    const request = server.last();
    expect(request.path).toBe("/v2/chat");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.json).toEqual({
      model: "command-r-08-2024",
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "Salut" },
      ],
      stream: true,
      temperature: 0.4,
      p: 0.75,
      max_tokens: 5,
      stop_sequences: ["###"],
      frequency_penalty: 0.1,
    });
    expect(events).toEqual([
      ...DELTAS.map((text) => ({ type: "delta", text })),
      { type: "finish", reason: "length" },
      { type: "usage", usage: { promptTokens: 71, completionTokens: 5, totalTokens: 76 } },
    ]);
  });

  it("embeds documents and queries with their input types, 96 texts per call", async () => {
    const embedding = provider().create("embedding", { modelName: "embed-multilingual-v3.0", credentials: credentials() });
    const texts = Array.from({ length: 97 }, (_, i) => `doc ${i}`);
    const before = server.requests.length;
    const result = await embedding.embed(texts, { purpose: "document" });
    const calls = server.requests.slice(before);
    expect(calls.map((c) => [c.path, c.json.texts.length])).toEqual([
      ["/v2/embed", 96],
      ["/v2/embed", 1],
    ]);
    expect(calls[0].json).toMatchObject({ model: "embed-multilingual-v3.0", input_type: "search_document", embedding_types: ["float"], truncate: "END" });
    expect(result.vectors).toEqual(texts.map((t) => [t.length, 0]));
    expect(result.usage).toEqual({ promptTokens: 194, completionTokens: 0, totalTokens: 194 });
    await expect(embedding.embed(["q?"], { purpose: "query" })).resolves.toMatchObject({ vectors: [[2, 1]] });
    expect(server.last().json.input_type).toBe("search_query");
  });

  it("reranks and gives the scores back in the documents' order", async () => {
    const rerank = provider().create("rerank", { modelName: "rerank-v3.5", credentials: credentials() });
    const result = await rerank.rerank("otter", ["a cat", "the otter swims", "dogs"]);
    expect(server.last().json).toEqual({ model: "rerank-v3.5", query: "otter", documents: ["a cat", "the otter swims", "dogs"], top_n: 3 });
    expect(result.scores).toEqual([0.02, 0.91, 0.02]);
  });

  it("maps a bad key, an unknown model, rate limits, time-outs and an unreachable server", async () => {
    const ask = (p = provider(), creds = credentials(), model = "command-r-08-2024") => completeChat(p.create("chat", { modelName: model, credentials: creds }), [{ role: "user", content: "Hi" }]);
    await expect(ask(provider(), { ...credentials(), apiKey: "wrong" })).rejects.toMatchObject({ reason: "auth", params: { provider: "Cohere", detail: "HTTP 401: invalid api token" } });
    await expect(ask(provider(), credentials(), "command-z")).rejects.toMatchObject({ reason: "notFound", params: { detail: expect.stringContaining("model 'command-z' not found") } });
    server.handle((_, response) => sendJson(response, 429, { message: "You are using a Trial key, which is limited to 10 API calls / minute." }));
    await expect(ask()).rejects.toMatchObject({ reason: "quota", params: { detail: expect.stringContaining("Trial key") } });
    server.handle(neverAnswer);
    await expect(ask(provider(200))).rejects.toMatchObject({ reason: "timeout" });
    await expect(ask(provider(), { apiKey: KEY, baseUrl: await unreachableUrl() })).rejects.toMatchObject({ reason: "network", params: { detail: "ECONNREFUSED" } });
  });

  it("fails the stream when Cohere ends the message with an error", async () => {
    server.handle((_, response) =>
      writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody([
        { event: "content-delta", data: { type: "content-delta", index: 0, delta: { message: { content: { text: "Part" } } } } },
        { event: "message-end", data: { type: "message-end", delta: { finish_reason: "ERROR", error: "internal model failure" } } },
      ])),
    );
    const chat = provider().create("chat", { modelName: "command-r-08-2024", credentials: credentials() });
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({ reason: "unavailable", params: { detail: "internal model failure" } });
  });
});
