import type http from "node:http";
import { completeChat } from "../model-types";
import { collect, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { baiduYiyanProvider, ernieMessages } from "./baidu-yiyan";

const API_KEY = "baidu-api-key";
const SECRET_KEY = "baidu-secret-key";
const RESULTS = ["你好！", "我是文心一言，", "很高兴为你服务。"];

let tokenCount = 0;
const validTokens = new Set<string>();

/** aip.baidubce.com: the OAuth token endpoint and the wenxinworkshop chat, embedding and reranker endpoints. */
function baiduHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.path === "/oauth/2.0/token") {
    const q = request.query;
    if (q.get("grant_type") !== "client_credentials") return sendJson(response, 400, { error: "unsupported_grant_type", error_description: "unsupported grant type" });
    if (q.get("client_id") !== API_KEY) return sendJson(response, 400, { error: "invalid_client", error_description: "unknown client id" });
    if (q.get("client_secret") !== SECRET_KEY) return sendJson(response, 401, { error: "invalid_client", error_description: "Client authentication failed" });
    const token = `24.token${++tokenCount}.2592000.1700000000.282335-12345678`;
    validTokens.add(token);
    return sendJson(response, 200, { refresh_token: "25.r", expires_in: 2_592_000, session_key: "s", access_token: token, scope: "public brain_all_scope", session_secret: "x" });
  }
  if (!validTokens.has(request.query.get("access_token") ?? "")) return sendJson(response, 200, { error_code: 111, error_msg: "Access token expired" });
  const [, , , , , , kind, endpoint] = request.path.split("/");
  if (kind === "chat") {
    if (endpoint !== "completions_pro") return sendJson(response, 200, { error_code: 3, error_msg: "Unsupported openapi method" });
    const chunks = RESULTS.map((result, i) => ({
      id: "as-abc",
      object: "chat.completion",
      created: 1_700_000_000,
      sentence_id: i,
      is_end: i === RESULTS.length - 1,
      is_truncated: false,
      result,
      need_clear_history: false,
      ...(i === RESULTS.length - 1 ? { finish_reason: "normal" } : {}),
      usage: { prompt_tokens: 6, completion_tokens: 3 * (i + 1), total_tokens: 6 + 3 * (i + 1) },
    }));
    return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody(chunks.map((data) => ({ data }))), { pieceSize: 17 });
  }
  if (kind === "embeddings" && endpoint === "embedding-v1") {
    const input = request.json.input as string[];
    return sendJson(response, 200, { id: "e", object: "embedding_list", data: input.map((t, index) => ({ object: "embedding", embedding: [t.length], index })), usage: { prompt_tokens: input.length, total_tokens: input.length } });
  }
  if (kind === "reranker" && endpoint === "bce_reranker_base") {
    const documents = request.json.documents as string[];
    return sendJson(response, 200, {
      id: "r",
      results: documents.map((document, index) => ({ document, index, relevance_score: document.includes(request.json.query) ? 0.8 : 0.1 })).sort((a, b) => b.relevance_score - a.relevance_score),
      usage: { prompt_tokens: 30, total_tokens: 30 },
    });
  }
  return sendJson(response, 200, { error_code: 3, error_msg: "Unsupported openapi method" });
}

