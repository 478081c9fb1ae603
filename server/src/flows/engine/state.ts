import type { FlowDsl } from "../dsl";
import type { FlowState } from "../run-types";
import { isPlainObject } from "../../platform/plain-object";

/**
 * A session's state before its first turn. The v0.20+ globals start as RAGFlow's do (`sys.query` empty, no
 * files, no turn yet); the flow's own `globals` and `variables` are copied in, so that a run never writes to the flow.
 */

/** v0.20+ `variables` ({name: {value, type, …}}) as the `env.name` globals its texts reference. */
function variableGlobals(variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, variable]) => [name.startsWith("env.") ? name : `env.${name}`, structuredClone(isPlainObject(variable) && "value" in variable ? variable.value : variable)]),
  );
}

export function initialState(dsl: FlowDsl, { userId }: { userId: string }): FlowState {
  return {
    history: [],
    path: [],
    pendingAnswers: [],
    outputs: {},
    inputs: {},
    beginInputs: {},
    globals: {
      ...variableGlobals(dsl.variables ?? {}),
      ...structuredClone(dsl.globals ?? {}),
      "sys.query": "",
      "sys.user_id": userId,
      "sys.conversation_turns": 0,
      "sys.files": [],
    },
    counters: {},
    references: [],
  };
}
