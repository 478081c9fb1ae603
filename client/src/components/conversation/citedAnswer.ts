import type { CitedAnswer } from "./ReferenceList";

/** A document an answer drew on, with how many of its chunks (the reference list's shape). */
export type DocumentAggregate = CitedAnswer["documents"][number];

const text = (value: unknown): string => (typeof value === "string" ? value : value === null || value === undefined ? "" : String(value));
const number = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function firstPage(positions: unknown): number | null {
  return Array.isArray(positions) && Array.isArray(positions[0]) ? number(positions[0][0]) : null;
}

/**
 * An answer's citations as RAGFlow's `reference` holds them (`chunks`, `doc_aggs`: a flow run's answer, an API
 * session's message; untyped JSON), in the shape the conversation components read; `[ID:n]` in the answer is
 * `chunks[n]`, and anything malformed is left out. The chat's GraphQL gives that shape itself
 * (server/src/chat/conversation.resolver.ts, referencesOf).
 */
export function citationsOf(reference: unknown): Pick<CitedAnswer, "references" | "documents"> {
  if (!isRecord(reference)) return { references: [], documents: [] };
  const chunks = Array.isArray(reference.chunks) ? reference.chunks : [];
  const references = chunks.flatMap((chunk, index): CitedAnswer["references"] =>
    isRecord(chunk) && text(chunk.document_id)
      ? [
          {
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
          },
        ]
      : [],
  );
  const aggregates = Array.isArray(reference.doc_aggs) ? reference.doc_aggs : [];
  const documents = aggregates
    .filter(isRecord)
    .map((aggregate) => ({ documentId: text(aggregate.doc_id), documentName: text(aggregate.doc_name), count: number(aggregate.count) ?? 0 }))
    .filter((aggregate) => aggregate.documentId !== "");
  return { references, documents };
}

/** An answer with its citations read from RAGFlow's `reference`. */
export function citedAnswerOf(content: string, reference: unknown): CitedAnswer {
  return { content, ...citationsOf(reference) };
}
