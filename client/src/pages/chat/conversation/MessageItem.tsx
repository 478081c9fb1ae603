import { Badge, Box, Flex, HStack, Icon, IconButton, Spinner, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCircleAlert, LuRefreshCw, LuUser } from "react-icons/lu";
import { CopyButton } from "../../../components/CopyButton";
import type { ChatMessageFieldsFragment } from "../../../graphql/gql/graphql";
import { AssistantAvatar } from "../assistant/AssistantAvatar";
import { AnswerMarkdown } from "../../../components/conversation/AnswerMarkdown";
import { withoutCitations } from "../../../components/conversation/citations";
import { FeedbackButtons } from "./FeedbackButtons";
import { ReferenceList } from "../../../components/conversation/ReferenceList";
import { TtsButton } from "./TtsButton";
import { isLive, useAnswerStream } from "./useAnswerStream";

export interface AssistantLook {
  name: string;
  avatar?: string | null;
  tts: boolean;
}

interface MessageItemProps {
  message: ChatMessageFieldsFragment;
  assistant: AssistantLook;
  /** The opener greets; it is not an answer to rate, regenerate or read aloud. */
  isOpener: boolean;
  canRegenerate: boolean;
  linkDocuments: boolean;
  onRegenerate: (messageId: string) => void;
}

function UserMessage({ message }: { message: ChatMessageFieldsFragment }) {
  return (
    <Flex justify="flex-end" gap="3" data-testid="chat-question">
      <Box maxWidth="80%" bg="brand.solid" color="brand.contrast" px="4" py="2.5" rounded="l3" roundedTopRight="l1" fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
        {message.content}
      </Box>
      <Flex boxSize="8" rounded="full" bg="bg.muted" color="fg.muted" align="center" justify="center" flexShrink={0}>
        <LuUser />
      </Flex>
    </Flex>
  );
}

/** One message of a conversation; a live answer follows its stream from here. */
export function MessageItem({ message, assistant, isOpener, canRegenerate, linkDocuments, onRegenerate }: MessageItemProps) {
  const { t } = useTranslation();
  useAnswerStream(message);
  if (message.role === "user") return <UserMessage message={message} />;

  const live = isLive(message);
  const searching = message.status === "searching";
  const finished = !live;
  return (
    <Flex gap="3" align="flex-start" data-testid={isOpener ? "chat-opener" : "chat-answer"} data-status={message.status} data-message-id={message.id}>
      <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size="sm" />
      <Stack gap="1.5" minWidth="0" flex="1" maxWidth="calc(100% - 3rem)">
        <Box bg="bg.panel" borderWidth="1px" px="4" py="3" rounded="l3" roundedTopLeft="l1" alignSelf="flex-start" maxWidth="full" minWidth={searching ? undefined : "24"}>
          {searching ? (
            <HStack gap="2.5" color="fg.muted" fontSize="sm" data-testid="chat-searching">
              <Spinner size="sm" color="brand.solid" />
              <Text>{t("chat.answer.searching")}</Text>
            </HStack>
          ) : (
            <Stack gap="2">
              {message.content ? (
                <Box position="relative" css={live ? streamingCaret : undefined} data-testid="answer-content">
                  <AnswerMarkdown content={message.content} references={message.references} linkDocuments={linkDocuments} />
                </Box>
              ) : live ? (
                <Spinner size="sm" color="brand.solid" />
              ) : null}
              {message.status === "failed" && (
                <HStack gap="2" color="fg.error" fontSize="sm" role="alert" data-testid="answer-error">
                  <Icon as={LuCircleAlert} />
                  <Text>{message.error || t("chat.answer.failed")}</Text>
                </HStack>
              )}
              {message.status === "stopped" && (
                <Badge alignSelf="flex-start" size="sm" variant="subtle" data-testid="answer-stopped">
                  {t("chat.answer.stopped")}
                </Badge>
              )}
              {finished && !isOpener && <ReferenceList message={message} linkDocuments={linkDocuments} />}
            </Stack>
          )}
        </Box>
        {finished && !isOpener && (
          <HStack gap="0.5" color="fg.muted" data-testid="answer-actions">
            <CopyButton value={withoutCitations(message.content)} iconOnly />
            {canRegenerate && (
              <IconButton size="xs" variant="ghost" aria-label={t("chat.answer.regenerate")} title={t("chat.answer.regenerate")} onClick={() => onRegenerate(message.id)} data-testid="answer-regenerate">
                <LuRefreshCw />
              </IconButton>
            )}
            {message.status !== "failed" && <FeedbackButtons messageId={message.id} thumb={message.thumb} comment={message.feedbackComment} />}
            {assistant.tts && message.content && <TtsButton messageId={message.id} />}
          </HStack>
        )}
      </Stack>
    </Flex>
  );
}

/** A caret after the last character while tokens arrive. */
const streamingCaret = {
  "& .chat-markdown > *:last-child::after": {
    content: '"▍"',
    marginStart: "0.5",
    color: "brand.solid",
    animation: "caret-blink 1s steps(1) infinite",
  },
  "@keyframes caret-blink": { "50%": { opacity: 0 } },
};
