import { useApolloClient } from "@apollo/client/react";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../../errors";
import {
  CancelFlowRunDocument,
  FlowRunEventsDocument,
  FlowRunOutcomeDocument,
  FlowSessionMessagesDocument,
  LatestFlowRunDocument,
  StartFlowRunDocument,
  type StartFlowRunInput,
} from "../../../graphql/gql/graphql";
import type { EditorNode, NodeRunState } from "../flowTypes";
import { idleRun, isLive, nodeStatesOf, runReducer, runStatusOf, type FlowRunMessage, type FlowRunStatus, type RunStep, type RunView } from "./runEvents";

export type { FlowRunMessage, FlowRunStatus } from "./runEvents";

/** A step of this turn with the name its component has in the editor. */
export interface NamedRunStep extends RunStep {
  name: string;
}

/** The run shown in the editor: the canvas reads nodeStates, the run panel the rest. */
export interface FlowRunController {
  nodeStates: Record<string, NodeRunState>;
  messages: FlowRunMessage[];
  status: FlowRunStatus;
  /** Why the run failed (as the server translated it), or why a request was refused, in the user's language. */
  error: string | null;
  sessionId: string | null;
  runId: string | null;
  /** This turn's components in the order they ran, with their state and time. */
  steps: NamedRunStep[];
  /** The Answer the session waits at for the user's reply. */
  waitingAt: string | null;
  /** A start, reply, re-run or stop is on its way to the server. */
  pending: boolean;
  /**
   * A new session on Begin's input values; `message` is the user's first words when they write before the flow
   * speaks (Begin's prologue then counts as said: the panel showed it).
   * Resolves to true once the turn started.
   */
  start: (inputs: Record<string, unknown>, message?: string) => Promise<boolean>;
  /** Answers the Answer the session waits at (or goes on after the flow's end, or tries a failed turn again). */
  reply: (message: string) => Promise<boolean>;
  stop: () => Promise<void>;
  /** Runs the session's flow again from this component, keeping what ran before it. */
  rerunFrom: (componentId: string) => Promise<boolean>;
  /** Forgets the run shown (node states and conversation). */
  reset: () => void;
}

/** Streams that broke off while their run went on are followed again this many times before the stored row is trusted. */
const RESUBSCRIBE_LIMIT = 3;

/** The session this tab ran last, per flow: after a reload its conversation is shown again even when its run ended. */
const sessionKey = (flowId: string) => `cairn.flowRun.session.${flowId}`;

function rememberSession(flowId: string, sessionId: string | null): void {
  try {
    if (sessionId) sessionStorage.setItem(sessionKey(flowId), sessionId);
    else sessionStorage.removeItem(sessionKey(flowId));
  } catch {
    // Storage refused (private mode, quota): a reload then shows only a run still going.
  }
}

function rememberedSession(flowId: string): string | null {
  try {
    return sessionStorage.getItem(sessionKey(flowId));
  } catch {
    return null;
  }
}

const LAST_EVENTS = new Set(["run_finished", "run_failed", "run_cancelled"]);

/**
 * Runs the flow from the editor and follows the run over `flowRunEvents`. On mount it looks for the flow's newest run:
 * one still queued or running (from a reload, or another tab) is reattached, its session's conversation loaded and its
 * events followed from the first, so that node states and the answer catch up and it finishes live; so is one that ended
 * in the session this tab ran last. `nodes` (optional) are the flow's components: those not run yet show as waiting
 * while a turn runs and as skipped after it, and steps are named after them.
 */
