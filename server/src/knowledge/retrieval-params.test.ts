import { specProblems, validate } from "../platform/param-spec";
import { RETRIEVAL_PARAMS, TOP_K } from "./retrieval-params";

describe("retrieval params", () => {
  it("are valid declarations, and top-K keeps RAGFlow's range of 1 to 2048", () => {
    expect(specProblems(RETRIEVAL_PARAMS)).toEqual([]);
    expect(validate([TOP_K], { topK: 2048 })).toEqual([]);
    expect(validate([TOP_K], { topK: 2049 }).map((e) => e.code)).toEqual(["max"]);
    expect(validate([TOP_K], { topK: 0 }).map((e) => e.code)).toEqual(["min"]);
  });
});
