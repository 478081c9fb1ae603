import type { FileParser } from "../types";
import { htmlBlocks } from "./html-blocks";
import { readEmbeddedImages } from "./ocr";
import { decodeText } from "./plain-text";

export const htmlParser: FileParser = {
  name: "html",
  extensions: ["html", "htm"],
  async parse(data, context) {
    const { title, blocks } = htmlBlocks(decodeText(data));
    const notes = await readEmbeddedImages(blocks, context);
    return { title, blocks, notes };
  },
};
