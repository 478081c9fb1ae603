import type http from "node:http";
import { sendJson, startVendorServer, unreachableUrl, neverAnswer, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { voyageAiProvider } from "./voyage-ai";

const KEY = "pa-test-key";

/** Voyage's /v1/embeddings and /v1/rerank, with its error bodies ({"detail": …}). */
function voyageHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.headers.authorization !== `Bearer ${KEY}`) return sendJson(response, 401, { detail: "Provided API key is invalid." });
  const model = request.json?.model as string;
  if (request.path === "/v1/embeddings") {
    if (!["voyage-3.5", "voyage-3.5-lite"].includes(model)) return sendJson(response, 400, { detail: `Model ${model} is not supported. Supported models are ['voyage-3.5', 'voyage-3.5-lite'].` });
    const input = request.json.input as string[];
    // Voyage numbers its answers; the order of the list is not promised.
    const data = input.map((text, index) => ({ object: "embedding", embedding: [text.length, request.json.input_type === "query" ? 1 : 0], index })).reverse();
    return sendJson(response, 200, { object: "list", data, model, usage: { total_tokens: input.length * 3 } });
  }
  if (request.path === "/v1/rerank") {
    const documents = request.json.documents as string[];
    const data = documents.map((d, index) => ({ index, relevance_score: d.length / 100 })).sort((a, b) => b.relevance_score - a.relevance_score);
    return sendJson(response, 200, { object: "list", data, model, usage: { total_tokens: 42 } });
  }
  return sendJson(response, 404, { detail: "Not Found" });
}

describe("Voyage AI", () => {
  let server: VendorServer;
  const credentials = () => ({ apiKey: KEY, baseUrl: `${server.url}/v1` });

  beforeAll(async () => {
    server = await startVendorServer(voyageHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(voyageHandler));

  it("embeds in batches of 128 with the input type, and puts numbered answers back in order", async () => {
    const embedding = voyageAiProvider().create("embedding", { modelName: "voyage-3.5", credentials: credentials() });
    const texts = Array.from({ length: 130 }, (_, i) => "t".repeat((i % 7) + 1));
    const before = server.requests.length;
    const result = await embedding.embed(texts, { purpose: "document" });
    const calls = server.requests.slice(before);
    expect(calls.map((c) => c.json.input.length)).toEqual([128, 2]);
    expect(calls[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(calls[0].json).toMatchObject({ model: "voyage-3.5", input_type: "document", truncation: true });
    expect(result.vectors).toEqual(texts.map((t) => [t.length, 0]));
    expect(result.usage).toEqual({ promptTokens: 390, completionTokens: 0, totalTokens: 390 });
    await expect(embedding.embed(["who?"], { purpose: "query" })).resolves.toMatchObject({ vectors: [[4, 1]] });
    expect(server.last().json.input_type).toBe("query");
  });

  it("reranks with scores in the documents' order and the tokens used", async () => {
    const rerank = voyageAiProvider().create("rerank", { modelName: "rerank-2.5", credentials: credentials() });
    const result = await rerank.rerank("q", ["ab", "abcdef", "a"]);
    expect(server.last().path).toBe("/v1/rerank");
    expect(server.last().json).toEqual({ model: "rerank-2.5", query: "q", documents: ["ab", "abcdef", "a"], truncation: true });
    expect(result).toEqual({ scores: [0.02, 0.06, 0.01], usage: { promptTokens: 42, completionTokens: 0, totalTokens: 42 } });
  });

  it("maps a bad key, an unsupported model (Voyage's 400), rate limits, time-outs and an unreachable server", async () => {
    const embed = (modelName = "voyage-3.5", creds = credentials(), timeoutMs = 2_000) => voyageAiProvider({ timeoutMs }).create("embedding", { modelName, credentials: creds }).embed(["x"]);
    await expect(embed("voyage-3.5", { ...credentials(), apiKey: "bad" })).rejects.toMatchObject({ reason: "auth", params: { detail: "HTTP 401: Provided API key is invalid." } });
    await expect(embed("voyage-99")).rejects.toMatchObject({ reason: "notFound", params: { detail: expect.stringContaining("voyage-99 is not supported") } });
    server.handle((_, response) => sendJson(response, 429, { detail: "You have exceeded your TPM rate limit." }));
    await expect(embed()).rejects.toMatchObject({ reason: "quota" });
    server.handle((_, response) => sendJson(response, 400, { detail: "Request to model 'voyage-3.5' failed. The max allowed tokens per submitted batch is 320000." }));
    await expect(embed()).rejects.toMatchObject({ reason: "badRequest" });
    server.handle(neverAnswer);
    await expect(embed("voyage-3.5", credentials(), 200)).rejects.toMatchObject({ reason: "timeout" });
    await expect(embed("voyage-3.5", { apiKey: KEY, baseUrl: await unreachableUrl() })).rejects.toMatchObject({ reason: "network" });
  });
});
