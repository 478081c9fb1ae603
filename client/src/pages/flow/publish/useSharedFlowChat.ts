import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { citationsOf, type DocumentAggregate } from "../../../components/conversation/citedAnswer";
import { describeError } from "../../../errors";
import {
  SharedFlowCancelRunDocument,
  SharedFlowLastSessionDocument,
  SharedFlowRunEventsDocument,
  SharedFlowStartRunDocument,
  type ChatReferenceFieldsFragment,
} from "../../../graphql/gql/graphql";

/** A message of the shared flow's conversation; an answer grows while its run streams. */
export interface FlowChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  references: ChatReferenceFieldsFragment[];
  documents: DocumentAggregate[];
  status: "streaming" | "done" | "failed" | "stopped";
  error: string | null;
}

const fromStored = (m: { id: string; role: string; content: string; reference?: unknown }): FlowChatMessage => ({
  id: m.id,
  role: m.role === "user" ? "user" : "assistant",
  content: m.content,
  ...citationsOf(m.reference),
  status: "done",
  error: null,
});

/**
 * The visitor's conversation with a shared flow: their newest session (the server lists only theirs), each message
 * sent as a turn of it (the first one with Begin's inputs) and the answer followed over `flowRunEvents` as it streams.
 * `waiting` tells that an Answer of the flow waits for the visitor's reply; a run can be stopped.
 */
export function useSharedFlowChat(flowId: string | null) {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const last = useQuery(SharedFlowLastSessionDocument, { variables: { flowId: flowId ?? "" }, skip: !flowId, fetchPolicy: "network-only" });
  const [startRun] = useMutation(SharedFlowStartRunDocument);
  const [cancelRun] = useMutation(SharedFlowCancelRunDocument);
  const [sessionId, setSessionId] = useState<string | null | undefined>(undefined);
  const [messages, setMessages] = useState<FlowChatMessage[]>([]);
  const [runId, setRunId] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const following = useRef<{ unsubscribe(): void } | null>(null);

  // The newest session is taken once, when it is known; "new conversation" sets null afterwards.
  useEffect(() => {
    if (sessionId !== undefined || !last.data) return;
    const session = last.data.flowSessions[0];
    setSessionId(session?.id ?? null);
    setMessages(session ? session.messages.map(fromStored) : []);
  }, [last.data, sessionId]);

  useEffect(() => () => following.current?.unsubscribe(), []);

  const updateAnswer = (answerId: string, change: (answer: FlowChatMessage) => FlowChatMessage) =>
    setMessages((current) => current.map((m) => (m.id === answerId ? change(m) : m)));

  /** Follows a run into the answer `answerId` until its last event. */
  function follow(run: string, answerId: string) {
    following.current?.unsubscribe();
    let lastSeq = 0;
    following.current = client.subscribe({ query: SharedFlowRunEventsDocument, variables: { runId: run } }).subscribe({
      next: ({ data }) => {
        const event = data?.flowRunEvents;
        if (!event || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        if (event.type === "message") updateAnswer(answerId, (a) => ({ ...a, content: a.content + (event.delta ?? "") }));
        else if (event.type === "message_end") updateAnswer(answerId, (a) => ({ ...a, ...citationsOf(event.reference) }));
        else if (event.type === "waiting_for_input") setWaiting(true);
        else if (event.type === "run_finished") updateAnswer(answerId, (a) => ({ ...a, status: "done" }));
        else if (event.type === "run_failed") updateAnswer(answerId, (a) => ({ ...a, status: "failed", error: event.error ?? null }));
        else if (event.type === "run_cancelled") updateAnswer(answerId, (a) => ({ ...a, status: "stopped" }));
        if (["run_finished", "run_failed", "run_cancelled"].includes(event.type)) setRunId(null);
      },
      error: (error: unknown) => {
        updateAnswer(answerId, (a) => ({ ...a, status: "failed", error: describeError(error, i18n) }));
        setRunId(null);
      },
    });
  }

  return {
    loading: sessionId === undefined && !last.error,
    loadFailure: last.error && !last.data ? describeError(last.error, i18n) : null,
    /** null: the next message opens a new session. */
    sessionId: sessionId ?? null,
    messages,
    busy: runId !== null,
    waiting,
    /** Why the last message could not be sent. */
    failure,
    /** Sends the visitor's message (none: only Begin's inputs, to start); `inputs` go with the session's first turn. */
    async send(message: string, inputs?: Record<string, unknown>) {
      if (!flowId || runId) return;
      setFailure(null);
      const question: FlowChatMessage | null = message
        ? { id: `local-question-${Date.now()}`, role: "user", content: message, references: [], documents: [], status: "done", error: null }
        : null;
      try {
        const { data } = await startRun({ variables: { flowId, input: { message: message || null, inputs: inputs ?? null, sessionId: sessionId ?? null } } });
        if (!data) return;
        const started = data.startFlowRun;
        const answer: FlowChatMessage = { id: `answer-${started.run.id}`, role: "assistant", content: "", references: [], documents: [], status: "streaming", error: null };
        setSessionId(started.session.id);
        setMessages((current) => [...current, ...(question ? [question] : []), answer]);
        setWaiting(false);
        setRunId(started.run.id);
        follow(started.run.id, answer.id);
      } catch (error) {
        setFailure(describeError(error, i18n) || t("flow.publish.shared.sendFailed"));
      }
    },
    async stop() {
      if (runId) await cancelRun({ variables: { id: runId } }).catch(() => undefined);
    },
    /** Leaves the current session: the next message opens a new one. */
    newConversation() {
      following.current?.unsubscribe();
      setRunId(null);
      setWaiting(false);
      setSessionId(null);
      setMessages([]);
      setFailure(null);
    },
  };
}

export type SharedFlowChat = ReturnType<typeof useSharedFlowChat>;
