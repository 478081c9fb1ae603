import type { FlowRunEventFieldsFragment } from "../../../graphql/gql/graphql";
import type { NodeRunState, NodeRunStatus } from "../flowTypes";

/**
 * The run shown in the editor, as a pure reduction of what happened: the turn the panel started (or found running
 * after a reload), then the run's numbered events (server/src/flows/events.ts) as `flowRunEvents` delivers them.
 * The stream replays a run from its first event to a late or reconnecting watcher, so an event at or below the last
 * `seq` applied is a repeat and changes nothing; an event of another run (one the panel has left) neither.
 */

export type FlowRunStatus = "idle" | "queued" | "running" | "waiting" | "finished" | "failed" | "cancelled";

export interface FlowRunMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** The answer's citations (chunks and doc_aggs, as chat answers have them). */
  reference?: Record<string, unknown> | null;
  streaming?: boolean;
  /** The run (turn) that asked or answered it. */
  runId?: string;
}

/** One component's course in this turn, in the order they started (a component in a loop appears once per pass). */
export interface RunStep {
  /** Unique in the turn: the seq of its node_started (or node_finished, when its start was not seen). */
  key: string;
  componentId: string;
  /** The component's kind ("Retrieval"); the editor knows its display name. */
  componentName: string;
  status: NodeRunStatus;
  elapsedMs: number | null;
  tokens: number | null;
  error: string | null;
}

export interface RunView {
  runId: string | null;
  sessionId: string | null;
  status: FlowRunStatus;
  /** Why the run failed, as the server translated it ("" when it gave no reason). */
  error: string | null;
  /** The last event applied. */
  lastSeq: number;
  /** The components that started this turn, by id. */
  ran: Record<string, NodeRunState>;
  steps: RunStep[];
  /** The session's conversation: earlier turns, then this turn's question and its answer as it streams. */
  messages: FlowRunMessage[];
  /** The Answer the session waits at, when the turn stopped for the user. */
  waitingAt: string | null;
  tokens: number;
}

/** An event as the subscription gives it; only its run, number and type are always there. */
export type RunEvent = Pick<FlowRunEventFieldsFragment, "runId" | "seq" | "type"> & Partial<FlowRunEventFieldsFragment>;

/** A run as its stored row has it (flowRuns, flowRun). */
export interface RunRow {
  id: string;
  sessionId: string;
  status: string;
  message?: string | null;
  error?: string | null;
  answer?: string;
  reference?: Record<string, unknown> | null;
}

export type RunAction =
  /** Forget the run shown. */
  | { type: "reset" }
  /** The panel started a turn (a new session's first, a reply, a re-run from a component). */
  | { type: "turn"; runId: string; sessionId: string; message?: string | null }
  /** After a reload: the session's stored conversation and its newest run, whose events follow from the first. */
  | { type: "attach"; run: RunRow; history: FlowRunMessage[] }
  | { type: "event"; event: RunEvent }
  /** The run's stored row, read when its stream broke off before its last event. */
  | { type: "outcome"; run: RunRow };

export const idleRun: RunView = { runId: null, sessionId: null, status: "idle", error: null, lastSeq: 0, ran: {}, steps: [], messages: [], waitingAt: null, tokens: 0 };

const LIVE: readonly FlowRunStatus[] = ["queued", "running"];
const ENDED: readonly FlowRunStatus[] = ["waiting", "finished", "failed", "cancelled"];

/** The run is queued or running: it can be stopped, not answered. */
export function isLive(status: FlowRunStatus): boolean {
  return LIVE.includes(status);
}

export function runStatusOf(status: string): FlowRunStatus {
  return (LIVE as readonly string[]).includes(status) || (ENDED as readonly string[]).includes(status) ? (status as FlowRunStatus) : "idle";
}

const questionId = (runId: string) => `${runId}:question`;
const answerId = (runId: string) => `${runId}:answer`;

function turnMessages(history: FlowRunMessage[], runId: string, message: string | null | undefined): FlowRunMessage[] {
  return message ? [...history, { id: questionId(runId), role: "user", content: message, runId }] : history;
}

export function runReducer(view: RunView, action: RunAction): RunView {
  switch (action.type) {
    case "reset":
      return idleRun;
    case "turn":
      return {
        ...idleRun,
        runId: action.runId,
        sessionId: action.sessionId,
        status: "queued",
        // A turn of the same session goes on with its conversation; a new session starts an empty one.
        messages: turnMessages(action.sessionId === view.sessionId ? view.messages.map(settled) : [], action.runId, action.message),
      };
    case "attach": {
      // A run that ended is in its session's stored messages already: its events rebuild it, so it is taken out.
      const history = action.history.filter((message) => message.runId !== action.run.id);
      return {
        ...idleRun,
        runId: action.run.id,
        sessionId: action.run.sessionId,
        status: "queued",
        messages: turnMessages(history, action.run.id, action.run.message),
      };
    }
    case "event":
      return applyEvent(view, action.event);
    case "outcome":
      return applyOutcome(view, action.run);
  }
}

