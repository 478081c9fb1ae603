import type { Reference } from "@apollo/client";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { AskDocument, ChatMessageFieldsFragmentDoc, ConversationDocument, RegenerateAnswerDocument, StopAnswerDocument, type ChatMessageFieldsFragment } from "../../../graphql/gql/graphql";
import { isLive } from "./useAnswerStream";

interface ChatConversationOptions {
  /** null: no conversation yet; the first question creates one with `createConversation`. */
  conversationId: string | null;
  createConversation: () => Promise<string>;
  /** Called when the user asks or regenerates: the view should follow the new answer. */
  onFollow: () => void;
}

/** One conversation's messages and the question being typed: ask, stop the answer being written, regenerate the last one. */
export function useChatConversation({ conversationId, createConversation, onFollow }: ChatConversationOptions) {
  const { i18n } = useTranslation();
  const [question, setQuestion] = useState("");
  const [sending, setSending] = useState(false);
  const { data, loading, error, refetch } = useQuery(ConversationDocument, { variables: { id: conversationId ?? "" }, skip: !conversationId });
  const [ask] = useMutation(AskDocument);
  const [stop, { loading: stopping }] = useMutation(StopAnswerDocument);
  const [regenerate] = useMutation(RegenerateAnswerDocument);
  const reportFailure = (failure: unknown) => notify.error(describeError(failure, i18n));

  const messages: ChatMessageFieldsFragment[] = conversationId ? (data?.conversation.messages ?? []) : [];
  const liveAnswer = messages.find(isLive);
  const busy = sending || !!liveAnswer;

  /** Asks the typed question; on failure the question comes back into the box. */
  async function send() {
    const text = question.trim();
    if (!text || busy) return;
    setSending(true);
    setQuestion("");
    onFollow();
    try {
      const id = conversationId ?? (await createConversation());
      await ask({
        variables: { conversationId: id, question: text },
        update(cache, { data: asked }) {
          if (!asked) return;
          const added = [asked.ask.question, asked.ask.answer].map((message) => cache.writeFragment({ data: message, fragment: ChatMessageFieldsFragmentDoc, fragmentName: "ChatMessageFields" }));
          cache.modify<{ messages: Reference[] }>({
            id: cache.identify({ __typename: "Conversation", id }),
            fields: {
              messages(existing = []) {
                const known = new Set(existing.map((reference) => reference.__ref));
                return [...existing, ...added.filter((reference): reference is Reference => !!reference && !known.has(reference.__ref))];
              },
            },
          });
        },
      });
    } catch (failure) {
      setQuestion(text);
      reportFailure(failure);
    } finally {
      setSending(false);
    }
  }

  return {
    messages,
    /** True while the first reading of an existing conversation is on its way. */
    loadingFirst: !!conversationId && loading && !data,
    /** The first reading of an existing conversation failed. */
    failure: conversationId && error && !data ? error : undefined,
    refetch,
    liveAnswer,
    lastAnswer: [...messages].reverse().find((message) => message.role === "assistant"),
    firstQuestion: messages.findIndex((message) => message.role === "user"),
    busy,
    question,
    setQuestion,
    sending,
    send,
    stopping,
    async stopAnswer() {
      if (!liveAnswer) return;
      try {
        await stop({ variables: { messageId: liveAnswer.id } });
      } catch (failure) {
        reportFailure(failure);
      }
    },
    async regenerateAnswer(messageId: string) {
      onFollow();
      try {
        await regenerate({ variables: { messageId } });
        // The old answer is replaced, possibly by a message with a new id: read the conversation again.
        await refetch();
      } catch (failure) {
        reportFailure(failure);
      }
    },
  };
}

export type ChatConversation = ReturnType<typeof useChatConversation>;
