import { logMessage, type LogMessage } from "../../knowledge/parse-log";
import { completeChat } from "../../models/model-types";
import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { extractGraphOffline } from "./builtin-graph";
import { entityTypesOf, extractionMessages, GraphMerger, parseGraphAnswer } from "./graph-extraction";
import { flowChunks, settingsOf } from "./sections";

/** Spec §9: knowledge-graph chunks are about 512 tokens, whatever chunk_token_num says (RAGFlow stores 8192 there). */
export const GRAPH_CHUNK_TOKENS = 512;

/** Notes about single chunks stop after this many; the count of the rest is reported. */
const MAX_CHUNK_NOTES = 5;

/**
 * "Knowledge Graph": chunks of about 512 tokens, and from each the entities (of the knowledge base's
 * entity types) and relations the chat model extracts, merged into one graph. The built-in chat model
 * ("…@Builtin") quotes passages and cannot answer in JSON, so with it a deterministic offline extractor
 * (proper names and co-occurrence) builds the graph instead, and a note says so.
 */
export const knowledgeGraphMethod: ChunkMethod = {
  name: "knowledge_graph",
  usesModels: true,
  fileTypes: ["pdf", "docx", "xlsx", "xls", "csv", "txt", "md", "markdown", "html", "htm", "json", "eml", "pptx"],
  async chunk(document, context) {
    const chunks = finishChunks(flowChunks(document.blocks, settingsOf(context, GRAPH_CHUNK_TOKENS)));
    const types = entityTypesOf(context.config);
    const merger = new GraphMerger();
    const notes: LogMessage[] = [];
    const { model, id } = await context.chat();
    const builtin = id.endsWith("@Builtin");
    if (builtin) notes.push(logMessage("parseLog.graphBuiltin"));

    let unreadable = 0;
    let failed = 0;
    let lastError: unknown;
    for (const [index, chunk] of chunks.entries()) {
      context.signal.throwIfAborted();
      if (builtin) merger.add(extractGraphOffline(chunk.text, types));
      else {
        try {
          const answer = await completeChat(model, extractionMessages(chunk.text, types, context.language), { temperature: 0.1, signal: context.signal });
          const graph = parseGraphAnswer(answer.text);
          if (graph) merger.add(graph);
          else if (++unreadable <= MAX_CHUNK_NOTES) notes.push(logMessage("parseLog.graphNotJson", { chunk: index + 1, model: id }));
        } catch (error) {
          if (context.signal.aborted) throw error;
          lastError = error;
          if (++failed <= MAX_CHUNK_NOTES) notes.push(logMessage("parseLog.graphModelFailed", { chunk: index + 1, model: id, reason: (error as Error).message }));
        }
      }
      context.progress((index + 1) / chunks.length, logMessage("parseLog.graphChunk", { chunk: index + 1, chunks: chunks.length }));
    }
    // A model that failed on every chunk is a configuration problem the user must see, not an empty graph.
    if (chunks.length > 0 && failed === chunks.length) throw lastError;
    const hidden = Math.max(0, unreadable - MAX_CHUNK_NOTES) + Math.max(0, failed - MAX_CHUNK_NOTES);
    if (hidden > 0) notes.push(logMessage("parseLog.graphMoreFailed", { count: hidden }));
    const graph = merger.result();
    notes.push(logMessage("parseLog.graph", { entities: graph.entities.length, relations: graph.relations.length }));
    return { chunks, graph, notes };
  },
};
