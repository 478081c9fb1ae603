import { describe, expect, it, test } from "@jest/globals";
import { citationsOf, citedAnswerOf } from "./citedAnswer";

/** A flow's answer carries RAGFlow's raw reference; the conversation components read the chat's shape of it. */

test("a RAGFlow reference becomes the numbered citations and the per-document counts of the answer", () => {
  const reference = {
    total: 2,
    chunks: [
      { id: "c1", content: "Fees are paid on departure.", document_id: "d1", document_name: "fees.pdf", dataset_id: "kb", similarity: 0.8, vector_similarity: 0.7, term_similarity: 0.9, positions: [[3, 0, 0, 0, 0]] },
      { id: "c2", content: "In cash.", document_id: "d1", document_name: "fees.pdf", dataset_id: "kb", similarity: 0.5, vector_similarity: 0.5, term_similarity: 0.5, positions: [], page: 4 },
    ],
    doc_aggs: [{ doc_id: "d1", doc_name: "fees.pdf", count: 2 }],
  };
  const answer = citedAnswerOf("Paid on departure [ID:0].", reference);
  expect(answer.content).toBe("Paid on departure [ID:0].");
  expect(answer.references.map((r) => [r.index, r.chunkId, r.documentName, r.page])).toEqual([
    [0, "c1", "fees.pdf", 3],
    [1, "c2", "fees.pdf", 4],
  ]);
  expect(answer.references[0]).toMatchObject({ documentId: "d1", knowledgeBaseId: "kb", similarity: 0.8, termSimilarity: 0.9, vectorSimilarity: 0.7 });
  expect(answer.documents).toEqual([{ documentId: "d1", documentName: "fees.pdf", count: 2 }]);
});

test("an answer without a reference cites nothing", () => {
  expect(citedAnswerOf("Hello", null)).toEqual({ content: "Hello", references: [], documents: [] });
  expect(citedAnswerOf("Hello", { chunks: "nonsense" })).toEqual({ content: "Hello", references: [], documents: [] });
});

describe("a flow answer's citations", () => {
  it("reads RAGFlow's reference: chunk n answers [ID:n], and the documents come with their counts", () => {
    const read = citationsOf({
      total: 2,
      chunks: [
        { id: "c1", content: "Lisbon is sunny.", document_id: "d1", document_name: "weather.pdf", dataset_id: "kb", similarity: 0.9, term_similarity: 0.8, vector_similarity: 0.7, positions: [[3, 0, 0, 0, 0]] },
        { id: "c2", content: "Porto is rainy.", document_id: "d1", document_name: "weather.pdf", dataset_id: "kb", similarity: 0.5, page: 5 },
      ],
      doc_aggs: [{ doc_id: "d1", doc_name: "weather.pdf", count: 2 }],
    });
    expect(read.references.map((r) => [r.index, r.chunkId, r.page, r.vectorSimilarity])).toEqual([
      [0, "c1", 3, 0.7],
      [1, "c2", 5, 0],
    ]);
    expect(read.documents).toEqual([{ documentId: "d1", documentName: "weather.pdf", count: 2 }]);
  });

  it("keeps nothing of what is not a reference", () => {
    expect(citationsOf(null)).toEqual({ references: [], documents: [] });
    expect(citationsOf({ chunks: ["x", { id: "no document" }], doc_aggs: "none" })).toEqual({ references: [], documents: [] });
  });
});
