import { useEffect } from "react";
import type { AssistantCardFragment, ConversationRowFragment } from "../../graphql/gql/graphql";
import type { ChatSelection } from "./useChatSelection";

/** Lands on the first assistant, and on its newest conversation, when the address names none. */
export function useLandOnNewest(
  { assistantId, conversationId, select }: ChatSelection,
  assistants: AssistantCardFragment[] | undefined,
  searching: boolean,
  conversations: ConversationRowFragment[] | undefined,
) {
  useEffect(() => {
    if (!assistantId && assistants && assistants.length > 0 && !searching) select({ assistant: assistants[0].id, conversation: null }, true);
  }, [assistantId, assistants, searching]);
  useEffect(() => {
    if (assistantId && !conversationId && conversations && conversations.length > 0) select({ conversation: conversations[0].id }, true);
  }, [assistantId, conversationId, conversations]);
}
