import { Badge, Box, Flex, HStack, Icon, Spinner, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCircleAlert, LuUser } from "react-icons/lu";
import { CopyButton } from "../../../components/CopyButton";
import { AnswerMarkdown } from "../../../components/conversation/AnswerMarkdown";
import { withoutCitations } from "../../../components/conversation/citations";
import { ReferenceList } from "../../../components/conversation/ReferenceList";
import { FlowAvatar } from "./FlowAvatar";
import type { FlowChatMessage } from "./useSharedFlowChat";

interface FlowChatMessageItemProps {
  message: FlowChatMessage;
  flow: { title: string; avatar?: string | null };
  /** The greeting: not an answer to copy or cite. */
  isGreeting?: boolean;
}

/** One message of a shared flow's conversation: the visitor's, or the flow's answer with its citations (the chat's components). */
export function FlowChatMessageItem({ message, flow, isGreeting = false }: FlowChatMessageItemProps) {
  const { t } = useTranslation();
  if (message.role === "user") {
    return (
      <Flex justify="flex-end" gap="3" data-testid="shared-flow-question">
        <Box maxWidth="80%" bg="brand.solid" color="brand.contrast" px="4" py="2.5" rounded="l3" roundedTopRight="l1" fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
          {message.content}
        </Box>
        <Flex boxSize="8" rounded="full" bg="bg.muted" color="fg.muted" align="center" justify="center" flexShrink={0}>
          <LuUser />
        </Flex>
      </Flex>
    );
  }
  const live = message.status === "streaming";
  return (
    <Flex gap="3" align="flex-start" data-testid={isGreeting ? "shared-flow-greeting" : "shared-flow-answer"} data-status={message.status}>
      <FlowAvatar name={flow.title} avatar={flow.avatar} size="sm" />
      <Stack gap="1.5" minWidth="0" flex="1" maxWidth="calc(100% - 3rem)">
        <Box bg="bg.panel" borderWidth="1px" px="4" py="3" rounded="l3" roundedTopLeft="l1" alignSelf="flex-start" maxWidth="full" minWidth="24">
          <Stack gap="2">
            {message.content ? (
              <Box data-testid="shared-flow-answer-content" css={live ? streamingCaret : undefined}>
                <AnswerMarkdown content={message.content} references={message.references} linkDocuments={false} />
              </Box>
            ) : live ? (
              <HStack gap="2.5" color="fg.muted" fontSize="sm" data-testid="shared-flow-thinking">
                <Spinner size="sm" color="brand.solid" />
                <Text>{t("flow.publish.shared.thinking")}</Text>
              </HStack>
            ) : message.status === "done" ? (
              <Text fontSize="sm" color="fg.muted">
                {t("flow.publish.shared.noAnswer")}
              </Text>
            ) : null}
            {message.status === "failed" && (
              <HStack gap="2" color="fg.error" fontSize="sm" role="alert" data-testid="shared-flow-answer-error">
                <Icon as={LuCircleAlert} />
                <Text>{message.error || t("chat.answer.failed")}</Text>
              </HStack>
            )}
            {message.status === "stopped" && (
              <Badge alignSelf="flex-start" size="sm" variant="subtle">
                {t("chat.answer.stopped")}
              </Badge>
            )}
            {!live && !isGreeting && <ReferenceList message={message} linkDocuments={false} />}
          </Stack>
        </Box>
        {!live && !isGreeting && message.content && (
          <HStack gap="0.5" color="fg.muted">
            <CopyButton value={withoutCitations(message.content)} iconOnly />
          </HStack>
        )}
      </Stack>
    </Flex>
  );
}

/** A caret after the last character while the answer streams. */
const streamingCaret = {
  "& .chat-markdown > *:last-child::after": {
    content: '"▍"',
    marginStart: "0.5",
    color: "brand.solid",
    animation: "caret-blink 1s steps(1) infinite",
  },
  "@keyframes caret-blink": { "50%": { opacity: 0 } },
};
