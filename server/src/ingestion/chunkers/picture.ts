import { logMessage, type LogMessage } from "../parse-log";
import type { ChunkDraft, ChunkMethod, ImageBlock } from "../types";
import { blockText, finishChunks } from "./blocks";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_PARAMS } from "./parser-params";

/**
 * "Picture": each image becomes a chunk of its description by the tenant's image-to-text model (when one
 * is set) followed by the text OCR read in it, and keeps the image to show. Without a model the chunk
 * holds the OCR text only, and a note says so.
 */
export const pictureMethod: ChunkMethod = {
  name: "picture",
  usesModels: true,
  fileTypes: ["jpg", "jpeg", "png", "gif", "tif", "tiff", "bmp", "webp"],
  params: ENRICHMENT_PARAMS,
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document, context) {
    const images = document.blocks.filter((b): b is ImageBlock => b.kind === "image");
    const notes: LogMessage[] = [];
    const vision = images.length > 0 ? await context.img2txt() : null;
    if (images.length > 0 && !vision) notes.push(logMessage("parseLog.noVisionModel"));
    // Text beside the images (a caption paragraph, an OCR page) belongs to the picture too.
    const beside = document.blocks
      .filter((b) => b.kind !== "image")
      .map(blockText)
      .filter((t) => t !== "")
      .join("\n");
    const drafts: ChunkDraft[] = [];
    for (const [index, image] of images.entries()) {
      context.signal.throwIfAborted();
      let description = "";
      if (vision) {
        try {
          description = (await vision.model.describe(image.image, { language: context.language, signal: context.signal })).text.trim();
        } catch (error) {
          if (context.signal.aborted) throw error;
          notes.push(logMessage("parseLog.visionFailed", { model: vision.id, image: index + 1, reason: (error as Error).message }));
        }
      }
      const ocr = [image.caption?.trim(), image.text.trim()].filter((t) => t).join("\n");
      const text = [description, ocr, images.length === 1 ? beside : ""].filter((t) => t !== "").join("\n");
      if (text === "") notes.push(logMessage(vision ? "parseLog.imageNoTextOrDescription" : "parseLog.imageNoText", { image: index + 1 }));
      drafts.push({ text, image: image.image, positions: image.positions, title: image.caption?.trim() || document.title || context.fileName });
      context.progress((index + 1) / images.length);
    }
    if (images.length === 0 && beside !== "") drafts.push({ text: beside, title: document.title || context.fileName });
    return { chunks: finishChunks(drafts), notes };
  },
};
