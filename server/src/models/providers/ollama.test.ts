import type { ChatEvent, ChatModel } from "../model-types";
import { collect, failure, neverAnswer, sendJson, startVendorServer, unreachableUrl, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { ollama, OllamaChatModel } from "./ollama";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let server: VendorServer;

beforeAll(async () => {
  server = await startVendorServer(neverAnswer);
});
afterAll(() => server.close());

/** /api/chat's NDJSON: one object per line, the last with done, the reason and the token counts. */
function chatLines(texts: string[], options: { doneReason?: string; thinking?: string[] } = {}): string {
  const line = (message: Record<string, string>, done = false) => ({ model: "llama3.2", created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", content: "", ...message }, done });
  return [
    ...(options.thinking ?? []).map((thinking) => line({ thinking })),
    ...texts.map((content) => line({ content })),
    { ...line({}, true), done_reason: options.doneReason ?? "stop", total_duration: 5_000_000, prompt_eval_count: 26, eval_count: 5 },
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join("");
}

function chat(credentials: Record<string, string> = {}, maxTokens?: number): ChatModel {
  return ollama.create("chat", { modelName: "llama3.2", credentials: { baseUrl: server.url, ...credentials }, maxTokens });
}

describe("Ollama", () => {
  it("streams /api/chat line by line, lines split across writes, then the counts of the last line", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "application/x-ndjson" }, chatLines(["The sky", " is blue", " — ✓"]), { pieceSize: 19 }));
    const events = await collect(
      chat({}, 32768).stream(
        [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Why is the sky blue?" },
        ],
        { temperature: 0.1, topP: 0.3, maxTokens: 64, stop: ["\n"], frequencyPenalty: 0.2 },
      ),
    );
    expect(events).toEqual<ChatEvent[]>([
      { type: "delta", text: "The sky" },
      { type: "delta", text: " is blue" },
      { type: "delta", text: " — ✓" },
      { type: "usage", usage: { promptTokens: 26, completionTokens: 5, totalTokens: 31 } },
      { type: "finish", reason: "stop" },
    ]);
    const request = server.last();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/chat");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.json).toEqual({
      model: "llama3.2",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Why is the sky blue?" },
      ],
      stream: true,
      // The entry's token limit is the context window asked for.
      options: { temperature: 0.1, top_p: 0.3, frequency_penalty: 0.2, num_predict: 64, stop: ["\n"], num_ctx: 32768 },
    });
  });

  it("sends images as base64 beside the text, and a key when one is set (a proxy in front)", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "application/x-ndjson" }, chatLines(["A pixel."]), { pieceSize: 512 }));
    const describe = ollama.create("img2txt", { modelName: "llava", credentials: { baseUrl: `${server.url}/v1`, apiKey: "proxy-key" } });
    expect((await describe.describe({ data: PNG, mimeType: "image/png" }, { prompt: "What?" })).text).toBe("A pixel.");
    const request = server.last();
    // The OpenAI-compatible address people paste is taken back to the native API.
    expect(request.path).toBe("/api/chat");
    expect(request.headers.authorization).toBe("Bearer proxy-key");
    expect(request.json.messages).toEqual([{ role: "user", content: "What?", images: [PNG.toString("base64")] }]);
  });

  it("passes thinking on between <think> tags and reports a cut answer as length", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "application/x-ndjson" }, chatLines(["4"], { thinking: ["2+2 ", "is 4"], doneReason: "length" }), { pieceSize: 512 }));
    const events = await collect(chat().stream([{ role: "user", content: "2+2?" }]));
    expect(events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("")).toBe("<think>2+2 is 4</think>4");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
  });

  it("embeds a list with /api/embed", async () => {
    server.handle((request, response) => sendJson(response, 200, { model: "nomic-embed-text", embeddings: (request.json.input as string[]).map((t) => [t.length, 1]), prompt_eval_count: 4 }));
    const result = await ollama.create("embedding", { modelName: "nomic-embed-text", credentials: { baseUrl: server.url } }).embed(["ab", "abcd"]);
    expect(result).toEqual({ vectors: [[2, 1], [4, 1]], usage: { promptTokens: 4, completionTokens: 0, totalTokens: 4 } });
    expect(server.last().path).toBe("/api/embed");
    expect(server.last().json).toEqual({ model: "nomic-embed-text", input: ["ab", "abcd"], truncate: true });
  });

  it("a model that is not pulled is reported as not found, with Ollama's words", async () => {
    server.handle((_, response) => sendJson(response, 404, { error: 'model "llama9" not found, try pulling it first' }));
    const error = await failure(collect(chat().stream([{ role: "user", content: "Hi" }])));
    expect(error.reason).toBe("notFound");
    expect(error.message).toContain('model "llama9" not found, try pulling it first');
  });

  it("an error line inside the stream fails the call", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "application/x-ndjson" }, `${JSON.stringify({ message: { content: "Hal" }, done: false })}\n${JSON.stringify({ error: "an error was encountered while running the model: unexpected EOF" })}\n`));
    const error = await failure(collect(chat().stream([{ role: "user", content: "Hi" }])));
    expect(error.reason).toBe("unavailable");
    expect(error.message).toContain("unexpected EOF");
  });

  it.each([
    [401, "auth"],
    [429, "quota"],
    [500, "unavailable"],
  ])("HTTP %i (from a proxy or a busy server) is reported as %s", async (status, reason) => {
    server.handle((_, response) => sendJson(response, status, { error: "refused" }));
    expect((await failure(collect(chat().stream([{ role: "user", content: "Hi" }])))).reason).toBe(reason);
  });

  it("a server that never answers times out; an address where nothing listens is a network failure", async () => {
    server.handle(neverAnswer);
    const slow = new OllamaChatModel({ baseUrl: server.url, model: "llama3.2", timeoutMs: 150 });
    expect((await failure(collect(slow.stream([{ role: "user", content: "Hi" }])))).reason).toBe("timeout");
    expect((await failure(collect(chat({ baseUrl: await unreachableUrl() }).stream([{ role: "user", content: "Hi" }])))).reason).toBe("network");
  });
});
