import { englishText } from "../parse-log";
import { closeTesseract } from "../../models/builtin/tesseract-ocr";
import { CHINESE_IMAGE_TEXT, ENGLISH_IMAGE_LINES, parserContext, sampleChineseImage, sampleEnglishImage } from "../testing/sample-files";
import { ParseError } from "../types";
import { imageParser } from "./image";

afterAll(() => closeTesseract());

describe("the image parser", () => {
  it("reads printed English by OCR, even with layout recognition off", async () => {
    const data = await sampleEnglishImage();
    const document = await imageParser.parse(data, parserContext("slogan.PNG", { layoutRecognize: false }));
    expect(document.blocks).toEqual([{ kind: "image", image: { data, mimeType: "image/png" }, text: ENGLISH_IMAGE_LINES.join("\n") }]);
    expect(document.notes).toEqual([]);
  });

  it("reads Simplified Chinese", async () => {
    const document = await imageParser.parse(await sampleChineseImage(), parserContext("标语.png", { language: "Chinese" }));
    expect(document.blocks).toMatchObject([{ kind: "image", text: CHINESE_IMAGE_TEXT }]);
  });

  it("notes when a picture has no text", async () => {
    const blank = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
    const document = await imageParser.parse(blank, parserContext("dot.png"));
    expect(document.blocks).toMatchObject([{ kind: "image", text: "" }]);
    expect(document.notes.map(englishText)).toEqual(["No text was read from the image"]);
  });

  it("refuses bytes that are not a picture", async () => {
    await expect(imageParser.parse(Buffer.from("not an image"), parserContext("fake.jpg"))).rejects.toThrow(
      ParseError.because("errors.parsing.imageFormat"),
    );
  });
});
