import type { FileParser } from "../types";
import { decodeText, paragraphsOf } from "./plain-text";

export const textParser: FileParser = {
  name: "text",
  extensions: ["txt"],
  async parse(data) {
    return { blocks: paragraphsOf(decodeText(data)).map((text) => ({ kind: "paragraph", text })), notes: [] };
  },
};
