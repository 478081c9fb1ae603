import mammoth from "mammoth";
import type { FileParser } from "../types";
import { ParseError } from "../types";
import { htmlBlocks } from "./html-blocks";
import { readEmbeddedImages } from "./ocr";

/** Word documents through mammoth's HTML (headings from the paragraph styles, lists, tables, pictures as data URIs). */
export const docxParser: FileParser = {
  name: "docx",
  extensions: ["docx"],
  async parse(data, context) {
    let html: string;
    try {
      html = (await mammoth.convertToHtml({ buffer: data })).value;
    } catch {
      throw new ParseError("The file is not a valid DOCX document");
    }
    const { blocks } = htmlBlocks(html);
    await readEmbeddedImages(blocks, context);
    const pictures = blocks.filter((block) => block.kind === "image").length;
    const notes = pictures && !context.layoutRecognize ? [`${pictures} picture(s) not read: layout recognition is off`] : [];
    return { blocks, notes };
  },
};
