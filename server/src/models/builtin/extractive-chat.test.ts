import type { ChatEvent, ChatMessage } from "../model-types";
import { BuiltinExtractiveChat, nearlySameWord, splitSentences, streamPieces } from "./extractive-chat";
import { NOT_FOUND_SENTENCE, readPrompt } from "./knowledge-prompt";

jest.setTimeout(120_000);

/** RAGFlow's default system prompt (the API's wording says "dataset"), filled as its kb_prompt fills it. */
function ragflowPrompt(chunks: { title: string; content: string }[], place = "knowledge base"): string {
  const knowledge = chunks.map((c, i) => `\nID: ${i}\n├── Title: ${c.title}\n└── Content:\n${c.content}`).join("\n");
  return (
    `You are an intelligent assistant. Please summarize the content of the ${place} to answer the question. Please list the data in the ${place} and answer in detail. ` +
    `When all ${place} content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the ${place}!" Answers need to consider chat history.\n` +
    `      Here is the knowledge base:\n      ${knowledge}\n      The above is the knowledge base.`
  );
}

const CHUNKS = [
  {
    title: "normans.txt",
    content:
      "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, a region in France. They were descended from Norse raiders and pirates from Denmark, Iceland and Norway.",
  },
  {
    title: "complexity.txt",
    content:
      "Computational complexity theory classifies computational problems according to their inherent difficulty. A problem is regarded as inherently difficult if its solution requires significant resources.",
  },
  {
    title: "amazon.txt",
    content: "The Amazon rainforest covers much of the Amazon basin of South America. The basin encompasses seven million square kilometres.",
  },
];

async function run(messages: ChatMessage[], options: { maxTokens?: number } = {}, delayMs = 0) {
  const events: ChatEvent[] = [];
  for await (const event of new BuiltinExtractiveChat(delayMs).stream(messages, options)) events.push(event);
  const deltas = events.filter((e): e is Extract<ChatEvent, { type: "delta" }> => e.type === "delta").map((e) => e.text);
  return {
    deltas,
    text: deltas.join(""),
    usage: events.find((e) => e.type === "usage"),
    finish: events.find((e) => e.type === "finish"),
  };
}

