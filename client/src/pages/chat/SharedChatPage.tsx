import { Box, Button, Center, Flex, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuMessageSquareOff, LuPlus } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { LanguageMenu } from "../../components/LanguageMenu";
import { ThemeMenu } from "../../components/ThemeMenu";
import { describeError } from "../../errors";
import { ConversationsDocument, CreateConversationDocument, SharedAssistantDocument } from "../../graphql/gql/graphql";
import { isLanguage, toInterfaceLanguage } from "../../languages";
import { visitorId } from "../../session/visitorId";
import { AssistantAvatar } from "./assistant/AssistantAvatar";
import { ChatPanel } from "./conversation/ChatPanel";

/**
 * The shared chat (§1, §6): a visitor, signed out, talks to the one assistant its shared id names. The shared id is the
 * bearer credential (apollo.ts); the visitor id kept in this browser scopes the conversations to this visitor. There is
 * no way from here into the rest of the application.
 */
export default function SharedChatPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const widget = params.get("embed") === "widget";
  const locale = params.get("locale");
  // undefined: not decided yet (the visitor's newest conversation is taken); null: a new one starts with the next question.
  const [conversationId, setConversationId] = useState<string | null | undefined>(undefined);
  const shared = useQuery(SharedAssistantDocument);
  const assistant = shared.data?.sharedAssistant;
  const conversations = useQuery(ConversationsDocument, { variables: { assistantId: assistant?.id ?? "" }, skip: !assistant });
  const [createConversation] = useMutation(CreateConversationDocument);

  useEffect(() => {
    const language = locale ? toInterfaceLanguage(locale) : null;
    if (language && isLanguage(language) && language !== i18n.language) void i18n.changeLanguage(language);
  }, [locale, i18n]);

  useEffect(() => {
    if (assistant?.name) document.title = assistant.name;
  }, [assistant?.name]);

  useEffect(() => {
    if (conversationId === undefined && conversations.data) setConversationId(conversations.data.conversations[0]?.id ?? null);
  }, [conversationId, conversations.data]);

  async function startConversation(): Promise<string> {
    if (!assistant) throw new Error("no assistant");
    const { data } = await createConversation({ variables: { assistantId: assistant.id, name: t("chat.conversations.defaultName"), visitorId: visitorId() } });
    if (!data) throw new Error("no conversation");
    setConversationId(data.createConversation.id);
    return data.createConversation.id;
  }

  return (
    <Flex direction="column" height="100dvh" bg="bg.canvas" data-testid="shared-chat" data-embed={widget ? "widget" : undefined}>
      <Flex as="header" align="center" gap="3" px={widget ? "3" : { base: "4", md: "6" }} py={widget ? "2" : "3"} bg="bg.panel" borderBottomWidth="1px">
        {assistant && <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size={widget ? "sm" : "md"} />}
        <Text flex="1" minWidth="0" fontWeight="semibold" fontSize={widget ? "sm" : "md"} truncate data-testid="shared-assistant-name">
          {assistant?.name ?? ""}
        </Text>
        <HStack gap="1">
          {assistant && (
            <Button size="sm" variant="outline" onClick={() => setConversationId(null)} disabled={conversationId === null} data-testid="shared-new-conversation">
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
        ) : !assistant ? (
          <Center height="full" flexDirection="column" gap="3" px="6" textAlign="center" role="alert" data-testid="shared-unavailable">
            <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
              <LuMessageSquareOff size="28" />
            </Box>
            <Stack gap="1">
              <Text fontWeight="semibold">{t("chat.share.unavailable")}</Text>
              {shared.error && (
                <Text fontSize="sm" color="fg.muted">
                  {describeError(shared.error, i18n)}
                </Text>
              )}
            </Stack>
          </Center>
        ) : conversationId === undefined ? (
          <Center height="full">
            <Spinner color="brand.solid" />
          </Center>
        ) : (
          <ChatPanel
            conversationId={conversationId}
            assistant={{ name: assistant.name, avatar: assistant.avatar, opener: assistant.opener, tts: assistant.tts }}
            linkDocuments={false}
            createConversation={startConversation}
          />
        )}
      </Box>
    </Flex>
  );
}
