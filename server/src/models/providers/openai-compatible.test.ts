import type http from "node:http";
import type { ChatEvent, ChatModel, ModelClients, ModelType } from "../model-types";
import type { ProviderDefinition } from "../provider";
import { collect, failure, neverAnswer, pieces, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { azureOpenAi } from "./azure-openai";
import { deepSeek } from "./deepseek";
import { groq } from "./groq";
import { jina } from "./jina";
import { lmStudio } from "./lm-studio";
import { moonshot } from "./moonshot";
import { normaliseScores, bearerEndpoint, OpenAiChatModel } from "./openai-compatible";
import { openAi } from "./openai";
import { openAiApiCompatible } from "./openai-api-compatible";
import { openRouter } from "./openrouter";
import { siliconFlow } from "./siliconflow";
import { tongyiQianwen } from "./tongyi-qianwen";
import { volcEngine } from "./volcengine";
import { zhipuAi } from "./zhipu-ai";

const KEY = "sk-test-0123456789";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let server: VendorServer;

beforeAll(async () => {
  server = await startVendorServer((_, response) => sendJson(response, 500, { error: { message: "no handler" } }));
});
afterAll(() => server.close());

function client<T extends ModelType>(provider: ProviderDefinition, type: T, modelName: string, credentials: Record<string, string> = {}): ModelClients[T] {
  return provider.create(type, { modelName, credentials: { apiKey: KEY, baseUrl: `${server.url}/v1`, ...credentials } });
}

/** `data:` frames of JSON objects, and literal ones such as [DONE]. */
function sse(frames: unknown[]): string {
  return sseBody(frames.map((frame) => (typeof frame === "string" ? frame : { data: frame })));
}

function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }], ...extra };
}

/** A chat-completions stream: the given chunks, then the usage chunk include_usage asks for, then [DONE]. */
function chatStream(deltas: string[], options: { finish?: string; usage?: unknown } = {}) {
  return sse([
    chunk({ role: "assistant", content: "" }),
    ...deltas.map((content) => chunk({ content })),
    { ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: options.finish ?? "stop" }] },
    { id: "chatcmpl-1", choices: [], usage: options.usage ?? { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } },
    "[DONE]",
  ]);
}

function answerChat(deltas: string[], options: { finish?: string; usage?: unknown } = {}) {
  server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, chatStream(deltas, options), { pieceSize: 64 }));
}

async function textOf(chat: ChatModel): Promise<string> {
  const events = await collect(chat.stream([{ role: "user", content: "Hi" }]));
  return events.map((e) => (e.type === "delta" ? e.text : "")).join("");
}

describe("OpenAI chat", () => {
  it("parses the stream as it arrives: each delta is yielded before the rest is written, then usage and the finish reason", async () => {
    let seeFirstDelta!: () => void;
    const firstDeltaSeen = new Promise<void>((resolve) => (seeFirstDelta = resolve));
    const body = chatStream(["Hel", "lo, wörld", " ✓"]);
    // Just after the frame of the first delta.
    const cut = body.indexOf("\n\n", body.indexOf('"Hel"')) + 2;
    server.handle(async (_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.flushHeaders();
      // The first delta, cut into 5-byte writes, then nothing until the client has yielded it.
      for (const piece of pieces(body.slice(0, cut), 5)) {
        response.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      // A client that buffered the whole answer would wait here for ever: give up after 2 s instead.
      await Promise.race([firstDeltaSeen, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      // A comment line and multi-byte characters split across writes.
      for (const piece of pieces(`: keep-alive\n\n${body.slice(cut)}`, 3)) {
        response.write(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    });
    const chat = client(openAi, "chat", "gpt-4o-mini");
    const events: ChatEvent[] = [];
    for await (const event of chat.stream(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello" },
      ],
      { temperature: 0.2, topP: 0.9, maxTokens: 100, stop: ["\n\n"] },
    )) {
      events.push(event);
      if (event.type === "delta" && event.text === "Hel") seeFirstDelta();
    }
    expect(events).toEqual([
      { type: "delta", text: "Hel" },
      { type: "delta", text: "lo, wörld" },
      { type: "delta", text: " ✓" },
      { type: "usage", usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 } },
      { type: "finish", reason: "stop" },
    ]);
    const request = server.last();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      top_p: 0.9,
      // OpenAI's current name for max_tokens.
      max_completion_tokens: 100,
      stop: ["\n\n"],
    });
  });

  it("sends no sampling parameters to reasoning models, and reports a cut answer as length", async () => {
    answerChat(["Thinking done"], { finish: "length" });
    const events = await collect(client(openAi, "chat", "o4-mini").stream([{ role: "user", content: "Hi" }], { temperature: 0.1, presencePenalty: 0.3, maxTokens: 5 }));
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
    expect(server.last().json).toEqual(expect.objectContaining({ model: "o4-mini", max_completion_tokens: 5 }));
    expect(server.last().json).not.toHaveProperty("temperature");
    expect(server.last().json).not.toHaveProperty("presence_penalty");
  });

  it("describes an image sent as a data URL in a vision message", async () => {
    answerChat(["A transparent ", "pixel."]);
    const result = await client(openAi, "img2txt", "gpt-4o").describe({ data: PNG, mimeType: "image/png" }, { prompt: "What is this?" });
    expect(result).toEqual({ text: "A transparent pixel.", usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 } });
    expect(server.last().json.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
        ],
      },
    ]);
  });

  it("describes in Chinese with RAGFlow's Chinese prompt when the language is Chinese", async () => {
    answerChat(["一个像素"]);
    await client(zhipuAi, "img2txt", "glm-4v").describe({ data: PNG, mimeType: "image/png" }, { language: "Chinese" });
    expect(server.last().json.messages[0].content[0].text).toMatch(/^请用中文详细描述/);
  });
});