describe("the built-in extractive chat model", () => {
  it("answers with the sentence that holds the answer, cites its chunk as [ID:n], and streams it word by word", async () => {
    const started = performance.now();
    const answer = await run(
      [
        { role: "system", content: ragflowPrompt(CHUNKS) },
        { role: "user", content: "How large is the Amazon basin?" },
      ],
      {},
      5,
    );
    expect(answer.text).toContain("seven million square kilometres");
    expect(answer.text).toContain("[ID:2]");
    expect(answer.text).not.toContain("[ID:0]");
    expect(answer.deltas.length).toBeGreaterThan(8);
    // Each delta is a word or a citation, and a pause separates them.
    expect(Math.max(...answer.deltas.map((d) => d.length))).toBeLessThan(20);
    expect(performance.now() - started).toBeGreaterThan(5 * (answer.deltas.length - 1));
    expect(answer.usage).toEqual({ type: "usage", usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), totalTokens: expect.any(Number) } });
    const usage = (answer.usage as Extract<ChatEvent, { type: "usage" }>).usage;
    expect(usage.promptTokens).toBeGreaterThan(100);
    expect(usage.completionTokens).toBeGreaterThan(5);
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens);
    expect(answer.finish).toEqual({ type: "finish", reason: "stop" });
  });

  it("says the answer is not found when the knowledge is about something else", async () => {
    const answer = await run([
      { role: "system", content: ragflowPrompt(CHUNKS) },
      { role: "user", content: "Who won the 1998 football World Cup final?" },
    ]);
    expect(answer.text).toBe(NOT_FOUND_SENTENCE);
    expect(NOT_FOUND_SENTENCE).toBe("The answer you are looking for is not found in the knowledge base!");
  });

  it("says it with the prompt's own wording, and when retrieval found nothing at all", async () => {
    const dataset = await run([
      { role: "system", content: ragflowPrompt(CHUNKS, "dataset") },
      { role: "user", content: "What is the boiling point of mercury?" },
    ]);
    expect(dataset.text).toBe("The answer you are looking for is not found in the dataset!");
    const empty = await run([
      { role: "system", content: ragflowPrompt([]) },
      { role: "user", content: "Where is Normandy?" },
    ]);
    expect(empty.text).toBe(NOT_FOUND_SENTENCE);
  });

  it("does not answer a question whose key name the knowledge never mentions", async () => {
    const answer = await run([
      { role: "system", content: ragflowPrompt(CHUNKS) },
      { role: "user", content: "Which region did the Vikings of Sweden give their name to in the 12th century?" },
    ]);
    expect(answer.text).toBe(NOT_FOUND_SENTENCE);
  });

  it("tells a question that merely resembles the knowledge from one it answers", async () => {
    const chunks = [
      {
        title: "braddock.txt",
        content:
          "In 1755, six colonial governors met with General Edward Braddock, the newly arrived British Army commander. They planned a four-way attack on the French. The attack did not succeed.",
      },
      ...CHUNKS,
    ];
    const ask = (question: string) => run([{ role: "system", content: ragflowPrompt(chunks) }, { role: "user", content: question }]);
    const answered = await ask("What did the colonial governors plan with Braddock in 1755?");
    expect(answered.text).toContain("Braddock");
    expect(answered.text).toContain("[ID:0]");
    // Another year, a negation the best sentence does not have, a qualifier it lacks: not found.
    expect((await ask("What did the colonial governors plan with Braddock in 1756?")).text).toBe(NOT_FOUND_SENTENCE);
    expect((await ask("Who did the colonial governors not meet in 1755?")).text).toBe(NOT_FOUND_SENTENCE);
    expect((await ask("What was the only attack the colonial governors planned with Braddock?")).text).toBe(NOT_FOUND_SENTENCE);
    // A "when" inside a clause does not ask for a date; a misspelt name is still the name.
    expect((await ask("Which commander did the governors meet when he had newly arrived?")).text).toContain("Edward Braddock");
    expect((await ask("How large is the basin of the Amazon rainforst?")).text).toContain("seven million square kilometres");
  });

  it("answers only where the sentence holds what is asked for, and takes a name in its other forms", async () => {
    const chunks = [
      {
        title: "harbour.txt",
        content:
          "The harbour of Brest was rebuilt by Parisian engineers for the European Union's fishing fleet. The works did not reach the old military docks. " +
          "The new breakwater is the longest on the coast. Its designer, Anne Morel, later taught at the naval school.",
      },
      ...CHUNKS,
    ];
    const ask = (question: string) => run([{ role: "system", content: ragflowPrompt(chunks) }, { role: "user", content: question }]);
    // "Paris" is there as "Parisian", the "EU" as the "European Union".
    expect((await ask("Engineers from which city rebuilt the harbour of Brest for the EU fishing fleet?")).text).toContain("[ID:0]");
    // The sentence about the designer has no year, nor the sentence about the docks a negation of what they reached.
    expect((await ask("In what year was Anne Morel, the breakwater's designer, born?")).text).toBe(NOT_FOUND_SENTENCE);
    expect((await ask("Which docks did the harbour works not rebuild for the fishing fleet?")).text).toBe(NOT_FOUND_SENTENCE);
    // "Shortest" has its opposite in the sentence.
    expect((await ask("Which breakwater is the shortest on the coast of Brest?")).text).toBe(NOT_FOUND_SENTENCE);
    // The text denies that the works reached the docks.
    expect((await ask("Which harbour works reached the old military docks of Brest?")).text).toBe(NOT_FOUND_SENTENCE);
    // "Its designer" ties the last sentence to the breakwater of the one before: one statement.
    expect((await ask("At which school did the designer of the new breakwater later teach?")).text).toContain("naval school");
  });

  it("reads a chunk's opening heading as its title, not as a sentence of the answer", async () => {
    const chunks = [{ title: "doc-17.txt", content: "Brest harbour\n\nIt was rebuilt in 1998 by engineers from Lyon. Fishing boats moor on the western quay." }, ...CHUNKS];
    const answer = await run([
      { role: "system", content: ragflowPrompt(chunks) },
      { role: "user", content: "In what year was Brest harbour rebuilt?" },
    ]);
    expect(answer.text).toBe("It was rebuilt in 1998 by engineers from Lyon. [ID:0]");
  });

  it("never pretends to be a language model: without knowledge it says what it is", async () => {
    const english = await run([{ role: "user", content: "Write me a poem about the sea." }]);
    expect(english.text).toMatch(/extractive model, not a language model/);
    expect(english.text).toMatch(/knowledge base/);
    const chinese = await run([{ role: "user", content: "你好，请介绍一下你自己" }]);
    expect(chinese.text).toMatch(/抽取式模型/);
    const greeting = await run([
      { role: "system", content: ragflowPrompt(CHUNKS) },
      { role: "user", content: "Hello!" },
    ]);
    expect(greeting.text).toMatch(/extractive model/);
  });

  it("reads plain context given with the question, and older RAGFlow prompts with numbered fragments", async () => {
    const plain = await run([
      { role: "user", content: `Context:\n${CHUNKS[0].content}\n\n${CHUNKS[2].content}\n\nQuestion: From which countries did the Norse raiders come?` },
    ]);
    expect(plain.text).toContain("Denmark, Iceland and Norway");
    expect(plain.text).toContain("[ID:0]");

    const older =
      "Answer from the knowledge base.\nHere is the knowledge base:\n------\nDocument: complexity.txt \nRelevant fragments as following:\n" +
      `1. ${CHUNKS[1].content}\n------\nDocument: amazon.txt \nRelevant fragments as following:\n1. ${CHUNKS[2].content}\nThe above is the knowledge base.`;
    const answer = await run([
      { role: "system", content: older },
      { role: "user", content: "How does complexity theory classify computational problems?" },
    ]);
    expect(answer.text).toBe("Computational complexity theory classifies computational problems according to their inherent difficulty. [ID:0]");
  });

  it("answers Chinese questions from Chinese knowledge", async () => {
    const chunks = [
      { title: "天气.txt", content: "今天北京天气晴朗，气温二十度。明天有小雨。" },
      { title: "战国无双3.txt", content: "《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三续作。本作以三大故事为主轴。" },
    ];
    const answer = await run([
      { role: "system", content: ragflowPrompt(chunks) },
      { role: "user", content: "《战国无双3》是由哪两个公司合作开发的？" },
    ]);
    expect(answer.text).toContain("光荣和ω-force开发");
    expect(answer.text).toContain("[ID:1]");
    expect(answer.deltas.length).toBeGreaterThan(10);
  });

  it("stops at the token limit it is given", async () => {
    const answer = await run([{ role: "user", content: "Hi" }], { maxTokens: 8 });
    expect(answer.finish).toEqual({ type: "finish", reason: "length" });
    expect((answer.usage as Extract<ChatEvent, { type: "usage" }>).usage.completionTokens).toBeLessThanOrEqual(8);
    expect(answer.text.length).toBeGreaterThan(0);
  });
});

