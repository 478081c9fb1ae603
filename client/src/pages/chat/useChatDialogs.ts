import { useState } from "react";
import type { AssistantCardFragment, ConversationRowFragment } from "../../graphql/gql/graphql";
import type { AssistantAction } from "./assistant/AssistantList";

/** The assistant settings dialog edits one assistant, or creates one (null). */
export type SettingsDialog = { open: false } | { open: true; assistantId: string | null };
/** The statistics of one assistant, or of all of them (null). */
export type OverviewDialog = { open: false } | { open: true; assistant: { id: string; name: string } | null };

/**
 * Which of the chat page's dialogs are open. They are independent: the API keys dialog opens over the embed dialog.
 */
export function useChatDialogs() {
  const [settings, setSettings] = useState<SettingsDialog>({ open: false });
  const [overview, setOverview] = useState<OverviewDialog>({ open: false });
  const [embedding, setEmbedding] = useState<AssistantCardFragment | null>(null);
  const [apiKeysOpen, setApiKeysOpen] = useState(false);
  const [deletingAssistant, setDeletingAssistant] = useState<AssistantCardFragment | null>(null);
  const [renaming, setRenaming] = useState<ConversationRowFragment | null>(null);
  const [deletingConversation, setDeletingConversation] = useState<ConversationRowFragment | null>(null);

  const editAssistant = (assistantId: string | null) => setSettings({ open: true, assistantId });
  const showOverview = (assistant: { id: string; name: string } | null) => setOverview({ open: true, assistant });

  return {
    settings,
    createAssistant: () => editAssistant(null),
    editAssistant,
    closeSettings: () => setSettings({ open: false }),
    overview,
    showOverview,
    closeOverview: () => setOverview({ open: false }),
    embedding,
    setEmbedding,
    apiKeysOpen,
    setApiKeysOpen,
    deletingAssistant,
    setDeletingAssistant,
    renaming,
    setRenaming,
    deletingConversation,
    setDeletingConversation,
    /** An assistant card's menu. */
    onAssistantAction(action: AssistantAction, target: AssistantCardFragment) {
      if (action === "edit") editAssistant(target.id);
      else if (action === "statistics") showOverview({ id: target.id, name: target.name });
      else if (action === "embed") setEmbedding(target);
      else setDeletingAssistant(target);
    },
  };
}

export type ChatDialogState = ReturnType<typeof useChatDialogs>;
