import { logMessage, type LogMessage } from "../parse-log";
import type { ImageInput } from "../../models/model-types";
import { ParseError, type Block, type ParserContext } from "../types";
import { checkDecodable } from "./image-size";

/** The text the OCR model reads from a picture ("" when none); a picture it cannot or must not decode is refused first. */
export async function readText(image: ImageInput, context: ParserContext): Promise<string> {
  context.signal.throwIfAborted();
  checkDecodable(image.data);
  try {
    const { text } = await context.ocr.describe(image, { language: context.language, signal: context.signal });
    return text.trim();
  } catch (error) {
    // a header that reads well over pixels that do not (tesseract.js: "Error attempting to read image")
    if (context.signal.aborted) throw error;
    throw ParseError.because("errors.parsing.imageUnreadable");
  }
}

/**
 * Fills in the text of the pictures embedded in a document, unless layout recognition is off. A picture that
 * cannot be read (a format OCR does not decode, or too large) is skipped: the rest of the document still counts.
 * Returns notes for the log.
 */
export async function readEmbeddedImages(blocks: Block[], context: ParserContext): Promise<LogMessage[]> {
  if (!context.layoutRecognize) return [];
  const pictures = blocks.filter((block) => block.kind === "image");
  const notes: LogMessage[] = [];
  for (const [index, block] of pictures.entries()) {
    try {
      block.text = await readText(block.image, context);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      notes.push(logMessage("parseLog.pictureUnread", { picture: index + 1, reason: error.reason }));
    }
    context.progress((index + 1) / pictures.length, logMessage("parseLog.picture", { picture: index + 1, pictures: pictures.length }));
  }
  return notes;
}