describe("answers that hold up", () => {
  const ask = (chunks: { title: string; content: string }[], question: string, history: string[] = []) =>
    run([{ role: "system", content: ragflowPrompt(chunks) }, ...history.map((content) => ({ role: "user" as const, content })), { role: "user", content: question }]);

  it("never says a sentence twice, nor a near copy of it from another chunk (a RAPTOR summary of the same text)", async () => {
    const policy = "Employees may work from home up to three days a week with their manager's approval.";
    const chunks = [
      { title: "handbook.md", content: `Remote work\n\n${policy} Equipment for the home office is reimbursed up to 300 EUR.` },
      { title: "handbook.md", content: `${policy}` },
      { title: "RAPTOR summary", content: `Employees may work from home up to three days a week, with their manager's approval. Equipment for the home office is reimbursed up to 300 EUR.` },
      ...CHUNKS,
    ];
    const answer = await ask(chunks, "Can employees work from home?");
    expect(answer.text).toContain("three days a week");
    expect(answer.text.match(/three days a week/g)).toHaveLength(1);
  });

  it("answers both parts of a two-part question when the knowledge holds them", async () => {
    const chunks = [
      { title: "tides.txt", content: "Tides are caused by the gravitational pull of the moon on the oceans." },
      { title: "bread.txt", content: "Sourdough bread rises slowly because wild yeast ferments the dough overnight." },
      { title: "calendar.txt", content: "The highest tides of the month, the spring tides, come at new moon and full moon." },
      ...CHUNKS,
    ];
    const answer = await ask(chunks, "What causes tides and when are they highest?");
    expect(answer.text).toContain("gravitational pull of the moon");
    expect(answer.text).toContain("new moon and full moon");
    expect(answer.text).toMatch(/\[ID:0\].*\[ID:2\]/);
    const chinese = await ask(
      [
        { title: "潮汐.txt", content: "潮汐是由月球的引力引起的。" },
        { title: "日历.txt", content: "每月最大的潮汐出现在农历1日和15日前后。" },
      ],
      "潮汐是由什么引起的？最大的潮汐什么时候出现？",
    );
    expect(chinese.text).toContain("月球的引力");
    expect(chinese.text).toContain("农历1日和15日");
  });

  it("tells a table row as a sentence, not as a dump of its columns", async () => {
    const rows = [
      "sku: GT-3; product: Glacier 3-season tent; price: 4,999 NOK; stock: 12",
      "sku: FJ-1; product: Fjord sleeping bag; price: 1,499 NOK; stock: 40",
      "sku: TR-2; product: Trail stove; price: 899 NOK; stock: 7",
    ].join("\n");
    const chunks = [{ title: "products.csv", content: rows }, ...CHUNKS];
    expect((await ask(chunks, "How much does the Glacier 3-season tent cost?")).text).toBe("The Glacier 3-season tent costs 4,999 NOK. [ID:0]");
    expect((await ask(chunks, "What is the stock of the Fjord sleeping bag?")).text).toBe("The stock of the Fjord sleeping bag is 40. [ID:0]");
  });

  it("says its own sentences in the language of the question", async () => {
    const chinese = await ask(CHUNKS, "1998年世界杯足球赛决赛的冠军是哪个国家？");
    expect(chinese.text).toBe("知识库中未找到您要的答案！");
    const spanish = await ask(CHUNKS, "¿Quién ganó la final de la Copa del Mundo de fútbol de 1998?");
    expect(spanish.text).toBe("¡La respuesta que busca no se encuentra en la base de conocimiento!");
    // A prompt written with one of its sentences is matched in that language.
    const written = await run([
      { role: "system", content: `回答问题。如果知识库中没有答案，请回答"知识库中未找到您要的答案！"\nHere is the knowledge base:\nID: 0\n├── Title: a.txt\n└── Content:\n今天北京天气晴朗。\nThe above is the knowledge base.` },
      { role: "user", content: "上海的人口有多少？" },
    ]);
    expect(written.text).toBe("知识库中未找到您要的答案！");
  });

  it("borrows an earlier question's words only for a question that refers back to it", async () => {
    const chunks = [
      { title: "bridge.txt", content: "The Storseisundet Bridge opened in 1989. Its architect was Knut Berg." },
      { title: "policy.md", content: "Staff may work from home on Fridays." },
      ...CHUNKS,
    ];
    expect((await ask(chunks, "Who was its architect?", ["When did the Storseisundet Bridge open?"])).text).toContain("Knut Berg");
    expect((await ask(chunks, "Can I work from home?", ["When did the Storseisundet Bridge open?"])).text).toBe("Staff may work from home on Fridays. [ID:1]");
  });
});

