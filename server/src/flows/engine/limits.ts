import type { Config } from "../../platform/config";
import type { FlowLimits } from "../run-types";

/**
 * The loop limits of a turn. Back-edges are allowed (RAGFlow's DB Assistant loops ExeSQL → Switch → Generate →
 * ExeSQL until the SQL works), so three limits stop a flow that would not end:
 * - the **repeated-block detector** (RAGFlow's `_find_loop(max_loops=6)`): a block of two or more components
 *   that repeats more than 6 times in a row since the last Answer stops the turn. It is RAGFlow's own value, so a
 *   flow that runs in RAGFlow runs here, and it names the loop to the user (`A => B => A => B`);
 * - the **step cap** (FLOW_MAX_STEPS_PER_TURN, 500): component runs in one turn, Iteration bodies included. It
 *   catches what the detector cannot see — a loop whose block changes from one round to the next, a long
 *   iteration — and is far above what any of RAGFlow's templates takes (5 to 25 steps);
 * - the per-component counters RewriteQuestion and ExeSQL keep themselves (`loop`, read from `loopCount`).
 * The time and token budgets bound what a turn costs whatever its shape.
 */
export const MAX_BLOCK_REPEATS = 6;

export function flowLimits(config: Pick<Config, "flows">): FlowLimits {
  return {
    maxStepsPerTurn: config.flows.maxStepsPerTurn,
    maxBlockRepeats: MAX_BLOCK_REPEATS,
    timeBudgetMs: config.flows.turnTimeoutSeconds * 1000,
    tokenBudget: config.flows.turnTokenBudget,
  };
}

/**
 * The block of components at the end of `path` that repeats more than `maxRepeats` times in a row, or null
 * (RAGFlow's `_find_loop`: blocks of 2 up to half the path, the newest run first).
 */
export function repeatedBlock(path: readonly string[], maxRepeats: number): string[] | null {
  const newestFirst = [...path].reverse();
  for (let size = 2; size <= Math.floor(newestFirst.length / 2); size++) {
    if (newestFirst[size] !== newestFirst[0]) continue; // cannot repeat even once: spares the comparison on long paths
    const block = newestFirst.slice(0, size);
    let repeats = 0;
    for (let at = 0; at + size <= newestFirst.length; at += size) {
      if (!block.every((id, i) => newestFirst[at + i] === id)) break;
      repeats++;
    }
    if (repeats > maxRepeats) return block.reverse();
  }
  return null;
}
