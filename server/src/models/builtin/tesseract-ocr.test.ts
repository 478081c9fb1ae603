import fs from "node:fs";
import path from "node:path";
import { closeTesseract, joinCjkSpacing, TesseractOcr } from "./tesseract-ocr";

// Rendered once with Chromium (DejaVu Sans and WenQuanYi Zen Hei, 32 px), see fixtures/README.md.
const fixture = (name: string) => ({ data: fs.readFileSync(path.join(__dirname, "fixtures", name)), mimeType: "image/png" });

const ocr = new TesseractOcr();

afterAll(() => closeTesseract());

describe("the built-in OCR (tesseract.js, offline)", () => {
  it("reads printed English", async () => {
    const { text, usage } = await ocr.describe(fixture("ocr-english.png"));
    expect(text).toBe("Retrieval augmented generation\ncites its sources.");
    expect(usage?.completionTokens).toBeGreaterThan(0);
  });

  it("reads Simplified Chinese without spaces between the characters", async () => {
    expect((await ocr.describe(fixture("ocr-chinese.png"))).text).toBe("人工智能检索增强生成");
  });

  it("keeps Traditional Chinese in Traditional characters", async () => {
    expect((await ocr.describe(fixture("ocr-traditional.png"))).text).toBe("檢索增強生成系統");
    expect((await ocr.describe(fixture("ocr-traditional.png"), { language: "zh-TRADITIONAL" })).text).toBe("檢索增強生成系統");
  });

  it("serves calls made at the same time, and an image without text gives empty text", async () => {
    const tiny = { data: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"), mimeType: "image/png" };
    const [english, chinese, empty] = await Promise.all([ocr.describe(fixture("ocr-english.png")), ocr.describe(fixture("ocr-chinese.png")), ocr.describe(tiny)]);
    expect(english.text).toContain("Retrieval augmented generation");
    expect(chinese.text).toBe("人工智能检索增强生成");
    expect(empty.text).toBe("");
  });

  it("starts again after being closed", async () => {
    await closeTesseract();
    expect((await ocr.describe(fixture("ocr-english.png"))).text).toContain("cites its sources.");
  });

  it("removes only the spaces Tesseract puts between Chinese characters", () => {
    expect(joinCjkSpacing("人 工 智 能 检索 增强 and RAG 生成 系统")).toBe("人工智能检索增强 and RAG 生成系统");
  });
});