function applyEvent(view: RunView, event: RunEvent): RunView {
  if (event.runId !== view.runId || event.seq <= view.lastSeq) return view;
  const next: RunView = { ...view, lastSeq: event.seq };
  const componentId = event.componentId ?? "";
  switch (event.type) {
    case "run_started":
      return { ...next, status: stillGoing(view), sessionId: event.sessionId ?? view.sessionId };
    case "node_started":
      return {
        ...next,
        status: stillGoing(view),
        ran: { ...view.ran, [componentId]: { status: "running" } },
        steps: [...view.steps, { key: String(event.seq), componentId, componentName: event.componentName ?? "", status: "running", elapsedMs: null, tokens: null, error: null }],
      };
    case "node_finished": {
      const status: NodeRunStatus = event.error ? "failed" : "done";
      const finished = { elapsedMs: event.elapsedMs ?? null, tokens: event.tokens ?? null, error: event.error ?? null };
      const at = view.steps.findLastIndex((step) => step.componentId === componentId && step.status === "running");
      const steps =
        at >= 0
          ? view.steps.map((step, i) => (i === at ? { ...step, status, ...finished } : step))
          : [...view.steps, { key: String(event.seq), componentId, componentName: event.componentName ?? "", status, ...finished }];
      return {
        ...next,
        ran: { ...view.ran, [componentId]: { status, elapsedMs: event.elapsedMs ?? null, error: event.error ?? null, inputs: event.inputs ?? [], output: event.output ?? null } },
        steps,
        tokens: view.tokens + (event.tokens ?? 0),
      };
    }
    case "message":
      return { ...next, messages: withAnswer(view, (answer) => ({ ...answer, content: answer.content + (event.delta ?? ""), streaming: true })) };
    case "message_end":
      return { ...next, messages: withAnswer(view, (answer) => ({ ...answer, reference: event.reference ?? null, streaming: false }), false) };
    case "waiting_for_input":
      return { ...next, waitingAt: componentId || null };
    case "run_finished":
      return endTurn(next, event.status === "waiting" ? "waiting" : "finished", null);
    case "run_failed":
      return endTurn(next, "failed", event.error ?? "");
    case "run_cancelled":
      return endTurn(next, "cancelled", null);
    default:
      return next;
  }
}

/** Running, unless the run's end is known already (a stop's answer can come before the stream's last events). */
function stillGoing(view: RunView): FlowRunStatus {
  return isLive(view.status) ? "running" : view.status;
}

/** The turn's answer changed; `create` false: only when it exists already (an end without words adds no empty message). */
function withAnswer(view: RunView, change: (answer: FlowRunMessage) => FlowRunMessage, create = true): FlowRunMessage[] {
  const runId = view.runId ?? "";
  const id = answerId(runId);
  const at = view.messages.findIndex((message) => message.id === id);
  if (at >= 0) return view.messages.map((message, i) => (i === at ? change(message) : message));
  return create ? [...view.messages, change({ id, role: "assistant", content: "", runId })] : view.messages;
}

function settled(message: FlowRunMessage): FlowRunMessage {
  return message.streaming ? { ...message, streaming: false } : message;
}

/**
 * The turn's end. A component still running when the run failed failed with it; one still running when it was stopped
 * never finished, and shows as skipped like those the turn did not reach.
 */
function endTurn(view: RunView, status: FlowRunStatus, error: string | null): RunView {
  const unfinished: NodeRunState = status === "failed" ? { status: "failed", error } : { status: "skipped" };
  const ran = Object.fromEntries(Object.entries(view.ran).map(([id, state]) => [id, state.status === "running" ? { ...state, ...unfinished } : state]));
  const steps = view.steps.map((step) => (step.status === "running" ? { ...step, status: unfinished.status, error: unfinished.error ?? null } : step));
  return { ...view, status, error, ran, steps, messages: view.messages.map(settled) };
}

function applyOutcome(view: RunView, row: RunRow): RunView {
  const status = runStatusOf(row.status);
  if (row.id !== view.runId || !isLive(view.status) || !ENDED.includes(status)) return view;
  const ended = endTurn(view, status, status === "failed" ? (row.error ?? "") : null);
  const shown = ended.messages.find((message) => message.id === answerId(row.id));
  if (!row.answer || (shown && shown.content.length >= row.answer.length)) return ended;
  // The stream broke off mid-answer: the stored answer is the whole of it.
  return { ...ended, messages: withAnswer(ended, (answer) => ({ ...answer, content: row.answer ?? "", reference: row.reference ?? null, streaming: false })) };
}

/**
 * The canvas's colours: what each component did this turn; while the run goes on, those it has not reached yet are
 * waiting, and once it ended, those it did not run were skipped. Nothing before the first run.
 */
export function nodeStatesOf(view: Pick<RunView, "ran" | "status">, nodeIds: readonly string[]): Record<string, NodeRunState> {
  if (view.status === "idle") return view.ran;
  const unrun: NodeRunState = { status: isLive(view.status) ? "waiting" : "skipped" };
  const states: Record<string, NodeRunState> = {};
  for (const id of nodeIds) if (!(id in view.ran)) states[id] = unrun;
  return { ...states, ...view.ran };
}