export function useFlowRun(flowId: string, nodes?: readonly Pick<EditorNode, "id" | "name">[]): FlowRunController {
  const client = useApolloClient();
  const { t, i18n } = useTranslation();
  const [view, dispatch] = useReducer(runReducer, idleRun);
  const [requestError, setRequestError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [resubscribed, setResubscribed] = useState(0);
  const current = useRef<RunView>(view);
  current.current = view;

  // Reattach to the newest run after a reload.
  useEffect(() => {
    let left = false;
    void (async () => {
      const latest = await client.query({ query: LatestFlowRunDocument, variables: { flowId }, fetchPolicy: "network-only" });
      const run = latest.data?.flowRuns[0];
      if (left || !run) return;
      if (!isLive(runStatusOf(run.status)) && rememberedSession(flowId) !== run.sessionId) return;
      const session = await client.query({ query: FlowSessionMessagesDocument, variables: { id: run.sessionId }, fetchPolicy: "network-only" });
      // A turn the user started meanwhile wins over the one found.
      if (left || !session.data || current.current.runId !== null) return;
      const history = session.data.flowSession.messages.map((message) => ({
        id: message.id,
        role: message.role === "user" ? ("user" as const) : ("assistant" as const),
        content: message.content,
        reference: message.reference,
        runId: message.runId,
      }));
      dispatch({ type: "attach", run, history });
    })().catch(() => {
      // Nothing could be read: the panel starts empty, as before any run.
    });
    return () => {
      left = true;
    };
  }, [client, flowId]);

  // Follow the run shown: its events from the first (a late watcher misses nothing), repeats dropped by the reducer.
  const runId = view.runId;
  useEffect(() => {
    if (!runId) return;
    let left = false;
    let ended = false;
    const settle = async () => {
      if (left || ended) return;
      ended = true;
      try {
        const { data } = await client.query({ query: FlowRunOutcomeDocument, variables: { id: runId }, fetchPolicy: "network-only" });
        if (left || !data) return;
        dispatch({ type: "outcome", run: data.flowRun });
        if (isLive(runStatusOf(data.flowRun.status))) setResubscribed((n) => (n < RESUBSCRIBE_LIMIT ? n + 1 : n));
      } catch {
        // The server is out of reach: what was shown stays, and a reload reattaches.
      }
    };
    const subscription = client
      .subscribe({ query: FlowRunEventsDocument, variables: { runId, after: current.current.runId === runId ? current.current.lastSeq : 0 }, fetchPolicy: "no-cache" })
      .subscribe({
        next: (result) => {
          const event = result.data?.flowRunEvents;
          if (event) {
            dispatch({ type: "event", event });
            if (LAST_EVENTS.has(event.type)) ended = true;
          } else if (result.error) void settle();
        },
        error: () => void settle(),
        // The stream ends after the run's last event; one that ends before it broke off.
        complete: () => void settle(),
      });
    return () => {
      left = true;
      subscription.unsubscribe();
    };
  }, [client, runId, resubscribed]);

  const startTurn = useCallback(
    async (input: StartFlowRunInput): Promise<boolean> => {
      setRequestError(null);
      setPending(true);
      try {
        const { data } = await client.mutate({ mutation: StartFlowRunDocument, variables: { flowId, input } });
        if (!data) return false;
        const { run, session } = data.startFlowRun;
        rememberSession(flowId, session.id);
        setResubscribed(0);
        dispatch({ type: "turn", runId: run.id, sessionId: session.id, message: run.message });
        return true;
      } catch (error) {
        setRequestError(describeError(error, i18n));
        return false;
      } finally {
        setPending(false);
      }
    },
    [client, flowId, i18n],
  );

  const start = useCallback((inputs: Record<string, unknown>, message?: string) => startTurn({ inputs, message: message?.trim() || null }), [startTurn]);

  const reply = useCallback(
    (message: string) => {
      const sessionId = current.current.sessionId;
      return sessionId ? startTurn({ sessionId, message }) : startTurn({ message });
    },
    [startTurn],
  );

  const rerunFrom = useCallback(
    async (componentId: string) => {
      const sessionId = current.current.sessionId;
      if (!sessionId) {
        setRequestError(t("flow.run.rerunNeedsRun"));
        return false;
      }
      return startTurn({ sessionId, fromComponent: componentId });
    },
    [startTurn, t],
  );

  const stop = useCallback(async () => {
    const { runId: id, status } = current.current;
    if (!id || !isLive(status)) return;
    setPending(true);
    try {
      const { data } = await client.mutate({ mutation: CancelFlowRunDocument, variables: { id } });
      if (data) dispatch({ type: "outcome", run: data.cancelFlowRun });
    } catch (error) {
      setRequestError(describeError(error, i18n));
    } finally {
      setPending(false);
    }
  }, [client, i18n]);

  const reset = useCallback(() => {
    rememberSession(flowId, null);
    setRequestError(null);
    dispatch({ type: "reset" });
  }, [flowId]);

  const nodeIds = useMemo(() => (nodes ?? []).map((node) => node.id).join("\n"), [nodes]);
  // Kept the same object while nothing it shows changed: the canvas redraws its nodes when it changes.
  const { ran, status } = view;
  const nodeStates = useMemo(() => nodeStatesOf({ ran, status }, nodeIds ? nodeIds.split("\n") : []), [ran, status, nodeIds]);
  const steps = useMemo(() => {
    const names = new Map((nodes ?? []).map((node) => [node.id, node.name]));
    return view.steps.map((step) => ({ ...step, name: names.get(step.componentId) ?? step.componentId }));
  }, [view.steps, nodes]);

  const runError = view.error === null ? null : view.error || t("flow.run.failed");
  return {
    nodeStates,
    messages: view.messages,
    status: view.status,
    error: requestError ?? runError,
    sessionId: view.sessionId,
    runId: view.runId,
    steps,
    waitingAt: view.waitingAt,
    pending,
    start,
    reply,
    stop,
    rerunFrom,
    reset,
  };
}
