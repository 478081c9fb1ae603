import type { ChatEvent, ChatModel } from "../model-types";
import { collect, failure, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { gemini, GeminiChatModel } from "./gemini";

const KEY = "AIzaSy-test-0123456789";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let server: VendorServer;

beforeAll(async () => {
  server = await startVendorServer(neverAnswer);
});
afterAll(() => server.close());

/** streamGenerateContent?alt=sse: each chunk has new text and the usage so far; the last has the finish reason. */
function generateStream(texts: string[], finishReason = "STOP") {
  return sseBody(
    texts.map((text, i) => ({
      data: {
        candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0, ...(i === texts.length - 1 ? { finishReason } : {}) }],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: i + 1, thoughtsTokenCount: 4, totalTokenCount: 9 + 4 + i + 1 },
        modelVersion: "gemini-2.5-flash",
      },
    })),
  );
}

function chat(model = "gemini-2.5-flash", credentials: Record<string, string> = {}): ChatModel {
  return gemini.create("chat", { modelName: model, credentials: { apiKey: KEY, baseUrl: server.url, ...credentials } });
}

describe("Gemini", () => {
  it("streams generateContent over SSE with roles user/model, the system instruction apart, and the last usage", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, generateStream(["Hallo", " Welt", " ✓"]), { pieceSize: 17 }));
    const events = await collect(
      chat().stream(
        [
          { role: "system", content: "Answer in German." },
          { role: "user", content: "Say hello" },
          { role: "assistant", content: "Hallo" },
          { role: "user", content: "To the world" },
        ],
        { temperature: 0.4, topP: 0.95, maxTokens: 300, stop: ["END"], presencePenalty: 0.5 },
      ),
    );
    expect(events).toEqual<ChatEvent[]>([
      { type: "delta", text: "Hallo" },
      { type: "delta", text: " Welt" },
      { type: "delta", text: " ✓" },
      // Thinking tokens are output tokens.
      { type: "usage", usage: { promptTokens: 9, completionTokens: 7, totalTokens: 16 } },
      { type: "finish", reason: "stop" },
    ]);
    const request = server.last();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(request.query.get("alt")).toBe("sse");
    expect(request.headers["x-goog-api-key"]).toBe(KEY);
    expect(request.query.get("key")).toBeNull();
    expect(request.json).toEqual({
      contents: [
        { role: "user", parts: [{ text: "Say hello" }] },
        { role: "model", parts: [{ text: "Hallo" }] },
        { role: "user", parts: [{ text: "To the world" }] },
      ],
      systemInstruction: { parts: [{ text: "Answer in German." }] },
      generationConfig: { temperature: 0.4, topP: 0.95, maxOutputTokens: 300, stopSequences: ["END"] },
    });
  });

  it("maps MAX_TOKENS to length and SAFETY to content_filter", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, generateStream(["cut"], "MAX_TOKENS"), { pieceSize: 512 }));
    expect((await collect(chat().stream([{ role: "user", content: "Hi" }]))).at(-1)).toEqual({ type: "finish", reason: "length" });
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, generateStream([""], "SAFETY"), { pieceSize: 512 }));
    expect((await collect(chat().stream([{ role: "user", content: "Hi" }]))).at(-1)).toEqual({ type: "finish", reason: "content_filter" });
  });

  it("describes an image sent as inline data", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, generateStream(["One pixel."]), { pieceSize: 512 }));
    const result = await gemini.create("img2txt", { modelName: "models/gemini-2.0-flash", credentials: { apiKey: KEY, baseUrl: server.url } }).describe({ data: PNG, mimeType: "image/png" }, { prompt: "What?" });
    expect(result.text).toBe("One pixel.");
    // Google's "models/" prefix is accepted and not doubled.
    expect(server.last().path).toBe("/v1beta/models/gemini-2.0-flash:streamGenerateContent");
    // Images before the text, as Google advises and as Vertex AI sends them (one geminiContents for both).
    expect(server.last().json.contents).toEqual([{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: PNG.toString("base64") } }, { text: "What?" }] }]);
  });

  it("embeds a batch with batchEmbedContents, telling queries from documents", async () => {
    server.handle((request, response) =>
      sendJson(response, 200, { embeddings: (request.json.requests as { content: { parts: { text: string }[] } }[]).map((r) => ({ values: [r.content.parts[0].text.length, 0.5] })) }),
    );
    const embedding = gemini.create("embedding", { modelName: "gemini-embedding-001", credentials: { apiKey: KEY, baseUrl: server.url } });
    expect(await embedding.embed(["one", "three"], { purpose: "query" })).toEqual({ vectors: [[3, 0.5], [5, 0.5]] });
    const request = server.last();
    expect(request.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(request.headers["x-goog-api-key"]).toBe(KEY);
    expect(request.json).toEqual({
      requests: [
        { model: "models/gemini-embedding-001", content: { parts: [{ text: "one" }] }, taskType: "RETRIEVAL_QUERY" },
        { model: "models/gemini-embedding-001", content: { parts: [{ text: "three" }] }, taskType: "RETRIEVAL_QUERY" },
      ],
    });
    await embedding.embed(["doc"], { purpose: "document" });
    expect(server.last().json.requests[0].taskType).toBe("RETRIEVAL_DOCUMENT");
  });

  it.each([
    [400, "auth", { error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", details: [{ reason: "API_KEY_INVALID" }] } }],
    [400, "badRequest", { error: { code: 400, message: "Invalid JSON payload received.", status: "INVALID_ARGUMENT" } }],
    [403, "auth", { error: { code: 403, message: "Permission denied", status: "PERMISSION_DENIED" } }],
    [429, "quota", { error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } }],
    [404, "notFound", { error: { code: 404, message: "models/gemini-9 is not found for API version v1beta", status: "NOT_FOUND" } }],
  ])("HTTP %i is reported as %s, with the vendor's message", async (status, reason, body) => {
    server.handle((_, response) => sendJson(response, status, body));
    const error = await failure(collect(chat().stream([{ role: "user", content: "Hi" }])));
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(body.error.message);
  });

  it("a server that never answers times out; an address where nothing listens is a network failure", async () => {
    server.handle(neverAnswer);
    const slow = new GeminiChatModel({ baseUrl: server.url, apiKey: KEY, model: "gemini-2.5-flash", timeoutMs: 150 });
    expect((await failure(collect(slow.stream([{ role: "user", content: "Hi" }])))).reason).toBe("timeout");
    expect((await failure(collect(chat("gemini-2.5-flash", { baseUrl: await unreachableUrl() }).stream([{ role: "user", content: "Hi" }])))).reason).toBe("network");
  });
});
