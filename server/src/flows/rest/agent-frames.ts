import type { MessageReference } from "../../chat/message.entity";
import { presentReferenceChunk } from "../../chat/rest/sessions.rest";
import type { ComponentOutput, ResolvedInput } from "../component";
import type { FlowDsl } from "../dsl";
import type { SequencedRunEvent } from "../events";

/**
 * A flow run's events as RAGFlow's agent completions tell them (API contract §10.5): every event is
 * `{event, message_id, created_at, task_id, data, session_id}`. The stream forwards `message` (a delta),
 * `message_end` and `node_finished`; the canvas's own `workflow_started`, `node_started` and
 * `workflow_finished` are made too, because the non-streamed answer is the last event (normally
 * `workflow_finished`) with the deltas folded into it.
 */

type Json = Record<string, unknown>;

export type AgentEventName = "workflow_started" | "node_started" | "node_finished" | "message" | "message_end" | "workflow_finished";

export interface AgentEvent {
  event: AgentEventName;
  message_id: string;
  created_at: number;
  task_id: string;
  data: Json;
  session_id: string;
}

/** The events RAGFlow's `/agents/{id}/completions` stream forwards; the others stay inside. */
export const STREAMED_EVENTS: ReadonlySet<AgentEventName> = new Set(["message", "message_end", "node_finished"]);

/** What every event of one completion shares. */
export interface AgentTurn {
  /** 32 hex characters, one per completion (RAGFlow's canvas `message_id`). */
  messageId: string;
  /** The agent's id (RAGFlow's `task_id`). */
  agentId: string;
  sessionId: string;
  /** The flow the session runs: the components' display names and types. */
  dsl: FlowDsl;
  /** Begin's input values the request gave (workflow events' `inputs`). */
  inputs: Json;
  startedAt: number;
  /** The outputs of the last component finished (`workflow_finished`'s `outputs`); kept up to date by `agentEvent`. */
  lastOutputs: Json;
}

/** v0.20's reference of an agent answer: chunks by id, documents by name. */
export function agentReference(reference: MessageReference): Json {
  const chunks: Json = {};
  for (const chunk of reference.chunks) chunks[chunk.id] = presentReferenceChunk(chunk);
  const docAggs: Json = {};
  for (const doc of reference.doc_aggs) docAggs[doc.doc_name] = { doc_name: doc.doc_name, doc_id: doc.doc_id, count: doc.count };
  return { chunks, doc_aggs: docAggs };
}

/** A component's outputs as RAGFlow's `output()` dict: the text under `content`, named outputs beside it. */
export function componentOutputs(output: ComponentOutput | null): Json {
  if (!output) return {};
  return { content: output.content, ...(output.values ?? {}) };
}

/** The values a component read, by the component they came from (RAGFlow's `get_input_values()`). */
function componentInputs(inputs: ResolvedInput[]): Json {
  return Object.fromEntries(inputs.map((input) => [input.component_id, input.content]));
}

/** The component's display name (the editor's `data.name`), else its id. */
function displayName(dsl: FlowDsl, componentId: string): string {
  const node = dsl.graph?.nodes.find((n) => n.id === componentId);
  return typeof node?.data?.name === "string" && node.data.name !== "" ? node.data.name : componentId;
}

const componentType = (dsl: FlowDsl, componentId: string): string => dsl.components[componentId]?.obj.component_name ?? "";

/**
 * Maps one run event onto RAGFlow's agent event, or null when RAGFlow has no such event (waiting for input
 * ends the turn, as `workflow_finished` does; a failure is told as a message, see `failureEvents`).
 */
export function agentEvent(turn: AgentTurn, event: SequencedRunEvent): AgentEvent | null {
  const now = Date.parse(event.at);
  const decorate = (name: AgentEventName, data: Json): AgentEvent => ({
    event: name,
    message_id: turn.messageId,
    created_at: Math.floor(now / 1000),
    task_id: turn.agentId,
    data,
    session_id: turn.sessionId,
  });
  switch (event.type) {
    case "run_started":
      return decorate("workflow_started", { inputs: turn.inputs });
    case "node_started":
      return decorate("node_started", {
        component_id: event.componentId,
        component_name: displayName(turn.dsl, event.componentId),
        component_type: componentType(turn.dsl, event.componentId),
      });
    case "node_finished":
      turn.lastOutputs = componentOutputs(event.output);
      return decorate("node_finished", {
        inputs: componentInputs(event.inputs),
        outputs: turn.lastOutputs,
        component_id: event.componentId,
        component_name: displayName(turn.dsl, event.componentId),
        component_type: componentType(turn.dsl, event.componentId),
        error: event.error,
        elapsed_time: event.elapsedMs / 1000,
        created_at: (now - event.elapsedMs) / 1000,
      });
    case "message":
      return decorate("message", { content: event.delta });
    case "message_end":
      return decorate("message_end", event.reference && event.reference.chunks.length > 0 ? { reference: agentReference(event.reference) } : {});
    case "run_finished":
      return decorate("workflow_finished", { inputs: turn.inputs, outputs: turn.lastOutputs, elapsed_time: (now - turn.startedAt) / 1000, created_at: turn.startedAt / 1000 });
    default:
      return null;
  }
}

/** A failed or cancelled run, told as RAGFlow's stream tells an error: the text as a message, then its end. */
export function failureEvents(turn: AgentTurn, error: string, now = Date.now()): AgentEvent[] {
  const base = { message_id: turn.messageId, created_at: Math.floor(now / 1000), task_id: turn.agentId, session_id: turn.sessionId };
  return [
    { event: "message", ...base, data: { content: `**ERROR**: ${error}` } },
    { event: "message_end", ...base, data: {} },
  ];
}

/** With `return_trace`, each `node_finished` carries the trace of the components finished so far. */
export class TraceCollector {
  private readonly items: Json[] = [];

  add(event: AgentEvent): void {
    this.items.push({ component_id: event.data.component_id, trace: [{ ...event.data }] });
    event.data.trace = [...this.items];
  }

  get trace(): Json[] {
    return this.items;
  }
}

/**
 * The non-streamed answer (§10.5): the last event, its `data.content` every message delta joined, its
 * `data.reference` the references merged (`{}` if none), `data.trace` when asked for.
 */
export class FoldedAnswer {
  private content = "";
  private reference: Json = {};
  private last: AgentEvent | null = null;

  add(event: AgentEvent): void {
    if (event.event === "message") this.content += String(event.data.content ?? "");
    const reference = event.data.reference;
    if (reference && typeof reference === "object" && Object.keys(reference).length > 0) Object.assign(this.reference, reference);
    this.last = event;
  }

  get text(): string {
    return this.content;
  }

  result(trace?: Json[]): AgentEvent | null {
    if (!this.last) return null;
    const data: Json = { ...this.last.data, content: this.content, reference: this.reference };
    if (trace) data.trace = trace;
    return { ...this.last, data };
  }
}
