import type { MessageReference } from "../chat/message.entity";
import type { ComponentOutput, ResolvedInput } from "./component";

/**
 * What a flow run tells its watchers, in order. The engine emits the component and message events of a turn;
 * the run service adds the run's own (started, waiting, finished, failed, cancelled), numbers every event
 * (`seq`), stores it and publishes it, so that a watcher who comes late or reconnects reads the run from the
 * start (platform/runs/event-stream.ts). The REST facade maps them onto RAGFlow's SSE frames
 * (`node_finished`, `message`, `message_end`).
 */
export type RunEvent =
  | { type: "run_started"; runId: string; sessionId: string }
  | { type: "node_started"; componentId: string; componentName: string }
  | {
      type: "node_finished";
      componentId: string;
      componentName: string;
      inputs: ResolvedInput[];
      output: ComponentOutput | null;
      /** The component's failure, translated. */
      error: string | null;
      elapsedMs: number;
      tokens: number;
    }
  /** A piece of what the user is told (a delta, not the text so far). */
  | { type: "message"; componentId: string; delta: string }
  | { type: "message_end"; reference: MessageReference | null }
  /** The run stopped at an Answer ("Interact") and waits for the user's next message. */
  | { type: "waiting_for_input"; componentId: string }
  | { type: "run_finished"; status: "waiting" | "finished" }
  | { type: "run_failed"; error: string }
  | { type: "run_cancelled" };

export type RunEventType = RunEvent["type"];

/** An event as stored and delivered: numbered from 1 within its run. */
export type SequencedRunEvent = RunEvent & { seq: number; at: string };
