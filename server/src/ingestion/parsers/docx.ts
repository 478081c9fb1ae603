import { logMessage } from "../parse-log";
import type mammothModule from "mammoth";
import type { FileParser } from "../types";
import { ParseError } from "../types";
import { htmlBlocks } from "./html-blocks";
import { readEmbeddedImages } from "./ocr";
import { checkZipContainer } from "./zip-limits";

/** Word documents through mammoth's HTML (headings from the paragraph styles, lists, tables, pictures as data URIs). */
export const docxParser: FileParser = {
  name: "docx",
  extensions: ["docx"],
  async parse(data, context) {
    await checkZipContainer(data);
    let html: string;
    try {
      // Loaded when a document needs it: the library takes a while to load, and most parse processes never do.
      const mammoth = require("mammoth") as typeof mammothModule;
      html = (await mammoth.convertToHtml({ buffer: data })).value;
    } catch {
      throw ParseError.because("errors.parsing.docxInvalid");
    }
    const { blocks } = htmlBlocks(html);
    const notes = await readEmbeddedImages(blocks, context);
    const pictures = blocks.filter((block) => block.kind === "image").length;
    if (pictures && !context.layoutRecognize) notes.push(logMessage("parseLog.picturesSkipped", { count: pictures }));
    return { blocks, notes };
  },
};
