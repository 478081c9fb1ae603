import { Flex, IconButton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCode, LuSettings2 } from "react-icons/lu";
import type { AssistantCardFragment } from "../../../graphql/gql/graphql";
import { AssistantAvatar } from "../assistant/AssistantAvatar";

interface AssistantBarProps {
  assistant: AssistantCardFragment;
  conversationName: string | undefined;
  onEmbed: () => void;
  onEdit: () => void;
}

/** Above the chat: who answers, in which conversation, and buttons to embed or edit the assistant. */
export function AssistantBar({ assistant, conversationName, onEmbed, onEdit }: AssistantBarProps) {
  const { t } = useTranslation();
  return (
    <Flex align="center" gap="3" px="5" py="2.5" borderBottomWidth="1px" borderColor="border.muted" bg="bg.panel">
      <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size="sm" />
      <Stack gap="0" flex="1" minWidth="0">
        <Text fontWeight="semibold" fontSize="sm" truncate data-testid="chat-assistant-name">
          {assistant.name}
        </Text>
        <Text fontSize="xs" color="fg.muted" truncate data-testid="chat-conversation-name">
          {conversationName ?? t("chat.conversations.defaultName")}
        </Text>
      </Stack>
      <IconButton size="sm" variant="ghost" aria-label={t("chat.embed.title")} title={t("chat.embed.title")} onClick={onEmbed} data-testid="chat-embed">
        <LuCode />
      </IconButton>
      <IconButton size="sm" variant="ghost" aria-label={t("chat.assistants.edit")} title={t("chat.assistants.edit")} onClick={onEdit} data-testid="chat-settings">
        <LuSettings2 />
      </IconButton>
    </Flex>
  );
}
