import { fileExtension } from "../file-types";
import type { FileParser } from "../types";
import { ParseError } from "../types";
import { readText } from "./ocr";

/** The formats tesseract.js decodes (GIF without animation). */
const MIME_TYPES: Record<string, string> = {
  jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp", bmp: "image/bmp",
};

/** A picture has no other text, so it is read by OCR even when layout recognition is off. */
export const imageParser: FileParser = {
  name: "image",
  extensions: Object.keys(MIME_TYPES),
  async parse(data, context) {
    const image = { data, mimeType: MIME_TYPES[fileExtension(context.fileName)] };
    let text: string;
    try {
      text = await readText(image, context);
    } catch (error) {
      if (context.signal.aborted) throw error;
      throw new ParseError(`The image cannot be read: ${(error as Error).message}`);
    }
    return { blocks: [{ kind: "image", image, text }], notes: text ? [] : ["No text was read from the image"] };
  },
};
