import { countTokens } from "../../models/tokens";
import { bookMethod } from "./book";
import { lawsMethod } from "./laws";
import { manualMethod } from "./manual";
import { paperMethod } from "./paper";
import { context, doc, h, p, sentences } from "./test-support";

describe("Book", () => {
  it("finds chapters and sections by their numbering when the file has no headings, and never mixes two sections", async () => {
    const text = [
      "Chapter 1 The Valley",
      ...sentences(6, "valley"),
      "1.1 The Mill",
      ...sentences(6, "mill"),
      "Chapter 2 The Town",
      ...sentences(6, "town"),
    ].join("\n");
    const { chunks } = await bookMethod.chunk(doc([p(text)]), context({ chunk_token_num: 512 }));
    expect(chunks.map((c) => c.title)).toEqual(["Chapter 1 The Valley", "Chapter 1 The Valley > 1.1 The Mill", "Chapter 2 The Town"]);
    expect(chunks[1].text).toContain("the mill bends");
    expect(chunks[1].text).not.toContain("the valley bends");
    expect(chunks[2].text).not.toContain("the mill bends");
  });

  it("reads Chinese chapter numbering (第一章, 第一节)", async () => {
    const text = "第一章 总述\n这一章讲述河流的起源和变化。\n第一节 源头\n河流发源于高山冰川。\n第二章 流域\n流域覆盖三个省份。";
    const { chunks } = await bookMethod.chunk(doc([p(text)]), context({ chunk_token_num: 8 * 4 }));
    expect(chunks.find((c) => c.text.includes("流域覆盖"))?.title).toBe("第二章 流域");
    expect(chunks.every((c) => !(c.text.includes("冰川") && c.text.includes("流域覆盖")))).toBe(true);
  });

  it("splits a long section by the token budget, each part titled with the section path", async () => {
    const { chunks } = await bookMethod.chunk(doc([h(1, "Long chapter"), ...sentences(60).map((s) => p(s))]), context({ chunk_token_num: 100 }));
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.title).toBe("Long chapter");
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(100);
    }
  });
});

describe("Laws", () => {
  it("makes each article one chunk, opened by its chapter path", async () => {
    const text = [
      "Chapter I General Provisions",
      "Article 1 This law governs the use of rivers.",
      "It applies to every province.",
      "Article 2 Water belongs to the public.",
      "Chapter II Permits",
      "Article 3 A permit is needed to build a dam.",
    ].join("\n");
    const { chunks } = await lawsMethod.chunk(doc([p(text)]), context());
    expect(chunks.map((c) => c.text)).toEqual([
      "Chapter I General Provisions\nArticle 1 This law governs the use of rivers.\nIt applies to every province.",
      "Chapter I General Provisions\nArticle 2 Water belongs to the public.",
      "Chapter II Permits\nArticle 3 A permit is needed to build a dam.",
    ]);
    expect(chunks[2].title).toBe("Chapter II Permits > Article 3");
  });

  it("keeps an article's numbered items inside the article", async () => {
    const text = "第一章 总则\n第一条 下列行为应当取得许可\n一、修建水坝\n二、取水\n1. 工业取水\n第二条 本法自公布之日起施行。";
    const { chunks } = await lawsMethod.chunk(doc([p(text)]), context());
    expect(chunks.map((c) => c.text)).toEqual(["第一章 总则\n第一条 下列行为应当取得许可\n一、修建水坝\n二、取水\n1. 工业取水", "第一章 总则\n第二条 本法自公布之日起施行。"]);
  });

  it("reads 第X条 articles under 第X章 and § sections", async () => {
    const chinese = await lawsMethod.chunk(doc([h(1, "第一章 总则"), p("第一条 为了保护水资源，制定本法。"), p("第二条 本法适用于全国。")]), context());
    expect(chinese.chunks.map((c) => c.title)).toEqual(["第一章 总则 > 第一条", "第一章 总则 > 第二条"]);
    const paragraphs = await lawsMethod.chunk(doc([p("§ 1 Scope. This title applies."), p("§ 2 Definitions. Words mean what they say.")]), context());
    expect(paragraphs.chunks.map((c) => c.title)).toEqual(["§ 1", "§ 2"]);
  });

  it("splits a long article by the budget, each part repeating the path and the article's number", async () => {
    const article = ["Article 9 The duties of the authority are these.", ...sentences(30)].map((s) => p(s));
    const { chunks } = await lawsMethod.chunk(doc([h(1, "Chapter 3 Authority"), ...article]), context({ chunk_token_num: 120 }));
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(120);
      expect(chunk.text.startsWith("Chapter 3 Authority\n")).toBe(true);
      expect(chunk.title).toBe("Chapter 3 Authority > Article 9");
    }
    expect(chunks[1].text).toMatch(/^Chapter 3 Authority\nArticle 9 \(continued\)\n/);
  });
});

