import type { ChatEvent, ChatModel } from "../model-types";
import { collect, failure, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { anthropic, AnthropicChatModel } from "./anthropic";

const KEY = "sk-ant-test-0123456789";
const MODEL = "claude-sonnet-4-5-20250929";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let server: VendorServer;

beforeAll(async () => {
  server = await startVendorServer(neverAnswer);
});
afterAll(() => server.close());

/** A Messages stream as Anthropic sends it: named events, a ping, text deltas, usage at start and end. */
function messageStream(texts: string[], options: { stopReason?: string; thinking?: string[] } = {}) {
  const thinking = options.thinking ?? [];
  const textIndex = thinking.length > 0 ? 1 : 0;
  return sseBody([
    { event: "message_start", data: { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: MODEL, content: [], stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } } } },
    ...(thinking.length > 0
      ? [
          { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } } },
          ...thinking.map((t) => ({ event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: t } } })),
          { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } } },
          { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
        ]
      : []),
    { event: "content_block_start", data: { type: "content_block_start", index: textIndex, content_block: { type: "text", text: "" } } },
    { event: "ping", data: { type: "ping" } },
    ...texts.map((text) => ({ event: "content_block_delta", data: { type: "content_block_delta", index: textIndex, delta: { type: "text_delta", text } } })),
    { event: "content_block_stop", data: { type: "content_block_stop", index: textIndex } },
    { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: options.stopReason ?? "end_turn", stop_sequence: null }, usage: { output_tokens: 15 } } },
    { event: "message_stop", data: { type: "message_stop" } },
  ]);
}

function chat(credentials: Record<string, string> = {}): ChatModel {
  return anthropic.create("chat", { modelName: MODEL, credentials: { apiKey: KEY, baseUrl: server.url, ...credentials } });
}

describe("Anthropic Messages", () => {
  it("streams text deltas split across writes, then the usage of message_start and message_delta and the stop reason", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, messageStream(["Bonjour", ", le ", "monde ✓"]), { pieceSize: 23 }));
    const events = await collect(
      chat().stream(
        [
          { role: "system", content: "Answer in French." },
          { role: "user", content: "Say hello" },
          { role: "assistant", content: "Bonjour" },
          { role: "user", content: "Again, to the world" },
        ],
        { temperature: 0.3, topP: 0.8, maxTokens: 256, stop: ["###"] },
      ),
    );
    expect(events).toEqual<ChatEvent[]>([
      { type: "delta", text: "Bonjour" },
      { type: "delta", text: ", le " },
      { type: "delta", text: "monde ✓" },
      { type: "usage", usage: { promptTokens: 25, completionTokens: 15, totalTokens: 40 } },
      { type: "finish", reason: "stop" },
    ]);
    const request = server.last();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe(KEY);
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.headers.authorization).toBeUndefined();
    // The system prompt is top-level; temperature wins over top_p, which recent models refuse together.
    expect(request.json).toEqual({
      model: MODEL,
      max_tokens: 256,
      system: "Answer in French.",
      messages: [
        { role: "user", content: "Say hello" },
        { role: "assistant", content: "Bonjour" },
        { role: "user", content: "Again, to the world" },
      ],
      stream: true,
      temperature: 0.3,
      stop_sequences: ["###"],
    });
  });

  it("always sends max_tokens, which the API requires", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, messageStream(["ok"], { stopReason: "max_tokens" }), { pieceSize: 256 }));
    const events = await collect(chat().stream([{ role: "user", content: "Hi" }]));
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
    expect(server.last().json.max_tokens).toBe(8192);
    await collect(anthropic.create("chat", { modelName: "claude-3-haiku-20240307", credentials: { apiKey: KEY, baseUrl: `${server.url}/v1` } }).stream([{ role: "user", content: "Hi" }]));
    expect(server.last().json.max_tokens).toBe(4096);
    // A base URL copied with /v1 does not double it.
    expect(server.last().path).toBe("/v1/messages");
  });

  it("describes an image sent as a base64 source block", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, messageStream(["A single ", "pixel."]), { pieceSize: 256 }));
    const result = await anthropic.create("img2txt", { modelName: MODEL, credentials: { apiKey: KEY, baseUrl: server.url } }).describe({ data: PNG, mimeType: "image/png" }, { prompt: "What is it?" });
    expect(result).toEqual({ text: "A single pixel.", usage: { promptTokens: 25, completionTokens: 15, totalTokens: 40 } });
    expect(server.last().json.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
          { type: "text", text: "What is it?" },
        ],
      },
    ]);
  });

  it("passes extended thinking on between <think> tags", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, messageStream(["42."], { thinking: ["Six times ", "seven."] }), { pieceSize: 256 }));
    const events = await collect(chat().stream([{ role: "user", content: "6×7?" }]));
    expect(events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("")).toBe("<think>Six times seven.</think>42.");
  });

  it("an error event inside the stream fails the call with its type mapped", async () => {
    server.handle((_, response) =>
      writeSlowly(
        response,
        200,
        { "content-type": "text/event-stream" },
        sseBody([{ event: "message_start", data: { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 0 } } } }, { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }]),
      ),
    );
    const error = await failure(collect(chat().stream([{ role: "user", content: "Hi" }])));
    expect(error.reason).toBe("unavailable");
    expect(error.message).toContain("Overloaded");
  });

  it.each([
    [401, "auth", "authentication_error", "invalid x-api-key"],
    [429, "quota", "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
    [404, "notFound", "not_found_error", "model: claude-9"],
    [529, "unavailable", "overloaded_error", "Overloaded"],
  ])("HTTP %i is reported as %s, with the vendor's message", async (status, reason, type, message) => {
    server.handle((_, response) => sendJson(response, status, { type: "error", error: { type, message } }));
    const error = await failure(collect(chat().stream([{ role: "user", content: "Hi" }])));
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(message);
  });

  it("a server that never answers times out; an address where nothing listens is a network failure", async () => {
    server.handle(neverAnswer);
    const slow = new AnthropicChatModel({ baseUrl: server.url, apiKey: KEY, model: MODEL, timeoutMs: 150 });
    expect((await failure(collect(slow.stream([{ role: "user", content: "Hi" }])))).reason).toBe("timeout");
    const nowhere = chat({ baseUrl: await unreachableUrl() });
    expect((await failure(collect(nowhere.stream([{ role: "user", content: "Hi" }])))).reason).toBe("network");
  });

  it("offers no embeddings", () => {
    expect(() => anthropic.create("embedding", { modelName: MODEL, credentials: { apiKey: KEY } })).toThrow("Anthropic offers no embedding models");
  });
});