describe("vendors of the OpenAI protocol", () => {
  it("DeepSeek's streamed reasoning comes between <think> tags before the answer", async () => {
    server.handle((_, response) =>
      writeSlowly(
        response,
        200,
        { "content-type": "text/event-stream" },
        sse([chunk({ reasoning_content: "The user " }), chunk({ reasoning_content: "greets." }), chunk({ content: "Hello!" }), { ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }, "[DONE]"]),
      ),
    );
    expect(await textOf(client(deepSeek, "chat", "deepseek-reasoner"))).toBe("<think>The user greets.</think>Hello!");
  });

  it.each([
    ["Moonshot, inside the last choice", moonshot, { choices: [{ index: 0, delta: {}, finish_reason: "stop", usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }] }],
    ["Groq, under x_groq", groq, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }], x_groq: { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } } }],
    ["Zhipu, in the last chunk without being asked", zhipuAi, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }],
  ])("usage is found where %s", async (_, provider, last) => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, sse([chunk({ content: "Hi" }), last, "[DONE]"])));
    const events = await collect(client(provider, "chat", "m").stream([{ role: "user", content: "Hi" }]));
    expect(events).toEqual([
      { type: "delta", text: "Hi" },
      { type: "usage", usage: { promptTokens: 7, completionTokens: 2, totalTokens: 9 } },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("Zhipu gets no penalties, which its v4 API refuses", async () => {
    answerChat(["ok"]);
    await collect(client(zhipuAi, "chat", "glm-4-flash").stream([{ role: "user", content: "Hi" }], { temperature: 0.1, presencePenalty: 0.4, frequencyPenalty: 0.7, maxTokens: 512 }));
    expect(server.last().json).toEqual(expect.objectContaining({ model: "glm-4-flash", temperature: 0.1, max_tokens: 512 }));
    expect(server.last().json).not.toHaveProperty("presence_penalty");
    expect(server.last().json).not.toHaveProperty("frequency_penalty");
  });

  it("Azure OpenAI calls the deployment with the API version and an api-key header", async () => {
    answerChat(["Hi"]);
    const credentials = { baseUrl: `${server.url}/`, apiKey: "azure-key" };
    expect(await textOf(azureOpenAi.create("chat", { modelName: "my-gpt-4o", credentials }))).toBe("Hi");
    let request = server.last();
    expect(request.path).toBe("/openai/deployments/my-gpt-4o/chat/completions");
    expect(request.query.get("api-version")).toBe("2024-10-21");
    expect(request.headers["api-key"]).toBe("azure-key");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.json.stream_options).toEqual({ include_usage: true });

    // Older API versions refuse stream_options.
    answerChat(["Hi"]);
    await textOf(azureOpenAi.create("chat", { modelName: "my-gpt-4o", credentials: { ...credentials, apiVersion: "2024-06-01" } }));
    expect(server.last().json).not.toHaveProperty("stream_options");

    server.handle((_, response) => sendJson(response, 200, { data: [{ index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 2, total_tokens: 2 } }));
    await azureOpenAi.create("embedding", { modelName: "embed-small", credentials: { ...credentials, apiVersion: "2024-06-01" } }).embed(["hello"]);
    request = server.last();
    expect(request.path).toBe("/openai/deployments/embed-small/embeddings");
    expect(request.query.get("api-version")).toBe("2024-06-01");
  });

  it("VolcEngine sends the endpoint id as the model, with the ARK key", async () => {
    answerChat(["你好"]);
    const chat = volcEngine.create("chat", { modelName: "doubao-1-5-pro-32k", credentials: { endpointId: "ep-20250101-abcde", arkKey: "ark-key", baseUrl: `${server.url}/api/v3` } });
    expect(await textOf(chat)).toBe("你好");
    expect(server.last().path).toBe("/api/v3/chat/completions");
    expect(server.last().headers.authorization).toBe("Bearer ark-key");
    expect(server.last().json.model).toBe("ep-20250101-abcde");
  });

  it("a local server given as host and port is called under /v1, without a key when none is set", async () => {
    answerChat(["local"]);
    expect(await textOf(lmStudio.create("chat", { modelName: "qwen2.5-7b-instruct", credentials: { apiKey: "", baseUrl: server.url } }))).toBe("local");
    expect(server.last().path).toBe("/v1/chat/completions");
    expect(server.last().headers.authorization).toBeUndefined();
  });

  it("an OpenAI-API-Compatible base URL is taken as it is", async () => {
    answerChat(["gateway"]);
    expect(await textOf(openAiApiCompatible.create("chat", { modelName: "m", credentials: { apiKey: "", baseUrl: `${server.url}/api/paas/v4` } }))).toBe("gateway");
    expect(server.last().path).toBe("/api/paas/v4/chat/completions");
  });

  it("an error inside a started stream (OpenRouter) fails the call with the vendor's words", async () => {
    server.handle((_, response) =>
      writeSlowly(response, 200, { "content-type": "text/event-stream" }, `: OPENROUTER PROCESSING\n\n${sse([chunk({ content: "Par" }), { error: { code: 502, message: "Upstream provider failed" } }])}`),
    );
    const events: ChatEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of client(openRouter, "chat", "openai/gpt-4o-mini").stream([{ role: "user", content: "Hi" }])) events.push(event);
      })(),
    );
    expect(events).toEqual([{ type: "delta", text: "Par" }]);
    expect(error.reason).toBe("unavailable");
    expect(error.message).toContain("Upstream provider failed");
  });
});

