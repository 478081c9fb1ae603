import { Box, Flex, IconButton, Text, Textarea } from "@chakra-ui/react";
import type { KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuSendHorizontal, LuSquare } from "react-icons/lu";
import type { ChatConversation } from "./useChatConversation";

/** The question box: Enter sends (Shift+Enter breaks the line); while an answer is written, the button stops it. */
export function Composer({ conversation }: { conversation: ChatConversation }) {
  const { t } = useTranslation();
  const { question, liveAnswer } = conversation;

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void conversation.send();
    }
  }

  return (
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
          onChange={(event) => conversation.setQuestion(event.target.value)}
          onKeyDown={sendOnEnter}
          aria-label={t("chat.composer.placeholder")}
          data-testid="chat-input"
        />
        {liveAnswer ? (
          <IconButton colorPalette="red" variant="subtle" aria-label={t("chat.composer.stop")} title={t("chat.composer.stop")} loading={conversation.stopping} onClick={() => void conversation.stopAnswer()} data-testid="chat-stop">
            <LuSquare />
          </IconButton>
        ) : (
          <IconButton colorPalette="brand" aria-label={t("chat.composer.send")} title={t("chat.composer.send")} loading={conversation.sending} disabled={!question.trim()} onClick={() => void conversation.send()} data-testid="chat-send">
            <LuSendHorizontal />
          </IconButton>
        )}
      </Flex>
      <Text maxWidth="3xl" mx="auto" mt="1.5" fontSize="xs" color="fg.subtle" textAlign="center">
        {t("chat.composer.hint")}
      </Text>
    </Box>
  );
}
