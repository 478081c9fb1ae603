import { flowReferences } from "./flowReferences";

describe("a flow answer's citations", () => {
  it("reads RAGFlow's reference: chunk n answers [ID:n], and the documents come with their counts", () => {
    const read = flowReferences({
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
    expect(flowReferences(null)).toEqual({ references: [], documents: [] });
    expect(flowReferences({ chunks: ["x", { id: "no document" }], doc_aggs: "none" })).toEqual({ references: [], documents: [] });
  });
});