describe("reading a prompt", () => {
  it("finds RAGFlow's ID blocks with their titles, the question, the history and the not-found sentence", () => {
    const read = readPrompt([
      { role: "system", content: ragflowPrompt(CHUNKS.slice(0, 2), "dataset") },
      { role: "user", content: "Who were the Normans?" },
      { role: "assistant", content: "…" },
      { role: "user", content: "  And where did they come from? " },
    ]);
    expect(read.passages).toEqual([
      { id: "0", title: "normans.txt", text: CHUNKS[0].content },
      { id: "1", title: "complexity.txt", text: CHUNKS[1].content },
    ]);
    expect(read.question).toBe("And where did they come from?");
    expect(read.history).toEqual(["Who were the Normans?"]);
    expect(read.notFoundSentence).toBe("The answer you are looking for is not found in the dataset!");
  });

  it("tells a prompt with no knowledge slot (null) from an empty one ([])", () => {
    expect(readPrompt([{ role: "system", content: "You are a helpful assistant." }, { role: "user", content: "Hi" }]).passages).toBeNull();
    expect(readPrompt([{ role: "system", content: ragflowPrompt([]) }, { role: "user", content: "Hi" }]).passages).toEqual([]);
  });

  it("takes a word one or two letters off for the same word, only when the word is long enough", () => {
    expect(nearlySameWord("seperating", "separating")).toBe(true);
    expect(nearlySameWord("improtant", "important")).toBe(true);
    expect(nearlySameWord("rainforst", "rainforest")).toBe(true);
    expect(nearlySameWord("cat", "car")).toBe(false);
    expect(nearlySameWord("1755", "1756")).toBe(false);
    expect(nearlySameWord("western", "eastern")).toBe(false);
  });

  it("splits sentences and stream pieces without losing a character", () => {
    expect(splitSentences("It rained. Then it stopped! Was it 3.5 mm? 今天下雨。明天晴。")).toEqual(["It rained.", "Then it stopped!", "Was it 3.5 mm?", "今天下雨。", "明天晴。"]);
    const text = "Normandy is a region in France. [ID:0] 诺曼底位于法国。[ID:1]";
    expect(streamPieces(text).join("")).toBe(text);
    expect(streamPieces(text)).toContain(" [ID:0]");
  });
});
