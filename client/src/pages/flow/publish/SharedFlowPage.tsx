import { Box, Button, Center, Flex, HStack, IconButton, Spinner, Stack, Text, Textarea } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuMessageSquareOff, LuPlus, LuSendHorizontal, LuSquare } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { LanguageMenu } from "../../../components/LanguageMenu";
import { ThemeMenu } from "../../../components/ThemeMenu";
import { describeError } from "../../../errors";
import { SharedFlowDocument } from "../../../graphql/gql/graphql";
import { isLanguage, toInterfaceLanguage } from "../../../languages";
import { BeginInputsForm } from "./BeginInputsForm";
import { FlowAvatar } from "./FlowAvatar";
import { FlowChatMessageItem } from "./FlowChatMessageItem";
import { useSharedFlowChat, type SharedFlowChat } from "./useSharedFlowChat";

/**
 * A shared flow's page (spec §2, API publishing): a visitor, signed out, talks to the one flow its shared id names, at
 * RAGFlow's address `/chat/share?shared_id=…&from=agent` (the one page other sites may frame). The shared id is the
 * bearer credential (apollo.ts) and the visitor id kept in this browser scopes the sessions to this visitor. Begin's
 * greeting opens the conversation and its inputs are asked first; `embed=widget` is the floating widget's compact look.
 */
export default function SharedFlowPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const widget = params.get("embed") === "widget";
  const locale = params.get("locale");
  const shared = useQuery(SharedFlowDocument);
  const flow = shared.data?.sharedFlow;
  const chat = useSharedFlowChat(flow?.id ?? null);

  useEffect(() => {
    const language = locale ? toInterfaceLanguage(locale) : null;
    if (language && isLanguage(language) && language !== i18n.language) void i18n.changeLanguage(language);
  }, [locale, i18n]);

  useEffect(() => {
    if (flow?.title) document.title = flow.title;
  }, [flow?.title]);

  return (
    <Flex direction="column" height="100dvh" bg="bg.canvas" data-testid="shared-flow" data-embed={widget ? "widget" : undefined}>
      <Flex as="header" align="center" gap="3" px={widget ? "3" : { base: "4", md: "6" }} py={widget ? "2" : "3"} bg="bg.panel" borderBottomWidth="1px">
        {flow && <FlowAvatar name={flow.title} avatar={flow.avatar} size={widget ? "sm" : "md"} />}
        <Text flex="1" minWidth="0" fontWeight="semibold" fontSize={widget ? "sm" : "md"} truncate data-testid="shared-flow-title">
          {flow?.title ?? ""}
        </Text>
        <HStack gap="1">
          {flow && (
            <Button size="sm" variant="outline" onClick={chat.newConversation} disabled={chat.sessionId === null || chat.busy} data-testid="shared-flow-new">
              <LuPlus /> <Text as="span" display={widget ? "none" : { base: "none", sm: "inline" }}>{t("chat.conversations.new")}</Text>
            </Button>
          )}
          {!widget && (
            <>
              <LanguageMenu />
              <ThemeMenu />
            </>
          )}
        </HStack>
      </Flex>
      <Box flex="1" minHeight="0">
        {shared.loading && !shared.data ? (
          <Center height="full">
            <Spinner color="brand.solid" />
          </Center>
        ) : !flow ? (
          <Center height="full" flexDirection="column" gap="3" px="6" textAlign="center" role="alert" data-testid="shared-flow-unavailable">
            <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
              <LuMessageSquareOff size="28" />
            </Box>
            <Stack gap="1">
              <Text fontWeight="semibold">{t("flow.publish.shared.unavailable")}</Text>
              {shared.error && (
                <Text fontSize="sm" color="fg.muted">
                  {describeError(shared.error, i18n)}
                </Text>
              )}
            </Stack>
          </Center>
        ) : chat.loading ? (
          <Center height="full">
            <Spinner color="brand.solid" />
          </Center>
        ) : (
          <Conversation flow={flow} chat={chat} />
        )}
      </Box>
    </Flex>
  );
}

interface ConversationProps {
  flow: { title: string; avatar?: string | null; prologue: string; inputs: Parameters<typeof BeginInputsForm>[0]["inputs"] };
  chat: SharedFlowChat;
}

/** The messages and the message box; before the first turn of a flow with inputs, the inputs instead of the box. */
function Conversation({ flow, chat }: ConversationProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const asksInputs = flow.inputs.length > 0 && chat.sessionId === null && chat.messages.length === 0;
  // With inputs, the first turn runs Begin, whose greeting comes as the first answer; without, it is shown at once.
  const greeting = flow.inputs.length === 0 && flow.prologue ? flow.prologue : null;
  const tail = chat.messages.at(-1);

  useEffect(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [chat.messages.length, tail?.content, tail?.status]);

  return (
    <Flex direction="column" height="full" minHeight="0">
      <Box ref={scroller} flex="1" minHeight="0" overflowY="auto" px={{ base: "3", md: "6" }} py="5">
        <Stack gap="5" maxWidth="3xl" mx="auto" data-testid="shared-flow-messages">
          {greeting && <FlowChatMessageItem flow={flow} isGreeting message={{ id: "greeting", role: "assistant", content: greeting, references: [], documents: [], status: "done", error: null }} />}
          {asksInputs && <BeginInputsForm inputs={flow.inputs} busy={chat.busy} onStart={(values) => void chat.send("", values)} />}
          {chat.messages.map((message) => (
            <FlowChatMessageItem key={message.id} message={message} flow={flow} />
          ))}
          {chat.failure && (
            <Text color="fg.error" fontSize="sm" role="alert" textAlign="center" data-testid="shared-flow-failure">
              {chat.failure}
            </Text>
          )}
        </Stack>
      </Box>
      {!asksInputs && <Composer chat={chat} />}
    </Flex>
  );
}

/** The message box: Enter sends (Shift+Enter breaks the line); while the flow answers, the button stops it. */
function Composer({ chat }: { chat: SharedFlowChat }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState("");
  const [sending, setSending] = useState(false);

  async function send() {
    const text = message.trim();
    if (!text || chat.busy) return;
    setSending(true);
    setMessage("");
    await chat.send(text);
    setSending(false);
  }

  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
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
          placeholder={chat.waiting ? t("flow.publish.shared.replyPlaceholder") : t("chat.composer.placeholder")}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={sendOnEnter}
          aria-label={t("chat.composer.placeholder")}
          data-testid="shared-flow-input"
        />
        {chat.busy ? (
          <IconButton colorPalette="red" variant="subtle" aria-label={t("chat.composer.stop")} title={t("chat.composer.stop")} onClick={() => void chat.stop()} data-testid="shared-flow-stop">
            <LuSquare />
          </IconButton>
        ) : (
          <IconButton colorPalette="brand" aria-label={t("chat.composer.send")} title={t("chat.composer.send")} loading={sending} disabled={!message.trim()} onClick={() => void send()} data-testid="shared-flow-send">
            <LuSendHorizontal />
          </IconButton>
        )}
      </Flex>
      <Text maxWidth="3xl" mx="auto" mt="1.5" fontSize="xs" color="fg.subtle" textAlign="center" data-testid="shared-flow-hint">
        {chat.waiting ? t("flow.publish.shared.waiting") : t("chat.composer.hint")}
      </Text>
    </Box>
  );
}
