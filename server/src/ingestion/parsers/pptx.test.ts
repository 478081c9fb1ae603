import { parserContext, PPTX_TITLES, samplePptx } from "../testing/sample-files";
import { ParseError } from "../types";
import { pptxParser } from "./pptx";

describe("the PPTX parser", () => {
  it("gives each slide a page break with its title, then its text, bullets and tables, then its speaker notes", async () => {
    const progress: number[] = [];
    const document = await pptxParser.parse(await samplePptx(), parserContext("deck.pptx", { progress: (fraction) => progress.push(fraction) }));
    expect(document.pageCount).toBe(3);
    expect(document.blocks).toEqual([
      { kind: "pageBreak", page: 1, title: PPTX_TITLES[0] },
      { kind: "paragraph", page: 1, text: "Answers questions from your own documents." },
      { kind: "paragraph", page: 1, text: "Welcome everyone and introduce the product." },
      { kind: "pageBreak", page: 2, title: PPTX_TITLES[1] },
      { kind: "listItem", page: 2, depth: 0, text: "Parse the file" },
      { kind: "listItem", page: 2, depth: 1, text: "Detect the layout" },
      { kind: "listItem", page: 2, depth: 0, text: "Chunk and embed" },
      { kind: "paragraph", page: 2, text: "Mention that OCR runs offline." },
      { kind: "pageBreak", page: 3, title: PPTX_TITLES[2] },
      // the table does not mark its first row as a header row (PowerPoint's "Header Row" option)
      { kind: "table", page: 3, header: [], rows: [["Metric", "Value"], ["Recall", "0.92"]] },
      { kind: "paragraph", page: 3, text: "Numbers are from the March evaluation." },
    ]);
    expect(progress.map((fraction) => fraction.toFixed(2))).toEqual(["0.33", "0.67", "1.00"]);
  });

  it("refuses a file that is not a presentation", async () => {
    await expect(pptxParser.parse(Buffer.from("PK but not really"), parserContext("fake.pptx"))).rejects.toThrow(ParseError.because("errors.parsing.pptxInvalid"));
  });
});
