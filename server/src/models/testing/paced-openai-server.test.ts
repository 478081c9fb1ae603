import OpenAI from "openai";
import type { ChatEvent, ChatModel } from "../model-types";
import { openAiApiCompatible } from "../providers/openai-api-compatible";
import { checkPacedText, pacedTokens, startPacedOpenAiServer, type PacedServer } from "./paced-openai-server";

jest.setTimeout(30_000);

let paced: PacedServer;

beforeAll(async () => {
  paced = await startPacedOpenAiServer({ tokensPerSecond: 500, answerTokens: 12 });
});

afterAll(async () => {
  await paced.close();
});

describe("the paced OpenAI-compatible model server", () => {
  it("streams chat.completion.chunk frames the official openai client reads, every token carrying its index", async () => {
    const client = new OpenAI({ baseURL: paced.url, apiKey: "sk-test" });
    const stream = await client.chat.completions.create({
      model: "paced-chat",
      messages: [{ role: "user", content: "question 1" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]).toMatchObject({ object: "chat.completion.chunk", model: "paced-chat", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(pacedTokens(12).join(""));
    expect(checkPacedText(text, 12)).toEqual({ received: 12, missing: 0, misplaced: 0, ok: true });
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 12, prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) } });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);

    const request = paced.requests.find((r) => r.question === "question 1");
    expect(request).toMatchObject({ stream: true, tokens: 12, aborted: false, firstTokenMs: expect.any(Number), durationMs: expect.any(Number) });
  });

  it("answers without streaming, lists its model, and stops at max_tokens with finish_reason length", async () => {
    const client = new OpenAI({ baseURL: paced.url, apiKey: "sk-test" });
    const whole = await client.chat.completions.create({ model: "any-name", messages: [{ role: "user", content: "question 2" }], max_tokens: 5 });
    expect(whole.object).toBe("chat.completion");
    expect(whole.choices[0]).toMatchObject({ message: { role: "assistant", content: "t0 t1 t2 t3 t4" }, finish_reason: "length" });
    expect(whole.usage?.completion_tokens).toBe(5);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["paced-chat"]);
  });

  it("streams to Cairn's OpenAI-API-Compatible provider as to any OpenAI server", async () => {
    const model = openAiApiCompatible.create("chat", { modelName: "paced-chat", credentials: { baseUrl: paced.url, apiKey: "" } }) as ChatModel;
    const events: ChatEvent[] = [];
    for await (const event of model.stream([{ role: "user", content: "question 3" }])) events.push(event);
    const text = events.map((e) => (e.type === "delta" ? e.text : "")).join("");
    expect(checkPacedText(text, 12).ok).toBe(true);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("notes a client that goes away mid-stream", async () => {
    const slow = await startPacedOpenAiServer({ tokensPerSecond: 20, answerTokens: 100 });
    try {
      const controller = new AbortController();
      const response = await fetch(`${slow.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "paced-chat", stream: true, messages: [{ role: "user", content: "going away" }] }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await expect(reader.read()).rejects.toThrow();
      for (let i = 0; i < 100 && !slow.requests[0]?.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(slow.requests[0]).toMatchObject({ question: "going away", aborted: true, durationMs: null });
    } finally {
      await slow.close();
    }
  });
});

describe("checking a received paced answer", () => {
  it("finds lost, repeated and reordered tokens, and ignores citations", () => {
    expect(checkPacedText("t0 t1 [ID:0] t2", 3).ok).toBe(true);
    expect(checkPacedText("t0 t2", 3)).toMatchObject({ missing: 1, ok: false });
    expect(checkPacedText("t0 t1 t1 t2", 3)).toMatchObject({ missing: 0, misplaced: 1, ok: false });
    expect(checkPacedText("t0 t2 t1", 3)).toMatchObject({ missing: 0, ok: false });
    expect(checkPacedText("t0 t1", 3)).toMatchObject({ missing: 1, ok: false });
  });
});