describe("embeddings", () => {
  it("keep the input order whatever order the vectors come back in, in batches the vendor accepts, with usage summed", async () => {
    server.handle((request, response) => {
      const input = request.json.input as string[];
      const data = input.map((text, index) => ({ object: "embedding", index, embedding: [text.length, index] })).reverse();
      sendJson(response, 200, { object: "list", data, usage: { prompt_tokens: input.length, total_tokens: input.length } });
    });
    const texts = Array.from({ length: 23 }, (_, i) => "x".repeat(i));
    const result = await client(tongyiQianwen, "embedding", "text-embedding-v3").embed(texts);
    expect(result.vectors).toEqual(texts.map((text, i) => [i === 0 ? 1 : text.length, i % 10]));
    expect(result.usage).toEqual({ promptTokens: 23, completionTokens: 0, totalTokens: 23 });
    const batches = server.requests.slice(-3);
    expect(batches.map((r) => r.json.input.length)).toEqual([10, 10, 3]);
    expect(batches[0].path).toBe("/v1/embeddings");
    expect(batches[0].json).toEqual({ model: "text-embedding-v3", input: [" ", ...texts.slice(1, 10)] });
  });

  it("Jina's task adapters are told whether the texts are queries or passages", async () => {
    server.handle((request, response) => sendJson(response, 200, { data: (request.json.input as string[]).map((_, index) => ({ index, embedding: [1, 0] })), usage: { total_tokens: 3, prompt_tokens: 3 } }));
    await client(jina, "embedding", "jina-embeddings-v3").embed(["what is rag"], { purpose: "query" });
    expect(server.last().json).toEqual({ model: "jina-embeddings-v3", input: ["what is rag"], task: "retrieval.query" });
    await client(jina, "embedding", "jina-embeddings-v3").embed(["passage"], { purpose: "document" });
    expect(server.last().json.task).toBe("retrieval.passage");
    await client(jina, "embedding", "jina-embeddings-v2-base-en").embed(["passage"], { purpose: "document" });
    expect(server.last().json).not.toHaveProperty("task");
  });

  it("a wrong number of vectors is an error, not a silent misalignment", async () => {
    server.handle((_, response) => sendJson(response, 200, { data: [{ index: 0, embedding: [1] }] }));
    expect((await failure(client(openAi, "embedding", "text-embedding-3-small").embed(["a", "b"]))).reason).toBe("badRequest");
  });
});

