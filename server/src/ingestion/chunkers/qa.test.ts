import { qaMethod } from "./qa";
import { box, context, doc, h, p } from "./test-support";

const asPairs = (chunks: { text: string }[]) => chunks.map((c) => c.text);

describe("Q&A", () => {
  it("makes one chunk per row of a question/answer sheet, skipping its header row, and embeds the question only", async () => {
    const sheet = doc([{ kind: "table", header: [], rows: [["Question", "Answer"], ["How long is the Tagus?", "1,007 km."], ["Where does it end?", "In Lisbon."]], positions: [box(1, 5)] }]);
    const { chunks } = await qaMethod.chunk(sheet, context({}, { fileName: "faq.xlsx" }));
    expect(chunks).toEqual([
      { text: "Question: How long is the Tagus?\nAnswer: 1,007 km.", embeddingText: "How long is the Tagus?", questions: ["How long is the Tagus?"], positions: [box(1, 5)] },
      { text: "Question: Where does it end?\nAnswer: In Lisbon.", embeddingText: "Where does it end?", questions: ["Where does it end?"], positions: [box(1, 5)] },
    ]);
  });

  it("reads 问题/答案 columns by their names, in any order", async () => {
    const sheet = doc([{ kind: "table", header: ["答案", "问题"], rows: [["一千零七公里。", "塔霍河有多长？"]] }]);
    const { chunks } = await qaMethod.chunk(sheet, context({}, { fileName: "faq.csv" }));
    expect(asPairs(chunks)).toEqual(["Question: 塔霍河有多长？\nAnswer: 一千零七公里。"]);
  });

  it("reads Markdown headings as questions and the text under them as answers", async () => {
    const md = doc([h(2, "How do I reset my password?"), p("Open Settings."), p("Choose Reset."), h(2, "Can I change my e-mail?"), p("Yes, under Profile.")]);
    const { chunks } = await qaMethod.chunk(md, context({}, { fileName: "faq.md" }));
    expect(asPairs(chunks)).toEqual([
      "Question: How do I reset my password?\nAnswer: Open Settings.\nChoose Reset.",
      "Question: Can I change my e-mail?\nAnswer: Yes, under Profile.",
    ]);
  });

  it("reads Q:/A:, Question:/Answer: and 问：/答： lines of a text file", async () => {
    const txt = doc([p("Q: What is RAG?\nA: Retrieval-augmented generation.\nIt cites sources.\nQuestion: Is it offline?\nAnswer: It can be.\n问：支持中文吗？\n答：支持。")]);
    const { chunks } = await qaMethod.chunk(txt, context({}, { fileName: "faq.txt" }));
    expect(asPairs(chunks)).toEqual([
      "Question: What is RAG?\nAnswer: Retrieval-augmented generation.\nIt cites sources.",
      "Question: Is it offline?\nAnswer: It can be.",
      "Question: 支持中文吗？\nAnswer: 支持。",
    ]);
  });

  it("reads tab-separated question and answer lines", async () => {
    const { chunks } = await qaMethod.chunk(doc([p("What is a chunk?\tA piece of a document.\nWhat is a token?\tA unit of text.")]), context({}, { fileName: "faq.txt" }));
    expect(asPairs(chunks)).toEqual(["Question: What is a chunk?\nAnswer: A piece of a document.", "Question: What is a token?\nAnswer: A unit of text."]);
  });

  it("reads questions ending with a question mark, or numbered, in a document, with the paragraphs that answer them", async () => {
    const docx = doc([h(1, "Frequently asked questions"), p("1. Who may apply?"), p("Anyone over 18."), p("What does it cost?"), p("Nothing."), p("It is free for students too.")]);
    const { chunks, notes } = await qaMethod.chunk(docx, context({}, { fileName: "faq.docx" }));
    expect(asPairs(chunks)).toEqual(["Question: 1. Who may apply?\nAnswer: Anyone over 18.", "Question: What does it cost?\nAnswer: Nothing.\nIt is free for students too."]);
    expect(notes).toEqual([]);
  });
});
