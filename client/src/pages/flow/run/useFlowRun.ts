import type { NodeRunState } from "../flowTypes";

/** CONTRACT STUB (issue 17): the run helper replaces this file. */
export interface FlowRunMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** The answer's citations (chunks and doc_aggs, as chat answers have them). */
  reference?: Record<string, unknown> | null;
  streaming?: boolean;
}

export type FlowRunStatus = "idle" | "queued" | "running" | "waiting" | "finished" | "failed" | "cancelled";

/** The run shown in the editor: the canvas reads nodeStates, the run panel the rest. */
export interface FlowRunController {
  nodeStates: Record<string, NodeRunState>;
  messages: FlowRunMessage[];
  status: FlowRunStatus;
  error: string | null;
  sessionId: string | null;
  runId: string | null;
  /** A new session on Begin's input values. */
  start: (inputs: Record<string, unknown>) => Promise<void>;
  /** Answers the Answer the session waits at. */
  reply: (message: string) => Promise<void>;
  stop: () => Promise<void>;
  /** Runs the session's flow again from this component, keeping what ran before it. */
  rerunFrom: (componentId: string) => Promise<void>;
  /** Forgets the run shown (node states and conversation). */
  reset: () => void;
}

export function useFlowRun(_flowId: string): FlowRunController {
  const idle = async () => undefined;
  return { nodeStates: {}, messages: [], status: "idle", error: null, sessionId: null, runId: null, start: idle, reply: idle, stop: idle, rerunFrom: idle, reset: () => undefined };
}
