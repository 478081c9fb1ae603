import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { flowChunks, settingsOf } from "./sections";

/** Spec §9: knowledge-graph chunks are about 512 tokens, whatever chunk_token_num says (RAGFlow stores 8192 there). */
export const GRAPH_CHUNK_TOKENS = 512;

/**
 * "Knowledge Graph": chunks of about 512 tokens. The graph itself is built from the chunks of the whole
 * knowledge base by the GraphRAG task the user starts (knowledge/kb-tasks), as in RAGFlow v0.24, so a
 * parse only chunks, embeds and indexes.
 */
export const knowledgeGraphMethod: ChunkMethod = {
  name: "knowledge_graph",
  usesModels: false,
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "markdown", "html", "htm", "json", "eml", "pptx"],
  async chunk(document, context) {
    return { chunks: finishChunks(flowChunks(document.blocks, settingsOf(context, GRAPH_CHUNK_TOKENS))) };
  },
};
