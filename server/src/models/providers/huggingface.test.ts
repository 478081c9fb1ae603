import type http from "node:http";
import { completeChat } from "../model-types";
import { collect, failure, sendJson, sseBody, startVendorServer, unreachableUrl, neverAnswer, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { findProvider } from "./registry";
import { huggingFaceProvider } from "./huggingface";

const KEY = "hf_test_key";
/** TEI's default --max-client-batch-size. */
const MAX_BATCH = 32;

/** TEI's error body: {error, error_type}. */
function teiError(response: http.ServerResponse, status: number, error: string, errorType: string) {
  sendJson(response, status, { error, error_type: errorType });
}

/**
 * Text Embeddings Inference as its router serves it (started with --api-key): POST /embed {inputs} →
 * [[floats]], POST /rerank {query, texts} → [{index, score}] sorted by score, token counts in
 * x-compute-tokens, 413 past the client batch size; and TGI's /v1/chat/completions on the same address.
 */
function teiHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.headers.authorization !== `Bearer ${KEY}`) {
    response.writeHead(401).end();
    return;
  }
  if (request.path === "/embed") {
    const inputs = request.json.inputs as string[];
    if (inputs.length > MAX_BATCH) return teiError(response, 413, `batch size ${inputs.length} > maximum allowed batch size ${MAX_BATCH}`, "validation");
    if (inputs.some((text) => text === "")) return teiError(response, 400, "`inputs` cannot be empty", "empty");
    return sendJson(
      response,
      200,
      inputs.map((text) => [text.length, 1]),
      { "x-compute-tokens": String(inputs.length * 2) },
    );
  }
  if (request.path === "/rerank") {
    const texts = request.json.texts as string[];
    if (texts.length > MAX_BATCH) return teiError(response, 413, `batch size ${texts.length} > maximum allowed batch size ${MAX_BATCH}`, "validation");
    const ranks = texts.map((text, index) => ({ index, score: text.includes(request.json.query) ? 0.97 : text.length / 1000 })).sort((a, b) => b.score - a.score);
    return sendJson(response, 200, ranks, { "x-compute-tokens": String(texts.length * 5) });
  }
  if (request.path === "/v1/chat/completions") {
    const chunk = (content: string, finish: string | null) => ({
      object: "chat.completion.chunk",
      id: "",
      created: 1_700_000_000,
      model: "tgi",
      system_fingerprint: "2.0.4-sha-f426a33",
      choices: [{ index: 0, delta: { role: "assistant", content }, logprobs: null, finish_reason: finish }],
    });
    response.writeHead(200, { "content-type": "text/event-stream" });
    // Older TGI releases end with "eos_token" where OpenAI says "stop".
    response.end(sseBody([{ data: chunk("Bonjour", null) }, { data: chunk(" !", "eos_token") }, "[DONE]"]));
    return;
  }
  return sendJson(response, 404, { error: "Not Found", error_type: "not_found" });
}

