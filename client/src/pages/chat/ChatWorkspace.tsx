import { Box, Center, Flex, Grid } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { AssistantList } from "./assistant/AssistantList";
import type { Assistants } from "./assistant/useAssistants";
import { AssistantBar } from "./conversation/AssistantBar";
import { ChatPanel } from "./conversation/ChatPanel";
import { ConversationList } from "./conversation/ConversationList";
import type { Conversations } from "./conversation/useConversations";
import type { ChatDialogState } from "./useChatDialogs";
import type { ChatSelection } from "./useChatSelection";

interface ChatWorkspaceProps {
  selection: ChatSelection;
  assistants: Assistants;
  conversations: Conversations;
  dialogs: ChatDialogState;
}

/** Three columns (stacked on small screens): the assistants, the selected assistant's conversations, and the chat. */
export function ChatWorkspace({ selection, assistants, conversations, dialogs }: ChatWorkspaceProps) {
  const { t } = useTranslation();
  const { assistantId, conversationId, select } = selection;
  const assistant = assistants.selected;
  return (
    <Grid
      templateColumns={{ base: "minmax(0, 1fr)", md: "15rem minmax(0, 1fr)", lg: "16rem 14rem minmax(0, 1fr)" }}
      templateRows={{ base: "auto", md: "auto auto", lg: "minmax(0, 1fr)" }}
      height={{ lg: "calc(100dvh - 15.5rem)" }}
      minHeight={{ lg: "32rem" }}
      bg="bg.panel"
      borderWidth="1px"
      rounded="l3"
      overflow="hidden"
    >
      <Box borderEndWidth={{ md: "1px" }} borderBottomWidth={{ base: "1px", lg: "0" }} maxHeight={{ base: "18rem", lg: "none" }} minHeight="0" overflow="hidden">
        <AssistantList
          assistants={assistants.items}
          selectedId={assistantId}
          search={assistants.search}
          onSearch={assistants.setSearch}
          onSelect={(id) => id !== assistantId && select({ assistant: id, conversation: null })}
          onAction={dialogs.onAssistantAction}
        />
      </Box>
      <Box borderEndWidth={{ lg: "1px" }} borderBottomWidth={{ base: "1px", lg: "0" }} maxHeight={{ base: "18rem", lg: "none" }} minHeight="0" overflow="hidden" bg={{ base: "bg.panel", lg: "bg.subtle" }}>
        {assistantId ? (
          <ConversationList
            conversations={conversations.list}
            selectedId={conversationId}
            creating={conversations.creating}
            onSelect={(id) => select({ conversation: id })}
            onCreate={() => void conversations.start()}
            onRename={dialogs.setRenaming}
            onDelete={dialogs.setDeletingConversation}
          />
        ) : null}
      </Box>
      <Flex direction="column" minHeight={{ base: "36rem", lg: "0" }} gridColumn={{ md: "1 / -1", lg: "auto" }} bg="bg.canvas">
        {assistant ? (
          <>
            <AssistantBar assistant={assistant} conversationName={conversations.selected?.name} onEmbed={() => dialogs.setEmbedding(assistant)} onEdit={() => dialogs.editAssistant(assistant.id)} />
            <Box flex="1" minHeight="0">
              <ChatPanel conversationId={conversationId} assistant={assistant} linkDocuments createConversation={conversations.create} />
            </Box>
          </>
        ) : (
          <Center flex="1" color="fg.subtle" fontSize="sm" p="8">
            {assistants.items && assistants.items.length > 0 ? t("chat.assistants.pick") : null}
          </Center>
        )}
      </Flex>
    </Grid>
  );
}
