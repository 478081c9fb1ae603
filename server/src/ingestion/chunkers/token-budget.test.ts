import { countTokens } from "../../models/tokens";
import { mergePieces, parseDelimiters, splitOnDelimiters, splitOversized } from "./token-budget";

describe("delimiter setting", () => {
  it('reads RAGFlow\'s stored "\\\\n" as a newline', () => {
    expect(splitOnDelimiters("first line\nsecond line", parseDelimiters("\\n")).map((p) => p.text)).toEqual(["first line", "second line"]);
  });

  it("treats every character of the setting as a split point, keeping punctuation with its sentence", () => {
    const pieces = splitOnDelimiters("第一句。第二句！Third one? fourth", parseDelimiters("。！?"));
    expect(pieces.map((p) => p.text)).toEqual(["第一句。", "第二句！", "Third one?", "fourth"]);
  });

  it("splits on a backtick-quoted multi-character delimiter and drops it", () => {
    const pieces = splitOnDelimiters("intro ## part one ## part two", parseDelimiters("`##`"));
    expect(pieces.map((p) => p.text)).toEqual(["intro", "part one", "part two"]);
  });

  it("reads \\t as a tab", () => {
    expect(splitOnDelimiters("a\tb", parseDelimiters("\\t")).map((p) => p.text)).toEqual(["a", "b"]);
  });
});

describe("merging up to the token budget", () => {
  it("never makes a chunk longer than the budget, and loses no text", () => {
    const pieces = Array.from({ length: 60 }, (_, i) => ({ text: `Piece ${i} speaks of granite, moss and the slow weather of hills.` }));
    const merged = mergePieces(pieces, 64);
    expect(merged.length).toBeGreaterThan(5);
    for (const chunk of merged) expect(countTokens(chunk.text)).toBeLessThanOrEqual(64);
    expect(merged.map((m) => m.text).join("\n")).toBe(pieces.map((p) => p.text).join("\n"));
  });

  it("cuts a piece longer than the budget on sentence ends, and a run-on text on a token boundary", () => {
    const long = Array.from({ length: 40 }, (_, i) => `Clause ${i} is short.`).join(" ");
    for (const part of splitOversized(long, 30)) expect(countTokens(part)).toBeLessThanOrEqual(30);
    const chinese = "检索增强生成".repeat(200);
    const parts = splitOversized(chinese, 50);
    for (const part of parts) expect(countTokens(part)).toBeLessThanOrEqual(50);
    expect(parts.join("")).toBe(chinese);
  });
});
