import { randomUUID } from "node:crypto";
import { success } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { SignedIn } from "../../policies/principal";
import { DomainError } from "../../platform/errors";
import type { Services } from "../../platform/services";
import { bridgeToSse, rawFrame } from "../../platform/runs/sse";
import { agentEvent, failureEvents, FoldedAnswer, STREAMED_EVENTS, TraceCollector, type AgentEvent, type AgentTurn } from "./agent-frames";
import type { WatchedRun } from "../flow-run.service";
import { visibleAgent } from "./agents.rest";

/**
 * RAGFlow's agent completions (API contract §10.5): `POST /api/v1/agents/{agent_id}/completions` runs one
 * turn of the agent in a session — the one named, else a new one made from the saved flow — and streams
 * its events as `data:{event json}` frames (`message` deltas, `node_finished`, `message_end`) ending with
 * `data:[DONE]`, or answers once with the last event and the deltas folded into it. The turn is a flow run
 * like the canvas's (a job, stored, cancellable); a client that goes away cancels it.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** RAGFlow's `bool(value)` of a JSON flag; a missing one takes the default. */
function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string") return value !== "";
  return Boolean(value);
}

/** Begin's input values from RAGFlow's `inputs` (`{key: {type, value}}`), or plain values. */
export function beginInputs(value: unknown): Record<string, unknown> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, input]) => [key, isObject(input) && "value" in input ? input.value : input]));
}

export interface AgentTurnRequest {
  question: string;
  inputs: Json;
  /** An existing session of the agent; none: a new session from the saved flow. */
  sessionId?: string;
  userId?: string;
}

export interface StartedTurn {
  turn: AgentTurn;
  /** The turn's events as RAGFlow tells them, every one (the caller picks what it forwards). */
  events: AsyncIterable<AgentEvent>;
  cancel(): void;
}

/**
 * Starts the turn in the session named, else in a new one. RAGFlow raises AssertionErrors here (code 100): a
 * session that is not found (here also one of another agent or tenant), an agent not found or not the caller's.
 */
export async function startAgentTurn(services: Services, principal: SignedIn, agentId: string, request: AgentTurnRequest): Promise<StartedTurn> {
  // Checked while the run service reads the session named, so that the turn waits for the database once for both.
  const agent = visibleAgent(services, principal, agentId).then((found) => {
    if (request.sessionId) {
      // The run service finds the session among the agent's own; any other is not found.
      if (found?.tenantId !== principal.tenantId) throw new PythonException("AssertionError", "Session not found!");
    } else {
      if (!found) throw new PythonException("AssertionError", "Agent not found.");
      if (found.tenantId !== principal.tenantId) throw new PythonException("AssertionError", "You do not own the agent.");
    }
    return found;
  });
  let started: WatchedRun;
  try {
    started = await services.flowRuns.startWatched(principal, agent, { message: request.question, inputs: request.inputs, sessionId: request.sessionId, userId: request.userId, source: "api" });
  } catch (error) {
    if (request.sessionId && error instanceof DomainError && error.messageKey === "flow.errors.sessionNotFound") throw new PythonException("AssertionError", "Session not found!");
    throw error;
  }
  const { run, session, events: stream } = started;
  const turn: AgentTurn = {
    messageId: randomUUID().replace(/-/g, ""),
    agentId,
    sessionId: session.id,
    dsl: session.dsl,
    inputs: request.inputs,
    startedAt: Date.now(),
    lastOutputs: {},
  };
  async function* events(): AsyncGenerator<AgentEvent> {
    for await (const event of stream) {
      if (event.type === "run_failed") {
        yield* failureEvents(turn, event.error);
        return;
      }
      if (event.type === "run_cancelled") return;
      const mapped = agentEvent(turn, event);
      if (mapped) yield mapped;
      if (event.type === "run_finished") return;
    }
  }
  return { turn, events: events(), cancel: () => void services.flowRuns.cancel(principal, run.id).catch(() => undefined) };
}

async function completions({ services, principal, params, body, res }: AuthenticatedRestContext): Promise<unknown> {
  const returnTrace = flag(body.return_trace, false);
  const started = await startAgentTurn(services, principal, params.agentId, {
    question: String(body.question ?? body.query ?? ""),
    inputs: beginInputs(body.inputs),
    sessionId: body.session_id ? String(body.session_id) : undefined,
    userId: body.user_id ? String(body.user_id) : undefined,
  });
  const trace = returnTrace ? new TraceCollector() : null;

  if (!flag(body.stream, true)) {
    const folded = new FoldedAnswer();
    for await (const event of started.events) {
      if (trace && event.event === "node_finished") trace.add(event);
      folded.add(event);
    }
    return success(folded.result(trace?.trace));
  }

  async function* frames(): AsyncGenerator<unknown> {
    for await (const event of started.events) {
      if (!STREAMED_EVENTS.has(event.event)) continue;
      if (trace && event.event === "node_finished") trace.add(event);
      yield event;
    }
    yield rawFrame("[DONE]");
  }
  await bridgeToSse(res, frames(), { onDisconnect: started.cancel });
  return undefined;
}

export const agentCompletionRestRoutes: RestRoute[] = [authenticatedRoute("POST", "/api/v1/agents/:agentId/completions", "apiKey", completions)];