describe("Baidu ERNIE (BaiduYiyan)", () => {
  let server: VendorServer;
  const credentials = { apiKey: API_KEY, secretKey: SECRET_KEY };
  const provider = (timeoutMs = 2_000) => baiduYiyanProvider({ baseUrl: server.url, timeoutMs });

  beforeAll(async () => {
    server = await startVendorServer(baiduHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(baiduHandler));

  it("buys an access token with the API key and secret key, then streams ERNIE with it", async () => {
    const chat = provider().create("chat", { modelName: "ERNIE-4.0-8K", credentials });
    const before = server.requests.length;
    const events = await collect(
      chat.stream(
        [
          { role: "system", content: "你是助手" },
          { role: "user", content: "你好" },
          { role: "user", content: "介绍一下你自己" },
        ],
        { temperature: 0, topP: 0.8, maxTokens: 100 },
      ),
    );
    const [tokenCall, chatCall] = server.requests.slice(before);
    expect(tokenCall.method).toBe("POST");
    expect(tokenCall.path).toBe("/oauth/2.0/token");
    expect(Object.fromEntries(tokenCall.query)).toEqual({ grant_type: "client_credentials", client_id: API_KEY, client_secret: SECRET_KEY });
    expect(chatCall.path).toBe("/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro");
    expect(chatCall.query.get("access_token")).toMatch(/^24\.token\d+\./);
    expect(chatCall.json).toEqual({ messages: [{ role: "user", content: "你好\n\n介绍一下你自己" }], system: "你是助手", stream: true, temperature: 0.01, top_p: 0.8, max_output_tokens: 100 });
    expect(events).toEqual([
      ...RESULTS.map((text) => ({ type: "delta", text })),
      { type: "finish", reason: "stop" },
      { type: "usage", usage: { promptTokens: 6, completionTokens: 9, totalTokens: 15 } },
    ]);
  });

  it("keeps the token for later calls and renews it once when Baidu says it expired", async () => {
    const embedding = provider().create("embedding", { modelName: "Embedding-V1", credentials });
    await embedding.embed(["warm"]);
    const before = server.requests.length;
    await embedding.embed(["a"]);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(["/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1"]);

    validTokens.clear(); // Baidu revoked every token
    const renewed = server.requests.length;
    await expect(embedding.embed(["bb"])).resolves.toMatchObject({ vectors: [[2]] });
    expect(server.requests.slice(renewed).map((r) => r.path)).toEqual([
      "/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1",
      "/oauth/2.0/token",
      "/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1",
    ]);
  });

  it("embeds 16 texts per call in order, and reranks with the bce reranker", async () => {
    const embedding = provider().create("embedding", { modelName: "Embedding-V1", credentials });
    const texts = Array.from({ length: 17 }, (_, i) => "字".repeat(i + 1));
    const before = server.requests.length;
    const result = await embedding.embed(texts);
    expect(server.requests.slice(before).filter((r) => r.path.includes("embeddings")).map((r) => r.json.input.length)).toEqual([16, 1]);
    expect(result.vectors).toEqual(texts.map((t) => [t.length]));
    expect(result.usage).toEqual({ promptTokens: 17, completionTokens: 0, totalTokens: 17 });

    const rerank = provider().create("rerank", { modelName: "bce-reranker-base_v1", credentials });
    const ranked = await rerank.rerank("北京", ["上海天气", "北京天气"]);
    expect(server.last().json).toEqual({ query: "北京", documents: ["上海天气", "北京天气"], top_n: 2 });
    expect(ranked.scores).toEqual([0.1, 0.8]);
  });

  it("maps a wrong secret key, an unknown API key, an unknown model, limits, time-outs and the network", async () => {
    const ask = (creds: Record<string, string> = credentials, model = "ERNIE-4.0-8K", p = provider()) => completeChat(p.create("chat", { modelName: model, credentials: creds }), [{ role: "user", content: "hi" }]);
    await expect(ask({ ...credentials, secretKey: "wrong" })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("Client authentication failed") } });
    await expect(ask({ ...credentials, apiKey: "nobody" })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("unknown client id") } });
    await expect(ask(credentials, "ERNIE-9")).rejects.toMatchObject({ reason: "notFound", params: { detail: "3: Unsupported openapi method" } });
    server.handle((request, response) => (request.path.startsWith("/oauth") ? baiduHandler(request, response) : sendJson(response, 200, { error_code: 18, error_msg: "Open api qps request limit reached" })));
    await expect(ask()).rejects.toMatchObject({ reason: "quota" });
    server.handle((request, response) => (request.path.startsWith("/oauth") ? baiduHandler(request, response) : sendJson(response, 200, { error_code: 17, error_msg: "Open api daily request limit reached" })));
    await expect(provider().create("embedding", { modelName: "Embedding-V1", credentials }).embed(["x"])).rejects.toMatchObject({ reason: "quota" });
    server.handle((request, response) => (request.path.startsWith("/oauth") ? baiduHandler(request, response) : neverAnswer(request, response)));
    await expect(ask(credentials, "ERNIE-4.0-8K", provider(200))).rejects.toMatchObject({ reason: "timeout" });
    const offline = baiduYiyanProvider({ baseUrl: await unreachableUrl() });
    await expect(ask(credentials, "ERNIE-4.0-8K", offline)).rejects.toMatchObject({ reason: "network" });
  });

  it("turns any conversation into ERNIE's alternating, user-first shape", () => {
    expect(
      ernieMessages([
        { role: "system", content: "S" },
        { role: "assistant", content: "Hello! How can I help?" },
        { role: "user", content: "A" },
        { role: "assistant", content: "B" },
        { role: "assistant", content: "C" },
        { role: "user", content: "D" },
      ]),
    ).toEqual({
      system: "S\n\nHello! How can I help?",
      messages: [
        { role: "user", content: "A" },
        { role: "assistant", content: "B\n\nC" },
        { role: "user", content: "D" },
      ],
    });
  });
});
