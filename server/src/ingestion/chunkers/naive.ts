import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { flowChunks, settingsOf } from "./sections";

/**
 * "General": text split on the delimiter and merged up to `chunk_token_num` tokens; a heading starts a new
 * chunk unless the chunk before it would be tiny; tables become chunks of their own rows; images give
 * their OCR text.
 */
export const naiveMethod: ChunkMethod = {
  name: "naive",
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "mdx", "markdown", "html", "htm", "json", "eml", "pptx", "jpg", "jpeg", "png", "gif", "tif", "tiff"],
  async chunk(document, context) {
    return { chunks: finishChunks(flowChunks(document.blocks, settingsOf(context))) };
  },
};
