import { BuiltinLexicalRerank } from "./lexical-rerank";

const reranker = new BuiltinLexicalRerank();

jest.setTimeout(60_000);

describe("the built-in lexical reranker", () => {
  it("puts the passage that answers first, with every score between 0 and 1, in input order", async () => {
    const documents = [
      "The stadium hosted a football final watched by ninety thousand fans.",
      "Aspirin irreversibly inhibits cyclooxygenase, which lowers the production of prostaglandin E2 (PGE2).",
      "Prostaglandins are lipid compounds found in most tissues.",
      "",
    ];
    const { scores, usage } = await reranker.rerank("Does aspirin inhibit the production of PGE2?", documents);
    expect(scores).toHaveLength(4);
    for (const score of scores) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores[1]).toBeGreaterThan(scores[2]);
    expect(scores[0]).toBe(0);
    expect(scores[3]).toBe(0);
    expect(usage?.totalTokens).toBeGreaterThan(0);
  });

  it("scores a passage holding every query word near each other higher than one where they are far apart", async () => {
    const filler = "It was a long afternoon with many unrelated remarks about the weather and the trains. ".repeat(3);
    const { scores } = await reranker.rerank("heart attack", [`A heart attack needs urgent care. ${filler}`, `The heart of the city. ${filler} An attack of nerves.`]);
    expect(scores[0]).toBeGreaterThan(scores[1]);
  });

  it("understands stems and WordNet synonyms: a question about physicians finds a passage about doctors", async () => {
    const { scores } = await reranker.rerank("How many physicians work there?", ["Forty doctors work at the clinic.", "Forty engineers work at the plant."]);
    expect(scores[0]).toBeGreaterThan(scores[1]);
  });

  it("reranks Chinese passages by their words and characters", async () => {
    const { scores } = await reranker.rerank("《战国无双3》是由哪两个公司合作开发的？", [
      "今天北京天气晴朗，气温二十度。",
      "《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三续作。",
      "战国时代是日本历史上的一个时期。",
    ]);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores[0]).toBe(0);
  });

  it("answers an empty list with no scores", async () => {
    expect((await reranker.rerank("anything", [])).scores).toEqual([]);
  });
});