describe("rerank", () => {
  it("Jina's /v1/rerank scores come back in input order", async () => {
    server.handle((_, response) =>
      sendJson(response, 200, {
        model: "jina-reranker-v2-base-multilingual",
        usage: { total_tokens: 31 },
        results: [
          { index: 2, relevance_score: 0.91 },
          { index: 0, relevance_score: 0.4 },
          { index: 1, relevance_score: 0.02 },
        ],
      }),
    );
    const result = await client(jina, "rerank", "jina-reranker-v2-base-multilingual").rerank("capital of France", ["Berlin", "Madrid", "Paris"]);
    expect(result).toEqual({ scores: [0.4, 0.02, 0.91], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 31 } });
    const request = server.last();
    expect(request.path).toBe("/v1/rerank");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.json).toEqual({ model: "jina-reranker-v2-base-multilingual", query: "capital of France", documents: ["Berlin", "Madrid", "Paris"], top_n: 3, return_documents: false });
  });

  it("SiliconFlow's Cohere-style token counts are the usage", async () => {
    server.handle((_, response) => sendJson(response, 200, { id: "r", results: [{ index: 0, relevance_score: 0.7 }], meta: { tokens: { input_tokens: 11, output_tokens: 0 } } }));
    expect(await client(siliconFlow, "rerank", "BAAI/bge-reranker-v2-m3").rerank("q", ["d"])).toEqual({ scores: [0.7], usage: { promptTokens: 11, completionTokens: 0, totalTokens: 11 } });
  });

  it("raw logits of a TEI-style server become scores in 0..1, in the same order", async () => {
    server.handle((_, response) =>
      sendJson(response, 200, [
        { index: 1, score: 4.2 },
        { index: 0, score: -3.1 },
      ]),
    );
    const { scores } = await client(openAiApiCompatible, "rerank", "bge-reranker-base").rerank("q", ["weak", "strong"]);
    expect(scores.every((s) => s > 0 && s < 1)).toBe(true);
    expect(scores[1]).toBeGreaterThan(0.98);
    expect(scores[0]).toBeLessThan(0.05);
    expect(server.last().json).toEqual(expect.objectContaining({ documents: ["weak", "strong"], texts: ["weak", "strong"] }));
    expect(normaliseScores([0, 0.5, 1])).toEqual([0, 0.5, 1]);
  });

  it("Tongyi-Qianwen reranks through DashScope's native API on the same host", async () => {
    server.handle((_, response) => sendJson(response, 200, { output: { results: [{ index: 1, relevance_score: 0.8 }, { index: 0, relevance_score: 0.1 }] }, usage: { total_tokens: 20 }, request_id: "x" }));
    const rerank = tongyiQianwen.create("rerank", { modelName: "gte-rerank-v2", credentials: { apiKey: KEY, baseUrl: `${server.url}/compatible-mode/v1` } });
    expect((await rerank.rerank("q", ["a", "b"])).scores).toEqual([0.1, 0.8]);
    expect(server.last().path).toBe("/api/v1/services/rerank/text-rerank/text-rerank");
    expect(server.last().json).toEqual({ model: "gte-rerank-v2", input: { query: "q", documents: ["a", "b"] }, parameters: { return_documents: false, top_n: 2 } });
  });
});

