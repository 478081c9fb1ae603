import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { withNumberedHeadings } from "./numbering";
import { flowChunks, settingsOf } from "./sections";
import { BASE_PARSER_DEFAULTS, DOCUMENT_METHOD_PARAMS, ENRICHMENT_OFF } from "./parser-params";

/**
 * "Book": chapters and sections — the parser's headings, or numbered lines ("Chapter 1", "第一章", "1.2")
 * when it found none — and chunks that never cross a section boundary unless they are tiny, each titled
 * with its section path.
 */
export const bookMethod: ChunkMethod = {
  name: "book",
  fileTypes: ["pdf", "docx", "txt", "md", "markdown", "html", "htm"],
  params: DOCUMENT_METHOD_PARAMS,
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document, context) {
    return { chunks: finishChunks(flowChunks(withNumberedHeadings(document.blocks), settingsOf(context))) };
  },
};
