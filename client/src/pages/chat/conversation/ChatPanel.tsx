import { Box, Button, Center, Flex, IconButton, Spinner, Stack, Text, Textarea } from "@chakra-ui/react";
import type { Reference } from "@apollo/client";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuRefreshCw, LuSendHorizontal, LuSquare } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import {
  AskDocument,
  ChatMessageFieldsFragmentDoc,
  ConversationDocument,
  RegenerateAnswerDocument,
  StopAnswerDocument,
  type ChatMessageFieldsFragment,
} from "../../../graphql/gql/graphql";
import { AssistantAvatar } from "../assistant/AssistantAvatar";
import { MessageItem, type AssistantLook } from "./MessageItem";
import { isLive } from "./useAnswerStream";

interface ChatPanelProps {
  /** null: no conversation yet; the first question creates one with `createConversation`. */
  conversationId: string | null;
  assistant: AssistantLook & { opener: string };
  linkDocuments: boolean;
  createConversation: () => Promise<string>;
}

/** A pixel distance from the bottom within which new text keeps the view scrolled down. */
const STICK_TO_BOTTOM_PX = 120;

/** The messages of one conversation and the question box: ask, watch the answer stream, stop, regenerate. */
export function ChatPanel({ conversationId, assistant, linkDocuments, createConversation }: ChatPanelProps) {
  const { t, i18n } = useTranslation();
  const [question, setQuestion] = useState("");
  const [sending, setSending] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const { data, loading, error, refetch } = useQuery(ConversationDocument, { variables: { id: conversationId ?? "" }, skip: !conversationId });
  const [ask] = useMutation(AskDocument);
  const [stop, { loading: stopping }] = useMutation(StopAnswerDocument);
  const [regenerate] = useMutation(RegenerateAnswerDocument);

  const messages: ChatMessageFieldsFragment[] = conversationId ? (data?.conversation.messages ?? []) : [];
  const liveAnswer = messages.find(isLive);
  const lastAnswer = [...messages].reverse().find((message) => message.role === "assistant");
  const firstQuestion = messages.findIndex((message) => message.role === "user");
  const busy = sending || !!liveAnswer;
  const tail = messages.at(-1);

  useEffect(() => {
    const box = scroller.current;
    if (box && stickToBottom.current) box.scrollTop = box.scrollHeight;
  }, [messages.length, tail?.content, tail?.status]);

  function followScroll() {
    const box = scroller.current;
    if (box) stickToBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < STICK_TO_BOTTOM_PX;
  }

  async function send() {
    const text = question.trim();
    if (!text || busy) return;
    setSending(true);
    setQuestion("");
    stickToBottom.current = true;
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
      notify.error(describeError(failure, i18n));
    } finally {
      setSending(false);
    }
  }

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  async function stopAnswer() {
    if (!liveAnswer) return;
    try {
      await stop({ variables: { messageId: liveAnswer.id } });
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function regenerateAnswer(messageId: string) {
    stickToBottom.current = true;
    try {
      await regenerate({ variables: { messageId } });
      // The old answer is replaced, possibly by a message with a new id: read the conversation again.
      await refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return (
    <Flex direction="column" height="full" minHeight="0" data-testid="chat-panel">
      <Box ref={scroller} flex="1" minHeight="0" overflowY="auto" px={{ base: "3", md: "6" }} py="5" onScroll={followScroll}>
        {conversationId && loading && !data ? (
          <Center py="16">
            <Spinner color="brand.solid" />
          </Center>
        ) : conversationId && error && !data ? (
          <Center py="16" flexDirection="column" gap="3" role="alert">
            <Text color="fg.muted">{describeError(error, i18n)}</Text>
            <Button size="sm" variant="outline" onClick={() => void refetch()}>
              <LuRefreshCw /> {t("common.retry")}
            </Button>
          </Center>
        ) : (
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
                onRegenerate={(id) => void regenerateAnswer(id)}
              />
            ))}
            {messages.length === 0 && (!assistant.opener || conversationId) && (
              <Text textAlign="center" color="fg.subtle" fontSize="sm" py="10">
                {t("chat.conversations.emptyConversation")}
              </Text>
            )}
          </Stack>
        )}
      </Box>
      <Box px={{ base: "3", md: "6" }} pb="4" pt="2">
        <Flex
          maxWidth="3xl"
          mx="auto"
          gap="2"
          align="flex-end"
          bg="bg.panel"
          borderWidth="1px"
          rounded="l3"
          p="2"
          shadow="xs"
          _focusWithin={{ borderColor: "brand.solid", shadow: "0 0 0 1px var(--chakra-colors-brand-solid)" }}
        >
          <Textarea
            flex="1"
            variant="flushed"
            border="0"
            px="2"
            rows={1}
            autoresize
            maxHeight="40"
            resize="none"
            _focusVisible={{ outline: "none", boxShadow: "none" }}
            placeholder={t("chat.composer.placeholder")}
            value={question}
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={sendOnEnter}
            aria-label={t("chat.composer.placeholder")}
            data-testid="chat-input"
          />
          {liveAnswer ? (
            <IconButton colorPalette="red" variant="subtle" aria-label={t("chat.composer.stop")} title={t("chat.composer.stop")} loading={stopping} onClick={() => void stopAnswer()} data-testid="chat-stop">
              <LuSquare />
            </IconButton>
          ) : (
            <IconButton colorPalette="brand" aria-label={t("chat.composer.send")} title={t("chat.composer.send")} loading={sending} disabled={!question.trim()} onClick={() => void send()} data-testid="chat-send">
              <LuSendHorizontal />
            </IconButton>
          )}
        </Flex>
        <Text maxWidth="3xl" mx="auto" mt="1.5" fontSize="xs" color="fg.subtle" textAlign="center">
          {t("chat.composer.hint")}
        </Text>
      </Box>
    </Flex>
  );
}