describe("speech", () => {
  it("transcription uploads the audio as multipart form data", async () => {
    let form: FormData | undefined;
    server.handle(async (request, response) => {
      form = await new Request("http://vendor.test", { method: "POST", headers: request.headers as Record<string, string>, body: request.body }).formData();
      sendJson(response, 200, { text: "你好，世界" });
    });
    const audio = Buffer.from("RIFF....WAVEfmt fake audio");
    const result = await client(openAi, "sequence2txt", "whisper-1").transcribe({ data: audio, mimeType: "audio/wav", fileName: "clip.wav" }, { language: "Chinese" });
    expect(result).toEqual({ text: "你好，世界", usage: undefined });
    expect(server.last().path).toBe("/v1/audio/transcriptions");
    expect(server.last().headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const file = form!.get("file") as File;
    expect(file.name).toBe("clip.wav");
    expect(file.type).toBe("audio/wav");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(audio);
    expect([form!.get("model"), form!.get("language"), form!.get("response_format")]).toEqual(["whisper-1", "zh", "json"]);
  });

  it("speech is streamed back as it arrives", async () => {
    const mp3 = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "audio/mpeg" }, mp3, { pieceSize: 64 }));
    const speech = await client(openAi, "tts", "tts-1").synthesize("Hello there");
    expect(speech.mimeType).toBe("audio/mpeg");
    const chunks = await collect(speech.audio);
    expect(Buffer.concat(chunks)).toEqual(mp3);
    expect(server.last().path).toBe("/v1/audio/speech");
    expect(server.last().json).toEqual({ model: "tts-1", input: "Hello there", voice: "alloy", response_format: "mp3" });
  });

  it("SiliconFlow's default voice is named after its model", async () => {
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "audio/mpeg" }, Buffer.from("ID3")));
    await collect((await client(siliconFlow, "tts", "FunAudioLLM/CosyVoice2-0.5B").synthesize("hi")).audio);
    expect(server.last().json.voice).toBe("FunAudioLLM/CosyVoice2-0.5B:alex");
  });
});

describe("errors", () => {
  const vendorError = (status: number, message: string) => (_: RecordedRequest, response: http.ServerResponse) =>
    sendJson(response, status, { error: { message, type: "invalid_request_error", code: null } });

  it.each([
    [401, "auth", "Incorrect API key provided: sk-test***"],
    [403, "auth", "Project does not have access to model"],
    [429, "quota", "You exceeded your current quota"],
    [404, "notFound", "The model `gpt-9` does not exist"],
    [400, "badRequest", "max_tokens is too large"],
    [503, "unavailable", "The engine is currently overloaded"],
  ])("HTTP %i is reported as %s, with the vendor's message", async (status, reason, message) => {
    server.handle(vendorError(status, message));
    const error = await failure(textOf(client(openAi, "chat", "gpt-4o")));
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(message);
    expect(error.params).toMatchObject({ provider: "OpenAI" });
  });

  it("a server that never answers times out", async () => {
    server.handle(neverAnswer);
    const chat = new OpenAiChatModel({ ...bearerEndpoint("OpenAI", `${server.url}/v1`, KEY, "gpt-4o"), timeoutMs: 150 });
    const started = performance.now();
    expect((await failure(textOf(chat))).reason).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a stream that stalls halfway times out, while one that keeps flowing is never cut", async () => {
    server.handle(async (_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(sse([chunk({ content: "Half" })]));
    });
    const endpoint = { ...bearerEndpoint("OpenAI", `${server.url}/v1`, KEY, "gpt-4o"), timeoutMs: 150 };
    const events: ChatEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of new OpenAiChatModel(endpoint).stream([{ role: "user", content: "Hi" }])) events.push(event);
      })(),
    );
    expect(error.reason).toBe("timeout");
    expect(events).toEqual([{ type: "delta", text: "Half" }]);

    // 300 ms in all, but never 150 ms of silence.
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, chatStream(["slow ", "but ", "steady"]), { pieceSize: 40, pauseMs: 30 }));
    expect(await textOf(new OpenAiChatModel(endpoint))).toBe("slow but steady");
  });

  it("a connection lost mid-stream is a network failure", async () => {
    server.handle(async (_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(sse([chunk({ content: "Half" })]));
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.socket?.destroy();
    });
    expect((await failure(textOf(client(openAi, "chat", "gpt-4o")))).reason).toBe("network");
  });

  it("an address where nothing listens is a network failure", async () => {
    const chat = openAi.create("chat", { modelName: "gpt-4o", credentials: { apiKey: KEY, baseUrl: await unreachableUrl() } });
    const error = await failure(textOf(chat));
    expect(error.reason).toBe("network");
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("a model type the vendor does not offer is refused", () => {
    expect(() => deepSeek.create("embedding", { modelName: "x", credentials: { apiKey: KEY } })).toThrow("DeepSeek offers no embedding models");
  });
});
