import { Box, Flex, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LuWorkflow } from "react-icons/lu";
import { AnswerMarkdown } from "../../../components/conversation/AnswerMarkdown";
import { citedAnswerOf } from "../../../components/conversation/citedAnswer";
import { withoutCitations } from "../../../components/conversation/citations";
import { QuestionBubble } from "../../../components/conversation/QuestionBubble";
import { ReferenceList } from "../../../components/conversation/ReferenceList";
import { streamingCaret } from "../../../components/conversation/streamingCaret";
import { CopyButton } from "../../../components/CopyButton";
import type { FlowRunMessage } from "./runEvents";

function FlowAvatar() {
  return (
    <Flex boxSize="8" rounded="full" bg="brand.muted" color="brand.fg" align="center" justify="center" flexShrink={0}>
      <LuWorkflow />
    </Flex>
  );
}

/** What the flow said: Markdown with its citations (the chat's components), a caret while it streams. */
function FlowAnswer({ message }: { message: FlowRunMessage }) {
  const answer = useMemo(() => citedAnswerOf(message.content, message.reference), [message.content, message.reference]);
  return (
    <Flex gap="2.5" align="flex-start" data-testid="run-message" data-role="assistant" data-streaming={message.streaming ? "true" : "false"}>
      <FlowAvatar />
      <Stack gap="1" minWidth="0" flex="1">
        <Box bg="bg.panel" borderWidth="1px" px="3.5" py="2.5" rounded="l3" roundedTopLeft="l1" alignSelf="flex-start" maxWidth="full">
          {message.content ? (
            <Stack gap="2">
              <Box position="relative" css={message.streaming ? streamingCaret : undefined} data-testid="answer-content">
                <AnswerMarkdown content={answer.content} references={answer.references} linkDocuments />
              </Box>
              {!message.streaming && <ReferenceList message={answer} linkDocuments />}
            </Stack>
          ) : (
            <Spinner size="sm" color="brand.solid" />
          )}
        </Box>
        {!message.streaming && message.content && (
          <HStack color="fg.muted">
            <CopyButton value={withoutCitations(message.content)} iconOnly />
          </HStack>
        )}
      </Stack>
    </Flex>
  );
}

interface RunConversationProps {
  /** Begin's prologue, shown until the flow speaks first (it is then the flow's own first message). */
  greeting: string;
  messages: FlowRunMessage[];
  /** The run is queued or running and has said nothing yet this turn. */
  working: boolean;
}

/** The conversation with the flow: its greeting, the user's messages and the flow's answers. */
export function RunConversation({ greeting, messages, working }: RunConversationProps) {
  const { t } = useTranslation();
  const greeted = messages[0]?.role === "assistant";
  return (
    <Stack gap="4" data-testid="run-messages">
      {greeting && !greeted && (
        <Flex gap="2.5" align="flex-start" data-testid="run-greeting">
          <FlowAvatar />
          <Box bg="bg.panel" borderWidth="1px" px="3.5" py="2.5" rounded="l3" roundedTopLeft="l1" fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
            {greeting}
          </Box>
        </Flex>
      )}
      {messages.map((message) =>
        message.role === "user" ? <QuestionBubble key={message.id} content={message.content} data-testid="run-message" data-role="user" /> : <FlowAnswer key={message.id} message={message} />,
      )}
      {working && (
        <HStack gap="2" color="fg.muted" fontSize="sm" data-testid="run-working">
          <Spinner size="sm" color="brand.solid" />
          <Text>{t("flow.run.working")}</Text>
        </HStack>
      )}
    </Stack>
  );
}
