import { Box, Flex, IconButton, Text, Textarea } from "@chakra-ui/react";
import type { KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuSendHorizontal, LuSquare } from "react-icons/lu";

interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  /** An answer is being written: the button stops it. */
  answering: boolean;
  sending: boolean;
  stopping?: boolean;
  placeholder: string;
  hint: string;
  /** data-testids of the box, its buttons and its hint (none: the hint has none). */
  testIds: { input: string; send: string; stop: string; hint?: string };
}

/**
 * The message box of a conversation (a chat, a shared flow): Enter sends (Shift+Enter breaks the line); while an answer
 * is written, the button stops it.
 */
export function Composer({ value, onChange, onSend, onStop, answering, sending, stopping, placeholder, hint, testIds }: ComposerProps) {
  const { t } = useTranslation();

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSend();
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
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={sendOnEnter}
          aria-label={t("chat.composer.placeholder")}
          data-testid={testIds.input}
        />
        {answering ? (
          <IconButton colorPalette="red" variant="subtle" aria-label={t("chat.composer.stop")} title={t("chat.composer.stop")} loading={stopping} onClick={onStop} data-testid={testIds.stop}>
            <LuSquare />
          </IconButton>
        ) : (
          <IconButton colorPalette="brand" aria-label={t("chat.composer.send")} title={t("chat.composer.send")} loading={sending} disabled={!value.trim()} onClick={onSend} data-testid={testIds.send}>
            <LuSendHorizontal />
          </IconButton>
        )}
      </Flex>
      <Text maxWidth="3xl" mx="auto" mt="1.5" fontSize="xs" color="fg.subtle" textAlign="center" data-testid={testIds.hint}>
        {hint}
      </Text>
    </Box>
  );
}
