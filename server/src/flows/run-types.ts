import type { MessageReference } from "../chat/message.entity";
import type { ComponentDefinition, ComponentOutput, FlowMessage, ResolvedInput } from "./component";
import type { FlowDsl } from "./dsl";
import type { RunEvent } from "./events";
import type { FlowPorts } from "./ports";

/**
 * What a run of a flow works on and gives back. A session (the run drawer's chat, an API session) keeps its own
 * `FlowState`, so running or debugging a flow never changes the saved flow.
 */

export interface FlowState {
  /** The conversation (RAGFlow's `history`): what the components' message-history windows read. */
  history: FlowMessage[];
  /** The component ids run, one list per turn (RAGFlow's `path`). */
  path: string[][];
  /** Answers reached and not yet spoken (RAGFlow's `answer` queue). */
  pendingAnswers: string[];
  /**
   * The Answer the flow waits at, where the next turn goes on; none when the last turn finished (the next one
   * starts again from Begin). A failed or cancelled turn leaves it as it was, so that the user can try again.
   */
  waitingAt?: string;
  /** Each component's last output and the inputs it read, by component id (the editor's node popovers). */
  outputs: Record<string, ComponentOutput>;
  inputs: Record<string, ResolvedInput[]>;
  /** The values of Begin's inputs by key (`begin@key`), and v0.20+'s `sys.*` and the flow's variables. */
  beginInputs: Record<string, unknown>;
  globals: Record<string, unknown>;
  /** Per-component loop counters of the current turn (RewriteQuestion's and ExeSQL's `loop`). */
  counters: Record<string, number>;
  /** One per assistant turn that cited. */
  references: MessageReference[];
}

export interface TurnRequest {
  /** The user's message; none on the first turn (Begin speaks first) or in a task-style flow. */
  message?: string;
  /** Begin's input values by key. */
  inputs?: Record<string, unknown>;
  /** Re-run from this component, keeping the outputs of the components before it (debugging). */
  fromComponent?: string;
  /**
   * The user was shown Begin's greeting when the session opened (RAGFlow's session API runs the canvas once for
   * the prologue): a first turn that carries a message goes on past the Answers Begin leads to, instead of
   * greeting again and leaving the message unanswered.
   */
  greeted?: boolean;
}

/** How a turn ended: waiting at an Answer ("Interact") for the user, finished (no Answer left), failed, cancelled. */
export type TurnStatus = "waiting" | "finished" | "failed" | "cancelled";

export interface TurnResult {
  state: FlowState;
  status: TurnStatus;
  /** What the user was told this turn (the message deltas joined). */
  answer: string;
  reference?: MessageReference;
  /** The failure, translated into the run's language. */
  error?: string;
}

/** Limits of one run; the configuration gives the defaults. */
export interface FlowLimits {
  /** Component runs in one turn; stops a flow that loops without end. */
  maxStepsPerTurn: number;
  /** A block of components repeating more often than this in one turn stops it (RAGFlow's `_find_loop`, 6). */
  maxBlockRepeats: number;
  /** Wall-clock time of one turn. */
  timeBudgetMs: number;
  /** Model tokens (prompt and completion) of one turn; 0 = no limit. */
  tokenBudget: number;
}

export interface TurnOptions {
  ports: FlowPorts;
  limits: FlowLimits;
  signal: AbortSignal;
  /** Every event of the turn, in order (run-level events are the run service's). */
  emit(event: RunEvent): void;
  /** Finds a component by name; the registry unless a test adds its own (a component that holds a run, to cancel it). */
  components?: (name: string) => ComponentDefinition | undefined;
}

export type RunTurn = (flow: FlowDsl, state: FlowState, request: TurnRequest, options: TurnOptions) => Promise<TurnResult>;
