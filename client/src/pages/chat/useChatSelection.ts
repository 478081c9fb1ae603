import { useSearchParams } from "react-router-dom";

export interface ChatChoice {
  assistant?: string | null;
  conversation?: string | null;
}

/** The assistant and conversation the chat page shows, kept in the address (`?assistant=…&conversation=…`). */
export function useChatSelection() {
  const [params, setParams] = useSearchParams();

  /** Sets the given keys (null removes one); `replace` rewrites the current history entry instead of adding one. */
  function select(next: ChatChoice, replace = false) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if (value) updated.set(key, value);
          else updated.delete(key);
        }
        return updated;
      },
      { replace },
    );
  }

  return { assistantId: params.get("assistant"), conversationId: params.get("conversation"), select };
}

export type ChatSelection = ReturnType<typeof useChatSelection>;
