import { englishText } from "../parse-log";
import { generateQuestions, parseQuestions } from "./questions";
import { enrichmentContext, ScriptedChat } from "./testing";

jest.setTimeout(120_000);

const ENGLISH = [
  "Aspirin is a nonsteroidal anti-inflammatory drug. Aspirin inhibits the production of prostaglandins by blocking cyclooxygenase enzymes. It is used to reduce fever and relieve mild pain.",
  "Hybrid retrieval is used to find passages that share few words with the question. It combines BM25 keyword scores with vector similarity, and a reranker orders the candidates.",
  "The Eiffel Tower was completed in 1889. It is 330 metres tall. How tall is the Eiffel Tower?",
];
const CHINESE = "检索增强生成是一种结合检索与生成的技术。检索增强生成能够减少大语言模型的幻觉。知识库用于存放文档。";

describe("auto-questions with the built-in model", () => {
  it("gives each chunk at most as many questions as asked, and says they are template questions", async () => {
    for (const count of [1, 2, 4]) {
      const { questions, producedBy, notes } = await generateQuestions(ENGLISH, count, enrichmentContext());
      expect(questions).toHaveLength(3);
      for (const list of questions) {
        expect(list.length).toBeGreaterThan(0);
        expect(list.length).toBeLessThanOrEqual(count);
        for (const question of list) expect(question).toMatch(/^[A-Z].*\?$/);
      }
      expect(producedBy).toBe("cairn-extractive@Builtin");
      expect(notes).toEqual([]);
    }
  });

  it("asks what the chunk answers, shaped by the sentence that introduces each key phrase", async () => {
    const { questions } = await generateQuestions(ENGLISH, 3, enrichmentContext());
    expect(questions[0][0]).toBe("What is Aspirin?");
    expect(questions[1][0]).toBe("What is hybrid retrieval used for?");
    // A question the text asks itself comes first; a date makes a "when" question.
    expect(questions[2].slice(0, 2)).toEqual(["How tall is the Eiffel Tower?", "When was the Eiffel Tower completed?"]);
  });

  it("asks Chinese questions about a Chinese chunk", async () => {
    const { questions } = await generateQuestions([CHINESE], 3, enrichmentContext({ language: "Chinese" }));
    expect(questions[0]).toHaveLength(3);
    expect(questions[0].slice(0, 2)).toEqual(["什么是检索增强生成？", "知识库用于什么？"]);
    for (const question of questions[0]) expect(question).toMatch(/？$/);
  });
});

describe("auto-questions with a language model", () => {
  it("uses RAGFlow's question prompt and reads one question per line, without reasoning, numbering or repeats", async () => {
    const answer = "<think>\nLet me think about the chunk.\n</think>\nHere are the questions:\n1. What is aspirin?\n2. How does aspirin work?\n3. what is aspirin?\n4. What is aspirin used for?";
    const chat = new ScriptedChat(() => answer);
    const { questions, producedBy, notes } = await generateQuestions(ENGLISH.slice(0, 1), 2, enrichmentContext({ chat, chatId: "deepseek-r1@DeepSeek" }));
    expect(producedBy).toBe("deepseek-r1@DeepSeek");
    expect(notes).toEqual([]);
    expect(questions).toEqual([["What is aspirin?", "How does aspirin work?"]]);
    const system = chat.calls[0].messages[0].content;
    expect(system).toContain("Propose 2 questions about a given piece of text content.");
    expect(system).toContain("One question per line.");
    expect(system).toContain(ENGLISH[0]);
  });

  it("leaves a chunk whose call failed without questions and notes it; an in-band provider error counts as a failure", async () => {
    const chat = new ScriptedChat((prompt) => (prompt.includes("Eiffel") ? "**ERROR**: quota exceeded" : "What is it?"));
    const { questions, notes } = await generateQuestions(ENGLISH, 3, enrichmentContext({ chat, chatId: "gpt-4o@OpenAI" }));
    expect(questions).toEqual([["What is it?"], ["What is it?"], []]);
    expect(notes).toHaveLength(1);
    expect(englishText(notes[0])).toMatch(/^Questions: the chat model failed on 1 of 3 chunks, which got none \(chunk 3: \*\*ERROR\*\*: quota exceeded\)$/);
  });

  it("reads questions however the model numbers them", () => {
    expect(parseQuestions("Q1: What is RAG?\n- Why cite sources?\n**How are chunks made?**\n问题1：什么是知识库？\n\n", 10)).toEqual([
      "What is RAG?",
      "Why cite sources?",
      "How are chunks made?",
      "什么是知识库？",
    ]);
  });
});
