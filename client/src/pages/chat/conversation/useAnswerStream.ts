import { useApolloClient, useSubscription } from "@apollo/client/react";
import { useRef } from "react";
import { AnswerStreamDocument, ChatMessageFieldsFragmentDoc, ConversationDocument, type ChatMessageFieldsFragment } from "../../../graphql/gql/graphql";

/** An answer still being produced: it is subscribed to, whether it was asked now or before the page was (re)loaded. */
export const LIVE_STATUSES = new Set(["searching", "streaming"]);

export function isLive(message: Pick<ChatMessageFieldsFragment, "role" | "status">): boolean {
  return message.role === "assistant" && LIVE_STATUSES.has(message.status);
}

/**
 * Follows an answer over the `answerStream` subscription and writes it into the cached message, which every view reads.
 * The server sends one snapshot first (the whole content so far, `content`), then live events with `delta`s in `seq`
 * order; an event at or below the last seq applied is a repeat and is dropped. A new subscription (a reconnect) starts
 * with a new snapshot, which replaces what was shown. When the answer ends, the conversation is read once more for
 * what the stream does not carry (the per-document counts of the reference list).
 */
export function useAnswerStream(message: ChatMessageFieldsFragment): void {
  const client = useApolloClient();
  const lastSeq = useRef(-1);
  const live = isLive(message);

  useSubscription(AnswerStreamDocument, {
    variables: { messageId: message.id },
    skip: !live,
    onData: ({ data }) => {
      const event = data.data?.answerStream;
      if (!event) return;
      const id = client.cache.identify({ __typename: "ChatMessage", id: message.id });
      const current = client.cache.readFragment({ id, fragment: ChatMessageFieldsFragmentDoc, fragmentName: "ChatMessageFields" });
      if (!current) return;
      let content: string;
      if (event.content != null) content = event.content;
      else if (event.seq <= lastSeq.current) return;
      else content = current.content + (event.delta ?? "");
      lastSeq.current = event.seq;
      client.cache.writeFragment({
        id,
        fragment: ChatMessageFieldsFragmentDoc,
        fragmentName: "ChatMessageFields",
        data: { ...current, content, status: event.status, error: event.error ?? current.error, references: event.references ?? current.references },
      });
      if (!LIVE_STATUSES.has(event.status)) void client.refetchQueries({ include: [ConversationDocument] });
    },
    onError: () => {
      // The socket gave up (graphql-ws retries first): show what the server has stored instead.
      void client.refetchQueries({ include: [ConversationDocument] });
    },
  });
}
