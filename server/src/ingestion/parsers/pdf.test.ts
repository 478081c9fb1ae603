import { englishText } from "../parse-log";
import { closeTesseract } from "../../models/builtin/tesseract-ocr";
import { corruptPdf, encryptedPdf, parserContext, PDF_TEXT, samplePdf, sampleScannedPdf } from "../testing/sample-files";
import type { Block } from "../types";
import { ParseError } from "../types";
import { pdfParser } from "./pdf";

afterAll(() => closeTesseract());

const texts = (blocks: Block[]) => blocks.map((block) => ("text" in block ? block.text : block.kind));

describe("the PDF parser", () => {
  it("reads headings by font size, paragraphs joined across wrapped lines, the title and the page count", async () => {
    const document = await pdfParser.parse(await samplePdf(), parserContext("report.pdf"));
    expect(document.title).toBe(PDF_TEXT.title);
    expect(document.pageCount).toBe(2);
    expect(document.blocks.filter((block) => block.page === 1).map((block) => [block.kind, "level" in block ? block.level : undefined, "text" in block ? block.text : ""])).toEqual([
      ["heading", 1, PDF_TEXT.title],
      ["heading", 2, "1. Introduction"],
      ["paragraph", undefined, PDF_TEXT.introduction],
      ["heading", 2, "2. Method"],
      ["paragraph", undefined, PDF_TEXT.method],
    ]);
    expect(document.notes).toEqual([]);
  });

  it("reads a two-column page column by column, with the closing line last", async () => {
    const document = await pdfParser.parse(await samplePdf(), parserContext("report.pdf"));
    expect(texts(document.blocks.filter((block) => block.page === 2))).toEqual(["3. Two columns", ...PDF_TEXT.left, ...PDF_TEXT.right, PDF_TEXT.footer]);
  });

  it("places every block on its page in points measured from the top of the page", async () => {
    const document = await pdfParser.parse(await samplePdf(), parserContext("report.pdf"));
    const introduction = document.blocks.find((block) => "text" in block && block.text === "1. Introduction");
    const [position] = introduction?.positions ?? [];
    expect(position.page).toBe(1);
    expect(position.x0).toBeCloseTo(72, 0);
    expect(position.top).toBeGreaterThan(125);
    expect(position.bottom).toBeLessThan(150);
    const rightColumn = document.blocks.find((block) => "text" in block && block.text === PDF_TEXT.right[0]);
    expect(rightColumn?.positions?.[0]).toMatchObject({ page: 2, x0: 320 });
    expect(rightColumn!.positions![0].x1).toBeLessThanOrEqual(520);
    expect(rightColumn!.positions![0].bottom - rightColumn!.positions![0].top).toBeGreaterThan(20);
  });

  it("reads only the requested page ranges, reports progress per page, and still counts every page", async () => {
    const progress: number[] = [];
    const document = await pdfParser.parse(await samplePdf(), parserContext("report.pdf", { pages: [[2, 5]], progress: (fraction) => progress.push(fraction) }));
    expect(document.pageCount).toBe(2);
    expect(new Set(document.blocks.map((block) => block.page))).toEqual(new Set([2]));
    expect(progress).toEqual([1]);
  });

  it("reads a scanned page by OCR of its picture, and says so in the notes", async () => {
    const document = await pdfParser.parse(await sampleScannedPdf(), parserContext("scan.pdf"));
    const text = texts(document.blocks).join("\n");
    expect(text).toContain("Invoice 4711 from Harbour Supplies");
    expect(text).toContain("Total due: 250 euros");
    expect(document.blocks[0].positions?.[0]).toMatchObject({ page: 1, x0: 72, x1: 540, top: 72 });
    expect(document.notes.map(englishText)).toEqual(["page 1 has no text layer: read by OCR"]);
  });

  it("reads nothing from a scanned page when layout recognition is off, and says why", async () => {
    const document = await pdfParser.parse(await sampleScannedPdf(), parserContext("scan.pdf", { layoutRecognize: false }));
    expect(document.blocks).toEqual([]);
    expect(document.notes.map(englishText)).toEqual(["page 1 has no text layer and layout recognition is off: nothing was read"]);
  });

  it("refuses a damaged PDF with the reason", async () => {
    const failure = pdfParser.parse(await corruptPdf(), parserContext("broken.pdf"));
    await expect(failure).rejects.toBeInstanceOf(ParseError);
    await expect(failure).rejects.toThrow(/^The PDF is damaged: /);
  });

  it("refuses a PDF protected by a password", async () => {
    await expect(pdfParser.parse(await encryptedPdf(), parserContext("secret.pdf"))).rejects.toThrow(ParseError.because("errors.parsing.pdfEncrypted"));
  });

  it("stops when the parse is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(pdfParser.parse(await samplePdf(), parserContext("report.pdf", { signal: controller.signal }))).rejects.toMatchObject({ name: "AbortError" });
  });
});
