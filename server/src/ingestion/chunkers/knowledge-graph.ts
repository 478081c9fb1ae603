import type { ParamSpec } from "../../platform/param-spec";
import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { DEFAULT_ENTITY_TYPES } from "./graph-extraction";
import { BASE_PARSER_DEFAULTS, CHUNK_TOKEN_NUM, DELIMITER, ENRICHMENT_OFF, GRAPHRAG } from "./parser-params";
import { flowChunks, settingsOf } from "./sections";

/** Spec §9: knowledge-graph chunks are about 512 tokens, whatever chunk_token_num says (RAGFlow stores 8192 there). */
export const GRAPH_CHUNK_TOKENS = 512;

/** RAGFlow's stored chunk_token_num of this method, which its form lets reach. */
const STORED_CHUNK_TOKENS = 8192;

/** The entity types alone of the graphrag settings, kept under graphrag where the schema accepts them. */
const ENTITY_TYPES: ParamSpec = {
  ...GRAPHRAG,
  params: GRAPHRAG.params!.filter((p) => p.key === "entity_types").map((p) => ({ ...p, default: DEFAULT_ENTITY_TYPES })),
};

/**
 * "Knowledge Graph": chunks of about 512 tokens. The graph itself is built from the chunks of the whole
 * knowledge base by the GraphRAG task the user starts (knowledge/kb-tasks), as in RAGFlow v0.24, so a
 * parse only chunks, embeds and indexes.
 */
export const knowledgeGraphMethod: ChunkMethod = {
  name: "knowledge_graph",
  usesModels: false,
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "markdown", "html", "htm", "json", "eml", "pptx"],
  params: [{ ...CHUNK_TOKEN_NUM, max: STORED_CHUNK_TOKENS, default: STORED_CHUNK_TOKENS }, DELIMITER, ENTITY_TYPES],
  defaults: { ...BASE_PARSER_DEFAULTS, chunk_token_num: STORED_CHUNK_TOKENS, delimiter: "\\n", entity_types: [...DEFAULT_ENTITY_TYPES], ...ENRICHMENT_OFF },
  async chunk(document, context) {
    return { chunks: finishChunks(flowChunks(document.blocks, settingsOf(context, GRAPH_CHUNK_TOKENS))) };
  },
};
