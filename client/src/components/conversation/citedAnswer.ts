import type { CitedAnswer } from "./ReferenceList";

/**
 * An answer's citations as RAGFlow's `reference` holds them (`chunks`, `doc_aggs`: a flow run's answer, an API
 * session's message), in the shape the conversation components read; the chat's GraphQL gives that shape itself
 * (server/src/chat/conversation.resolver.ts, referencesOf).
 */
export function citedAnswerOf(content: string, reference: Record<string, unknown> | null | undefined): CitedAnswer {
  const chunks = Array.isArray(reference?.chunks) ? (reference.chunks as Record<string, unknown>[]) : [];
  const aggregates = Array.isArray(reference?.doc_aggs) ? (reference.doc_aggs as Record<string, unknown>[]) : [];
  return {
    content,
    references: chunks.map((chunk, index) => ({
      index,
      chunkId: text(chunk.id),
      documentId: text(chunk.document_id),
      documentName: text(chunk.document_name),
      knowledgeBaseId: text(chunk.dataset_id),
      content: text(chunk.content),
      similarity: number(chunk.similarity) ?? 0,
      termSimilarity: number(chunk.term_similarity) ?? 0,
      vectorSimilarity: number(chunk.vector_similarity) ?? 0,
      page: number(chunk.page) ?? firstPage(chunk.positions),
    })),
    documents: aggregates.map((aggregate) => ({ documentId: text(aggregate.doc_id), documentName: text(aggregate.doc_name), count: number(aggregate.count) ?? 0 })),
  };
}

const text = (value: unknown): string => (typeof value === "string" ? value : value === null || value === undefined ? "" : String(value));
const number = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function firstPage(positions: unknown): number | null {
  return Array.isArray(positions) && Array.isArray(positions[0]) ? number(positions[0][0]) : null;
}