describe("HuggingFace (Text Embeddings Inference, Text Generation Inference)", () => {
  let server: VendorServer;
  const provider = (timeoutMs = 2_000) => huggingFaceProvider({ timeoutMs });
  const credentials = (extra: Record<string, string> = {}) => ({ apiKey: KEY, baseUrl: server.url, ...extra });

  beforeAll(async () => {
    server = await startVendorServer(teiHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(teiHandler));

  it("is in the registry under RAGFlow's name, needing a base URL and no key", () => {
    expect(findProvider("huggingface")?.name).toBe("HuggingFace");
    expect(huggingFaceProvider().credentialFields).toEqual([
      expect.objectContaining({ key: "apiKey", type: "secret", required: false }),
      expect.objectContaining({ key: "baseUrl", type: "url", required: true }),
    ]);
    expect(huggingFaceProvider().modelTypes).toEqual(["chat", "embedding", "rerank"]);
  });

  it("embeds through /embed in batches of 32, empty texts as a space, with the tokens TEI counted", async () => {
    const embedding = provider().create("embedding", { modelName: "BAAI/bge-m3", credentials: credentials() });
    const texts = Array.from({ length: 40 }, (_, i) => "w".repeat(i % 5));
    const before = server.requests.length;
    const result = await embedding.embed(texts, { purpose: "document" });
    const calls = server.requests.slice(before);
    expect(calls.map((c) => [c.path, c.json.inputs.length])).toEqual([
      ["/embed", 32],
      ["/embed", 8],
    ]);
    expect(calls[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(calls[0].json).toEqual({ inputs: texts.slice(0, 32).map((t) => t || " "), truncate: true });
    expect(result.vectors).toEqual(texts.map((t) => [Math.max(t.length, 1), 1]));
    expect(result.usage).toEqual({ promptTokens: 80, completionTokens: 0, totalTokens: 80 });
  });

  it("takes an address copied with /v1 for the server's root", async () => {
    const embedding = provider().create("embedding", { modelName: "m", credentials: credentials({ baseUrl: `${server.url}/v1/` }) });
    await expect(embedding.embed(["hi"])).resolves.toMatchObject({ vectors: [[2, 1]] });
    expect(server.last().path).toBe("/embed");
  });

  it("reranks through /rerank in batches, putting TEI's sorted answers back in the documents' order", async () => {
    const rerank = provider().create("rerank", { modelName: "BAAI/bge-reranker-v2-m3", credentials: credentials() });
    const documents = Array.from({ length: 40 }, (_, i) => (i === 35 ? "about tides and the moon" : "x".repeat(i + 1)));
    const before = server.requests.length;
    const result = await rerank.rerank("tides", documents);
    const calls = server.requests.slice(before);
    expect(calls.map((c) => c.json.texts.length)).toEqual([32, 8]);
    expect(calls[1].json).toEqual({ query: "tides", texts: documents.slice(32), raw_scores: false, truncate: true });
    expect(result.scores).toEqual(documents.map((d, i) => (i === 35 ? 0.97 : d.length / 1000)));
    expect(result.usage).toEqual({ promptTokens: 200, completionTokens: 0, totalTokens: 200 });
  });

  it("sends no Authorization header to a server started without --api-key", async () => {
    server.handle((_, response) => sendJson(response, 200, [{ index: 0, score: 0.5 }]));
    const rerank = provider().create("rerank", { modelName: "m", credentials: { baseUrl: server.url } });
    await expect(rerank.rerank("q", ["d"])).resolves.toMatchObject({ scores: [0.5] });
    expect(server.last().headers.authorization).toBeUndefined();
  });

  it("chats through Text Generation Inference's /v1/chat/completions", async () => {
    const chat = provider().create("chat", { modelName: "tgi", credentials: credentials() });
    const events = await collect(chat.stream([{ role: "user", content: "Salut" }], { temperature: 0.2 }));
    expect(server.last().path).toBe("/v1/chat/completions");
    expect(server.last().json).toMatchObject({ model: "tgi", messages: [{ role: "user", content: "Salut" }], stream: true, temperature: 0.2 });
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("")).toBe("Bonjour !");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
    await expect(completeChat(chat, [{ role: "user", content: "Salut" }])).resolves.toMatchObject({ text: "Bonjour !" });
  });

  it("reports TEI's errors in its own words: a bad key, a model that is no reranker, a full queue, a batch too large", async () => {
    const rerank = (creds = credentials(), timeoutMs = 2_000) => provider(timeoutMs).create("rerank", { modelName: "m", credentials: creds }).rerank("q", ["d"]);
    expect((await failure(rerank(credentials({ apiKey: "wrong" })))).reason).toBe("auth");
    server.handle((_, response) => teiError(response, 424, "model is not a re-ranker model", "backend"));
    expect(await failure(rerank())).toMatchObject({ reason: "badRequest", params: { provider: "HuggingFace", detail: "HTTP 424: model is not a re-ranker model" } });
    server.handle((_, response) => teiError(response, 429, "Model is overloaded", "overloaded"));
    expect((await failure(rerank())).reason).toBe("unavailable");
    server.handle((_, response) => teiError(response, 413, "batch size 64 > maximum allowed batch size 32", "validation"));
    expect(await failure(rerank())).toMatchObject({ reason: "badRequest", params: { detail: expect.stringContaining("maximum allowed batch size") } });
    server.handle((_, response) => sendJson(response, 200, { results: "not TEI" }));
    expect((await failure(rerank())).reason).toBe("badRequest");
    server.handle((_, response) => sendJson(response, 200, [[1, 2]]));
    const embed = provider().create("embedding", { modelName: "m", credentials: credentials() });
    expect((await failure(embed.embed(["a", "b"]))).reason).toBe("badRequest");
    server.handle(neverAnswer);
    expect((await failure(rerank(credentials(), 200))).reason).toBe("timeout");
    expect((await failure(rerank(credentials({ baseUrl: await unreachableUrl() })))).reason).toBe("network");
  });

  it("refuses to call without a base URL", () => {
    expect(() => provider().create("rerank", { modelName: "m", credentials: {} })).toThrow(expect.objectContaining({ reason: "badRequest" }));
  });
});