describe("Manual", () => {
  it("opens every chunk with its section path and keeps tables whole", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [`Setting ${i}`, `Value ${i} for the pump`]);
    const document = doc([
      h(1, "Pump"),
      h(2, "Settings"),
      p("The settings below apply to all pumps."),
      { kind: "table", header: ["Setting", "Value"], rows },
      h(2, "Cleaning"),
      p("Rinse the filter weekly."),
    ]);
    const { chunks } = await manualMethod.chunk(document, context({ chunk_token_num: 64 }));
    expect(chunks.map((c) => c.text.split("\n")[0])).toEqual(["Pump > Settings", "Pump > Settings", "Pump > Cleaning"]);
    expect(chunks[1].text).toContain("Setting: Setting 0; Value: Value 0 for the pump");
    expect(chunks[1].text).toContain("Setting: Setting 39");
    expect(chunks[2]).toMatchObject({ text: "Pump > Cleaning\nRinse the filter weekly.", title: "Pump > Cleaning" });
  });
});

describe("Paper", () => {
  it("keeps title, authors and abstract whole in one chunk, then one section at a time with the references apart", async () => {
    const abstract = sentences(50, "model").join(" ");
    const document = doc([
      h(1, "Rivers as Graphs"),
      p("Ada Lovelace, Alan Turing"),
      h(2, "Abstract"),
      p(abstract),
      h(2, "1 Introduction"),
      p("Rivers branch like graphs."),
      h(2, "2 Method"),
      p("We walk the river network."),
      h(2, "References"),
      p("[1] Euler, L. Seven bridges. 1736."),
      p("[2] Dijkstra, E. Shortest paths. 1959."),
    ]);
    const { chunks } = await paperMethod.chunk(document, context({ chunk_token_num: 128 }));
    expect(countTokens(chunks[0].text)).toBeGreaterThan(128);
    expect(chunks[0].text).toBe(`Rivers as Graphs\nAda Lovelace, Alan Turing\nAbstract\n${abstract}`);
    expect(chunks[0].title).toBe("Rivers as Graphs");
    expect(chunks.slice(1).map((c) => c.title)).toEqual(["1 Introduction", "2 Method", "References"]);
    expect(chunks[3].text).toBe("References\n[1] Euler, L. Seven bridges. 1736.\n[2] Dijkstra, E. Shortest paths. 1959.");
  });

  it('finds an abstract written as a paragraph that opens with "Abstract" or "摘要"', async () => {
    const english = await paperMethod.chunk(doc([p("Deep Rivers"), p("Abstract— We study rivers."), h(1, "Introduction"), p("Rivers flow.")], { title: "Deep Rivers" }), context());
    expect(english.chunks[0].text).toBe("Deep Rivers\nAbstract— We study rivers.");
    const chinese = await paperMethod.chunk(doc([h(1, "河流研究"), p("摘要：本文研究河流。"), h(2, "引言"), p("河流很长。")]), context());
    expect(chinese.chunks.map((c) => c.title)).toEqual(["河流研究", "引言"]);
  });
});
