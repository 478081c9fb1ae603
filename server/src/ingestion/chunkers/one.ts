import type { ChunkMethod } from "../types";
import { blockText, finishChunks, positionsOf } from "./blocks";
import { BASE_PARSER_DEFAULTS, DOCUMENT_METHOD_PARAMS } from "./parser-params";

/** "One": the whole file as a single chunk, whatever its length — for documents that only make sense whole. */
export const oneMethod: ChunkMethod = {
  name: "one",
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "markdown", "html", "htm", "pptx", "json", "eml"],
  params: DOCUMENT_METHOD_PARAMS,
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document, context) {
    const text = document.blocks
      .map(blockText)
      .filter((t) => t !== "")
      .join("\n");
    return { chunks: finishChunks([{ text, title: document.title || context.fileName, positions: positionsOf(document.blocks) }]) };
  },
};
