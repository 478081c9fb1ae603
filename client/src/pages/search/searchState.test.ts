import { mergeAddress } from "../../documents/chunkMerge";
import { chunkQueryInput, NO_FILTERS, rememberedKnowledgeBases, toggleTicked } from "./searchState";

const search = { question: "tides", knowledgeBaseIds: ["kb1", "kb2"], documentIds: null };

describe("the search page's rules", () => {
  it("remembers only knowledge bases that still exist, and survives a damaged value", () => {
    expect(rememberedKnowledgeBases(JSON.stringify(["kb1", "gone", 3]), ["kb1", "kb2"])).toEqual(["kb1"]);
    expect(rememberedKnowledgeBases("{not json", ["kb1"])).toEqual([]);
    expect(rememberedKnowledgeBases(null, ["kb1"])).toEqual([]);
  });

  it("narrows the chunk query to the filtered knowledge base or document", () => {
    expect(chunkQueryInput(search, NO_FILTERS, 2)).toMatchObject({ knowledgeBaseIds: ["kb1", "kb2"], documentIds: null, page: 2 });
    expect(chunkQueryInput(search, { knowledgeBaseId: "kb2", documentId: null }, 1)).toMatchObject({ knowledgeBaseIds: ["kb2"], documentIds: null });
    expect(chunkQueryInput(search, { knowledgeBaseId: null, documentId: "d1" }, 1)).toMatchObject({ knowledgeBaseIds: ["kb1", "kb2"], documentIds: ["d1"] });
  });

  it("merges the ticked chunks in the order they were ticked", () => {
    let ticked = toggleTicked([], "c2", true);
    ticked = toggleTicked(ticked, "c1", true);
    ticked = toggleTicked(ticked, "c3", true);
    ticked = toggleTicked(ticked, "c1", false);
    expect(mergeAddress(ticked)).toBe("/search/merge?chunks=c2,c3");
  });
});
