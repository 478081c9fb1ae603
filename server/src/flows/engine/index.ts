/** The flow engine: validation, one conversation turn, a session's first state, the loop limits. */
export { FlowGraph, type ComponentLookup } from "./graph";
export { flowLimits, MAX_BLOCK_REPEATS } from "./limits";
export { runTurn } from "./run-turn";
export { initialState } from "./state";
export { validateFlow, type FlowProblem } from "./validate";
