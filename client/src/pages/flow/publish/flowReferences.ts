import type { ChatReferenceFieldsFragment } from "../../../graphql/gql/graphql";

/** A document an answer drew on, with how many of its chunks (the reference list's shape). */
export interface DocumentAggregate {
  documentId: string;
  documentName: string;
  count: number;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A flow answer's citations, as runs give them (RAGFlow's `reference`: `chunks` and `doc_aggs`, untyped JSON), in the
 * shape the chat's answer components read; `[ID:n]` in the answer is `chunks[n]`. Anything malformed is left out.
 */
export function flowReferences(reference: unknown): { references: ChatReferenceFieldsFragment[]; documents: DocumentAggregate[] } {
  if (!isRecord(reference)) return { references: [], documents: [] };
  const chunks = Array.isArray(reference.chunks) ? reference.chunks : [];
  const references = chunks.flatMap((chunk, index): ChatReferenceFieldsFragment[] => {
    if (!isRecord(chunk) || !text(chunk.document_id)) return [];
    const positions = Array.isArray(chunk.positions) && Array.isArray(chunk.positions[0]) ? chunk.positions[0] : [];
    const page = typeof chunk.page === "number" ? chunk.page : typeof positions[0] === "number" ? positions[0] : null;
    return [
      {
        index,
        chunkId: text(chunk.id),
        documentId: text(chunk.document_id),
        documentName: text(chunk.document_name),
        knowledgeBaseId: text(chunk.dataset_id),
        content: text(chunk.content),
        similarity: number(chunk.similarity),
        termSimilarity: number(chunk.term_similarity),
        vectorSimilarity: number(chunk.vector_similarity),
        page,
      },
    ];
  });
  const aggregates = Array.isArray(reference.doc_aggs) ? reference.doc_aggs : [];
  const documents = aggregates.filter(isRecord).map((d) => ({ documentId: text(d.doc_id), documentName: text(d.doc_name), count: number(d.count) })).filter((d) => d.documentId !== "");
  return { references, documents };
}
