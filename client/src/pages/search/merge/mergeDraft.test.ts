import { describe, expect, test } from "@jest/globals";
import { chunkIdsOf, mergeAddress } from "../../../documents/chunkMerge";
import { joinTexts, moved } from "./mergeDraft";

describe("the merge page's draft", () => {
  test("joins the chosen chunks' texts with a blank line, trimmed, skipping empty ones", () => {
    expect(joinTexts([" First chunk.\n", "", "Second\nchunk. "])).toBe("First chunk.\n\nSecond\nchunk.");
  });

  test("moves a chunk up or down, and not past either end", () => {
    expect(moved(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moved(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moved(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  test("reads the chunk ids of the address in order, without blanks or repeats, as the choosing pages write them", () => {
    expect(chunkIdsOf("b2, a1,,b2 ")).toEqual(["b2", "a1"]);
    expect(chunkIdsOf(null)).toEqual([]);
    expect(chunkIdsOf(new URL(`http://x${mergeAddress(["c3", "a1"])}`).searchParams.get("chunks"))).toEqual(["c3", "a1"]);
  });
});
