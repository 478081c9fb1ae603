import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";
import { describeError } from "../../errors";
import type { Assistants } from "./assistant/useAssistants";
import { AssistantSettingsDialog } from "./assistant/AssistantSettingsDialog";
import type { Conversations } from "./conversation/useConversations";
import { ApiKeyDialog } from "./share/ApiKeyDialog";
import { EmbedDialog } from "../../components/share/EmbedDialog";
import type { ChatDialogState } from "./useChatDialogs";
import type { ChatSelection } from "./useChatSelection";

// Charts are the heaviest part of the page and only the overview needs them.
const StatisticsDialog = lazy(() => import("./statistics/StatisticsDialog"));

interface ChatDialogsProps {
  dialogs: ChatDialogState;
  selection: ChatSelection;
  assistants: Assistants;
  conversations: Conversations;
}

/** The chat page's dialogs: assistant settings, statistics, embedding, API keys, renaming and the two deletions. */
export function ChatDialogs({ dialogs, selection, assistants, conversations }: ChatDialogsProps) {
  const { t, i18n } = useTranslation();
  const { settings, overview, renaming, deletingConversation, deletingAssistant } = dialogs;
  return (
    <>
      <AssistantSettingsDialog
        open={settings.open}
        assistantId={settings.open ? settings.assistantId : null}
        onClose={dialogs.closeSettings}
        onSaved={(id) => {
          void assistants.refetch();
          if (settings.open && settings.assistantId === null) selection.select({ assistant: id, conversation: null });
        }}
      />
      {overview.open && (
        <Suspense fallback={null}>
          <StatisticsDialog open assistant={overview.assistant} onClose={dialogs.closeOverview} />
        </Suspense>
      )}
      <EmbedDialog assistant={dialogs.embedding} onClose={() => dialogs.setEmbedding(null)} onOpenApiKeys={() => dialogs.setApiKeysOpen(true)} />
      <ApiKeyDialog open={dialogs.apiKeysOpen} onClose={() => dialogs.setApiKeysOpen(false)} />
      <TextFieldsDialog
        open={renaming !== null}
        title={t("chat.conversations.renameTitle")}
        testId="conversation-rename-dialog"
        fields={[{ name: "name", label: t("chat.conversations.name"), required: true, requiredKey: "errors.conversation.nameRequired", initial: renaming?.name ?? "" }]}
        onClose={() => dialogs.setRenaming(null)}
        onSubmit={async (values) => {
          if (!renaming) return;
          await conversations.rename(renaming, values.name.trim());
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
      />
      <ConfirmDeleteDialog
        open={deletingConversation !== null}
        binKind="conversation"
        subject={deletingConversation?.name}
        onClose={() => dialogs.setDeletingConversation(null)}
        onConfirm={() => (deletingConversation ? conversations.remove(deletingConversation) : undefined)}
      />
      <ConfirmDeleteDialog
        open={deletingAssistant !== null}
        binKind="assistant"
        subject={deletingAssistant?.name}
        onClose={() => dialogs.setDeletingAssistant(null)}
        onConfirm={() => (deletingAssistant ? assistants.remove(deletingAssistant) : undefined)}
      />
    </>
  );
}
