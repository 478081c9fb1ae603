import { Button, HStack } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChartLine, LuKeyRound, LuPlus } from "react-icons/lu";
import { LoadFailed } from "../../components/LoadFailed";
import { PageHeader } from "../../components/PageHeader";
import { EmptyAssistants } from "./assistant/EmptyAssistants";
import { useAssistants } from "./assistant/useAssistants";
import { ChatDialogs } from "./ChatDialogs";
import { ChatWorkspace } from "./ChatWorkspace";
import { useConversations } from "./conversation/useConversations";
import { useChatDialogs } from "./useChatDialogs";
import { useChatSelection } from "./useChatSelection";
import { useLandOnNewest } from "./useLandOnNewest";

export default function ChatPage() {
  const { t } = useTranslation();
  const selection = useChatSelection();
  const assistants = useAssistants(selection);
  const conversations = useConversations(selection);
  const dialogs = useChatDialogs();
  useLandOnNewest(selection, assistants.items, assistants.searching, conversations.list);

  return (
    <>
      <PageHeader
        title={t("pages.chat.title")}
        description={t("pages.chat.summary")}
        actions={
          <HStack gap="2" wrap="wrap">
            <Button variant="outline" onClick={() => dialogs.setApiKeysOpen(true)} data-testid="chat-api-keys">
              <LuKeyRound /> {t("api.keys")}
            </Button>
            <Button variant="outline" onClick={() => dialogs.showOverview(null)} data-testid="chat-overview">
              <LuChartLine /> {t("chat.statistics.title")}
            </Button>
            <Button colorPalette="brand" onClick={dialogs.createAssistant} data-testid="assistant-create">
              <LuPlus /> {t("chat.assistants.create")}
            </Button>
          </HStack>
        }
      />

      {assistants.failure ? (
        <LoadFailed error={assistants.failure} onRetry={() => void assistants.refetch()} />
      ) : assistants.noneAtAll ? (
        <EmptyAssistants onCreate={dialogs.createAssistant} />
      ) : (
        <ChatWorkspace selection={selection} assistants={assistants} conversations={conversations} dialogs={dialogs} />
      )}

      <ChatDialogs dialogs={dialogs} selection={selection} assistants={assistants} conversations={conversations} />
    </>
  );
}
