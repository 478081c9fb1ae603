import { Box, Center, Flex, Spinner, Stack, Text } from "@chakra-ui/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { LoadFailed } from "../../../components/LoadFailed";
import { useStickToBottom } from "../../../hooks/useStickToBottom";
import { AssistantAvatar } from "../assistant/AssistantAvatar";
import { Composer } from "../../../components/conversation/Composer";
import { MessageItem, type AssistantLook } from "./MessageItem";
import { useChatConversation, type ChatConversation } from "./useChatConversation";

interface ChatPanelProps {
  /** null: no conversation yet; the first question creates one with `createConversation`. */
  conversationId: string | null;
  assistant: AssistantLook & { opener: string };
  linkDocuments: boolean;
  createConversation: () => Promise<string>;
}

/** The messages of one conversation and the question box: ask, watch the answer stream, stop, regenerate. */
export function ChatPanel({ conversationId, assistant, linkDocuments, createConversation }: ChatPanelProps) {
  const { t } = useTranslation();
  const scroll = useStickToBottom();
  const conversation = useChatConversation({ conversationId, createConversation, onFollow: scroll.stick });
  const tail = conversation.messages.at(-1);
  useEffect(scroll.scrollDownIfStuck, [conversation.messages.length, tail?.content, tail?.status]);

  return (
    <Flex direction="column" height="full" minHeight="0" data-testid="chat-panel">
      <Box ref={scroll.box} flex="1" minHeight="0" overflowY="auto" px={{ base: "3", md: "6" }} py="5" onScroll={scroll.onScroll}>
        {conversation.loadingFirst ? (
          <Center py="16">
            <Spinner color="brand.solid" />
          </Center>
        ) : conversation.failure ? (
          <LoadFailed error={conversation.failure} onRetry={() => void conversation.refetch()} />
        ) : (
          <MessageList conversationId={conversationId} assistant={assistant} linkDocuments={linkDocuments} conversation={conversation} />
        )}
      </Box>
      <Composer
        value={conversation.question}
        onChange={conversation.setQuestion}
        onSend={() => void conversation.send()}
        onStop={() => void conversation.stopAnswer()}
        answering={Boolean(conversation.liveAnswer)}
        sending={conversation.sending}
        stopping={conversation.stopping}
        placeholder={t("chat.composer.placeholder")}
        hint={t("chat.composer.hint")}
        testIds={{ input: "chat-input", send: "chat-send", stop: "chat-stop" }}
      />
    </Flex>
  );
}

interface MessageListProps {
  conversationId: string | null;
  assistant: AssistantLook & { opener: string };
  linkDocuments: boolean;
  conversation: ChatConversation;
}

/** The opener (before the first question of a new conversation), the messages, or a line saying there are none yet. */
function MessageList({ conversationId, assistant, linkDocuments, conversation }: MessageListProps) {
  const { t } = useTranslation();
  const { messages, firstQuestion, lastAnswer, busy } = conversation;
  return (
    <Stack gap="5" maxWidth="3xl" mx="auto" data-testid="chat-messages">
      {!conversationId && assistant.opener && (
        <Flex gap="3" align="flex-start" data-testid="chat-opener">
          <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size="sm" />
          <Box bg="bg.panel" borderWidth="1px" px="4" py="3" rounded="l3" roundedTopLeft="l1" fontSize="sm" whiteSpace="pre-wrap">
            {assistant.opener}
          </Box>
        </Flex>
      )}
      {messages.map((message, index) => (
        <MessageItem
          key={message.id}
          message={message}
          assistant={assistant}
          isOpener={message.role === "assistant" && (firstQuestion === -1 || index < firstQuestion)}
          canRegenerate={message.id === lastAnswer?.id && index > firstQuestion && !busy}
          linkDocuments={linkDocuments}
          onRegenerate={(id) => void conversation.regenerateAnswer(id)}
        />
      ))}
      {messages.length === 0 && (!assistant.opener || conversationId) && (
        <Text textAlign="center" color="fg.subtle" fontSize="sm" py="10">
          {t("chat.conversations.emptyConversation")}
        </Text>
      )}
    </Stack>
  );
}
