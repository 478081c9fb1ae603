import { countTokens } from "../../models/tokens";
import { naiveMethod } from "./naive";
import { box, context, doc, h, p, png, sentences } from "./test-support";

describe("General (naive) chunking", () => {
  it("keeps every chunk within chunk_token_num tokens", async () => {
    const document = doc(sentences(80).map((s, i) => p(s, 1 + Math.floor(i / 20))));
    const { chunks } = await naiveMethod.chunk(document, context({ chunk_token_num: 128 }));
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(countTokens(chunk.text)).toBeLessThanOrEqual(128);
    expect(chunks.map((c) => c.text).join("\n")).toContain("Sentence 80 tells");
  });

  it("splits on the configured delimiter before merging", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `第${i + 1}句讲述了河流的故事`).join("。") + "。";
    const { chunks } = await naiveMethod.chunk(doc([p(text)]), context({ chunk_token_num: 40, delimiter: "。" }));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.text.endsWith("。")).toBe(true);
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(40);
    }
  });

  it("starts a new chunk at a heading and titles chunks with the heading path", async () => {
    const document = doc([h(1, "Installation"), ...sentences(3).map((s) => p(s)), h(2, "On Linux"), ...sentences(3, "kernel").map((s) => p(s))]);
    const { chunks } = await naiveMethod.chunk(document, context());
    expect(chunks).toHaveLength(2);
    expect(chunks[0].title).toBe("Installation");
    expect(chunks[1].title).toBe("Installation > On Linux");
    expect(chunks[1].text.startsWith("On Linux")).toBe(true);
  });

  it("does not leave a heading alone in a tiny chunk", async () => {
    const document = doc([h(1, "Part One"), h(2, "Getting started"), ...sentences(4).map((s) => p(s))]);
    const { chunks } = await naiveMethod.chunk(document, context());
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text.startsWith("Part One\nGetting started")).toBe(true);
    expect(chunks[0].title).toBe("Part One > Getting started");
  });

  it("renders a table as its own chunk of 'column: value' rows, or as HTML with html4excel", async () => {
    const table = { kind: "table" as const, caption: "Prices", header: ["Fruit", "Price"], rows: [["Apple", "3"], ["Pear", "4"]] };
    const document = doc([p("Our prices follow."), table]);
    const { chunks } = await naiveMethod.chunk(document, context());
    expect(chunks.map((c) => c.text)).toEqual(["Our prices follow.", "Prices\nFruit: Apple; Price: 3\nFruit: Pear; Price: 4"]);
    const html = await naiveMethod.chunk(document, context({ html4excel: true }));
    expect(html.chunks[1].text).toBe("<table><caption>Prices</caption><tr><th>Fruit</th><th>Price</th></tr><tr><td>Apple</td><td>3</td></tr><tr><td>Pear</td><td>4</td></tr></table>");
  });

  it("takes an image's OCR text, and keeps the boxes of the blocks merged into a chunk", async () => {
    const document = doc([
      p("The diagram shows the pipeline.", 1, [box(1, 100)]),
      { kind: "image", image: png, text: "parse → chunk → embed", page: 1, positions: [box(1, 200)] },
      { kind: "image", image: png, text: "", page: 2, positions: [box(2, 50)] },
    ]);
    const { chunks } = await naiveMethod.chunk(document, context());
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text).toBe("The diagram shows the pipeline.\nparse → chunk → embed");
    expect(chunks[0].positions).toEqual([box(1, 100), box(1, 200)]);
  });

  it("never produces an empty chunk", async () => {
    const { chunks } = await naiveMethod.chunk(doc([p("   "), p("\n\n"), h(1, " "), { kind: "pageBreak", page: 2 }]), context());
    expect(chunks).toEqual([]);
  });
});
