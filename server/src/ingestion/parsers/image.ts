import { logMessage } from "../parse-log";
import type { FileParser } from "../types";
import { ParseError } from "../types";
import { readText } from "./ocr";

/** The formats tesseract.js decodes (GIF without animation), by their leading bytes. */
const SIGNATURES: [mimeType: string, matches: (data: Buffer) => boolean][] = [
  ["image/png", (data) => data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ["image/jpeg", (data) => data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff],
  ["image/gif", (data) => /^GIF8[79]a/.test(data.subarray(0, 6).toString("latin1"))],
  ["image/webp", (data) => data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP"],
  ["image/bmp", (data) => data.subarray(0, 2).toString("latin1") === "BM"],
];

/**
 * A picture has no other text, so it is read by OCR even when layout recognition is off. bmp is not an upload
 * type, but arrives as an e-mail attachment.
 */
export const imageParser: FileParser = {
  name: "image",
  extensions: ["jpg", "jpeg", "png", "gif", "webp", "bmp"],
  async parse(data, context) {
    const mimeType = SIGNATURES.find(([, matches]) => matches(data))?.[0];
    // checked here because the OCR worker cannot be handed bytes it fails to decode
    if (!mimeType) throw ParseError.because("errors.parsing.imageFormat");
    const image = { data, mimeType };
    const text = await readText(image, context);
    return { blocks: [{ kind: "image", image, text }], notes: text ? [] : [logMessage("parseLog.imageTextless")] };
  },
};
