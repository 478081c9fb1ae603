import { loadConfig } from "../../platform/config";
import { flowLimits, repeatedBlock } from "./limits";

describe("the loop limits", () => {
  it("finds a block of two or more components repeated more than the limit at the end of the path", () => {
    const loop = (times: number) => ["begin", ...Array.from({ length: times }, () => ["a", "b", "c"]).flat()];
    expect(repeatedBlock(loop(6), 6)).toBeNull();
    expect(repeatedBlock(loop(7), 6)).toEqual(["a", "b", "c"]);
    // Repeats must be in a row, at the end.
    expect(repeatedBlock([...loop(7), "d"], 6)).toBeNull();
    // A component run over and over alone (a self-link, which validation refuses) shows as the block a => a.
    expect(repeatedBlock(Array.from({ length: 20 }, () => "a"), 6)).toEqual(["a", "a"]);
  });

  it("takes the step cap, time and token budgets from the configuration, and RAGFlow's 6 repeats", () => {
    expect(flowLimits(loadConfig({}))).toEqual({ maxStepsPerTurn: 500, maxBlockRepeats: 6, timeBudgetMs: 600_000, tokenBudget: 200_000 });
    const tuned = loadConfig({ FLOW_MAX_STEPS_PER_TURN: "50", FLOW_TURN_TIMEOUT_SECONDS: "30", FLOW_TURN_TOKEN_BUDGET: "0" });
    expect(flowLimits(tuned)).toEqual({ maxStepsPerTurn: 50, maxBlockRepeats: 6, timeBudgetMs: 30_000, tokenBudget: 0 });
    expect(() => loadConfig({ FLOW_MAX_STEPS_PER_TURN: "3" })).toThrow("FLOW_MAX_STEPS_PER_TURN must be a whole number from 10 to 100000");
  });
});
