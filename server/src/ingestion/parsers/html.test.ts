import { closeTesseract } from "../../models/builtin/tesseract-ocr";
import { ENGLISH_IMAGE_LINES, parserContext, sampleEnglishImage, sampleHtml } from "../testing/sample-files";
import { htmlParser } from "./html";

afterAll(() => closeTesseract());

describe("the HTML parser", () => {
  it("reads the title, headings, paragraphs, nested and numbered list items, code and a table, without navigation or scripts", async () => {
    const document = await htmlParser.parse(await sampleHtml(), parserContext("notes.html"));
    expect(document.title).toBe("Release notes");
    expect(document.blocks).toEqual([
      { kind: "heading", level: 1, text: "Release notes" },
      { kind: "paragraph", text: "Version 2.0 brings faster search and a new parser." },
      { kind: "heading", level: 2, text: "Changes" },
      { kind: "listItem", depth: 0, text: "Faster search" },
      { kind: "listItem", depth: 1, text: "Index built in the background" },
      { kind: "listItem", depth: 0, text: "New PDF parser" },
      { kind: "listItem", depth: 0, text: "1. Upgrade the server" },
      { kind: "listItem", depth: 0, text: "2. Rebuild the index" },
      { kind: "code", language: "bash", text: "npm install\nnpm run build" },
      { kind: "table", caption: "Supported formats", header: ["Format", "Parser"], rows: [["PDF", "pdf.js"], ["Word", "mammoth"]] },
      { kind: "paragraph", text: "Questions? Write to help@example.com.\nWe answer within a day." },
    ]);
  });

  it("reads embedded pictures by OCR only when layout recognition is on", async () => {
    const html = Buffer.from(`<p>Before</p><img alt="Slogan" src="data:image/png;base64,${(await sampleEnglishImage()).toString("base64")}"><p>After</p>`);
    const read = await htmlParser.parse(html, parserContext("page.htm"));
    expect(read.blocks.map((block) => block.kind)).toEqual(["paragraph", "image", "paragraph"]);
    expect(read.blocks[1]).toMatchObject({ kind: "image", caption: "Slogan", text: ENGLISH_IMAGE_LINES.join("\n"), image: { mimeType: "image/png" } });
    const plain = await htmlParser.parse(html, parserContext("page.htm", { layoutRecognize: false }));
    expect(plain.blocks[1]).toMatchObject({ kind: "image", text: "" });
  });
});
