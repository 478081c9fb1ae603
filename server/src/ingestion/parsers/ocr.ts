import type { ImageInput } from "../../models/model-types";
import type { Block, ParserContext } from "../types";

/** The text the OCR model reads from a picture ("" when none). */
export async function readText(image: ImageInput, context: ParserContext): Promise<string> {
  context.signal.throwIfAborted();
  const { text } = await context.ocr.describe(image, { language: context.language, signal: context.signal });
  return text.trim();
}

/** Fills in the text of the pictures embedded in a document, unless layout recognition is off. */
export async function readEmbeddedImages(blocks: Block[], context: ParserContext): Promise<void> {
  if (!context.layoutRecognize) return;
  for (const block of blocks) {
    if (block.kind === "image") block.text = await readText(block.image, context);
  }
}
