import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { flowChunks, settingsOf } from "./sections";
import { BASE_PARSER_DEFAULTS, CHUNK_TOKEN_NUM, DEFAULT_ENTITY_TYPES, DELIMITER, ENRICHMENT_PARAMS, HTML4EXCEL, LAYOUT_RECOGNIZE, PAGES, RAPTOR_SETTINGS, raptorOn, TASK_PAGE_SIZE } from "./parser-params";

/**
 * "General": text split on the delimiter and merged up to `chunk_token_num` tokens; a heading starts a new
 * chunk unless the chunk before it would be tiny; tables become chunks of their own rows; images give
 * their OCR text.
 */
export const naiveMethod: ChunkMethod = {
  name: "naive",
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "mdx", "markdown", "html", "htm", "json", "eml", "pptx", "jpg", "jpeg", "png", "gif", "tif", "tiff"],
  params: [LAYOUT_RECOGNIZE, CHUNK_TOKEN_NUM, DELIMITER, TASK_PAGE_SIZE, HTML4EXCEL, PAGES, ...ENRICHMENT_PARAMS, RAPTOR_SETTINGS],
  defaults: {
    layout_recognize: "DeepDOC",
    chunk_token_num: 512,
    delimiter: "\n",
    auto_keywords: 0,
    auto_questions: 0,
    html4excel: false,
    ...BASE_PARSER_DEFAULTS,
    topn_tags: 3,
    raptor: raptorOn(),
    graphrag: { use_graphrag: true, entity_types: [...DEFAULT_ENTITY_TYPES], method: "light" },
  },
  async chunk(document, context) {
    return { chunks: finishChunks(flowChunks(document.blocks, settingsOf(context))) };
  },
};
