import { englishText } from "../parse-log";
import { generateKeywords, parseKeywords } from "./keywords";
import { enrichmentContext, ScriptedChat } from "./testing";

jest.setTimeout(120_000);

const ENGLISH = [
  "Hybrid retrieval combines BM25 keyword scores with vector similarity. The reranker then orders the top candidates, and the assistant cites each chunk it quotes. Hybrid retrieval works well for technical manuals.",
  "Aspirin is a nonsteroidal anti-inflammatory drug. Aspirin inhibits the production of prostaglandins and thromboxanes by blocking cyclooxygenase enzymes. It is used to reduce fever and relieve mild pain.",
];
const CHINESE = "检索增强生成系统引用知识库中的文档。检索增强生成能够减少大语言模型的幻觉，并让回答附带引用来源。";

describe("auto-keywords with the built-in model", () => {
  it("gives each chunk as many keywords as asked, the chunk's own words, and says how they were made", async () => {
    for (const count of [1, 3, 8]) {
      const { keywords, producedBy, notes } = await generateKeywords(ENGLISH, count, enrichmentContext());
      expect(keywords).toHaveLength(2);
      for (const [i, list] of keywords.entries()) {
        expect(list).toHaveLength(count);
        expect(new Set(list.map((k) => k.toLowerCase())).size).toBe(count);
        // As written, except a capital that only starts a sentence ("Hybrid retrieval …" → "hybrid retrieval").
        for (const keyword of list) expect(ENGLISH[i].toLowerCase()).toContain(keyword.toLowerCase());
      }
      expect(producedBy).toBe("cairn-extractive@Builtin");
      expect(notes).toEqual([]);
    }
  });

  it("ranks what a chunk is about first and prefers phrases over their words", async () => {
    const { keywords } = await generateKeywords(ENGLISH, 5, enrichmentContext());
    expect(keywords[0][0]).toBe("hybrid retrieval");
    expect(keywords[0]).toContain("BM25");
    expect(keywords[0]).not.toContain("retrieval");
    expect(keywords[1]).toContain("Aspirin");
    expect(keywords[1]).toContain("nonsteroidal anti-inflammatory drug");
    // Stop words and verbs do not make keywords.
    for (const list of keywords) for (const keyword of list) expect(keyword).not.toMatch(/^(?:the|is|it|inhibits|relieve)$/i);
  });

  it("finds Chinese keywords with jieba's words and IDF", async () => {
    const { keywords } = await generateKeywords([CHINESE], 4, enrichmentContext({ language: "Chinese" }));
    expect(keywords[0]).toHaveLength(4);
    expect(keywords[0][0]).toBe("检索增强生成");
    expect(keywords[0]).toContain("知识库");
    for (const keyword of keywords[0]) expect(CHINESE).toContain(keyword);
  });

  it("asks for nothing when no keywords are wanted, and gives an empty chunk none", async () => {
    const context = enrichmentContext();
    expect((await generateKeywords(ENGLISH, 0, context)).keywords).toEqual([[], []]);
    expect((await generateKeywords(["", "   "], 3, context)).keywords).toEqual([[], []]);
  });
});

describe("auto-keywords with a language model", () => {
  it("uses RAGFlow's keyword prompt, keeps the answer without its reasoning, and caps and dedupes the list", async () => {
    const chat = new ScriptedChat(() => "<think>The text is about retrieval.</think>\n```\nhybrid retrieval, BM25，Hybrid Retrieval, reranker, vector similarity, citations\n```");
    const context = enrichmentContext({ chat, chatId: "gpt-4o@OpenAI" });
    const { keywords, producedBy, notes } = await generateKeywords(ENGLISH, 4, context);
    expect(producedBy).toBe("gpt-4o@OpenAI");
    expect(notes).toEqual([]);
    expect(keywords).toEqual([
      ["hybrid retrieval", "BM25", "reranker", "vector similarity"],
      ["hybrid retrieval", "BM25", "reranker", "vector similarity"],
    ]);
    expect(chat.calls).toHaveLength(2);
    const system = chat.calls[0].messages[0].content;
    expect(system).toContain("give the top 4 important keywords/phrases");
    expect(system).toContain(ENGLISH[0]);
    expect(chat.calls[0].options?.temperature).toBe(0.2);
    expect(context.reports[context.reports.length - 1].fraction).toBe(1);
  });

  it("writes the prompt in Chinese for a Chinese knowledge base", async () => {
    const chat = new ScriptedChat(() => "检索增强生成，知识库、幻觉");
    const { keywords } = await generateKeywords([CHINESE], 5, enrichmentContext({ chat, chatId: "qwen-max@Tongyi-Qianwen", language: "Chinese" }));
    expect(keywords).toEqual([["检索增强生成", "知识库", "幻觉"]]);
    expect(chat.calls[0].messages[0].content).toContain("给出最重要的前 5 个关键词");
  });

  it("leaves a chunk whose call failed without keywords and notes it, while the others get theirs", async () => {
    const chat = new ScriptedChat((prompt) => {
      if (prompt.includes("Aspirin")) throw new Error("503 Service Unavailable");
      return "retrieval, reranker";
    });
    const { keywords, notes } = await generateKeywords(ENGLISH, 3, enrichmentContext({ chat, chatId: "gpt-4o@OpenAI" }));
    expect(keywords).toEqual([["retrieval", "reranker"], []]);
    expect(notes.map(englishText)).toEqual(["Keywords: the chat model failed on 1 of 2 chunks, which got none (chunk 2: 503 Service Unavailable)"]);
  });

  it("stops calling the model when the task is cancelled", async () => {
    const context = enrichmentContext();
    const chat = new ScriptedChat(() => {
      context.controller.abort();
      return "a, b";
    });
    context.chat = async () => ({ model: chat, id: "gpt-4o@OpenAI" });
    await expect(generateKeywords(Array.from({ length: 20 }, () => ENGLISH[0]), 2, context)).rejects.toThrow(/abort/i);
    expect(chat.calls.length).toBeLessThanOrEqual(4);
  });

  it("reads keyword lists however the model writes them", () => {
    expect(parseKeywords("Keywords: 1. alpha\n2. beta\n- gamma; \"delta\"", 10)).toEqual(["alpha", "beta", "gamma", "delta"]);
  });
});
