import { Box, Button, Center, Flex, Grid, HStack, IconButton, Stack, Text } from "@chakra-ui/react";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { lazy, Suspense, useDeferredValue, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuBot, LuChartLine, LuCode, LuKeyRound, LuPlus, LuRefreshCw, LuSettings2 } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { PageHeader } from "../../components/PageHeader";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import {
  AssistantsDocument,
  ConversationsDocument,
  CreateConversationDocument,
  DeleteAssistantsDocument,
  DeleteConversationsDocument,
  RenameConversationDocument,
  type AssistantCardFragment,
  type ConversationRowFragment,
} from "../../graphql/gql/graphql";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";
import { AssistantAvatar } from "./assistant/AssistantAvatar";
import { AssistantList, type AssistantAction } from "./assistant/AssistantList";
import { AssistantSettingsDialog } from "./assistant/AssistantSettingsDialog";
import { ChatPanel } from "./conversation/ChatPanel";
import { ConversationList } from "./conversation/ConversationList";
import { ApiKeyDialog } from "./share/ApiKeyDialog";
import { EmbedDialog } from "./share/EmbedDialog";

// Charts are the heaviest part of the page and only the overview needs them.
const StatisticsDialog = lazy(() => import("./statistics/StatisticsDialog"));

const PAGE_SIZE = 100;

type Settings = { open: false } | { open: true; assistantId: string | null };
type Overview = { open: false } | { open: true; assistant: { id: string; name: string } | null };

function EmptyAssistants({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="assistant-empty">
      <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
        <LuBot size="28" />
      </Box>
      <Text fontWeight="semibold">{t("chat.assistants.emptyTitle")}</Text>
      <Text fontSize="sm" color="fg.muted" maxWidth="md">
        {t("chat.assistants.emptyBody")}
      </Text>
      <Button colorPalette="brand" size="sm" onClick={onCreate}>
        <LuPlus /> {t("chat.assistants.create")}
      </Button>
    </Center>
  );
}

export default function ChatPage() {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [settings, setSettings] = useState<Settings>({ open: false });
  const [overview, setOverview] = useState<Overview>({ open: false });
  const [embedding, setEmbedding] = useState<AssistantCardFragment | null>(null);
  const [apiKeysOpen, setApiKeysOpen] = useState(false);
  const [deletingAssistant, setDeletingAssistant] = useState<AssistantCardFragment | null>(null);
  const [renaming, setRenaming] = useState<ConversationRowFragment | null>(null);
  const [deletingConversation, setDeletingConversation] = useState<ConversationRowFragment | null>(null);

  const assistants = useQuery(AssistantsDocument, { variables: { search: deferredSearch || null, page: 1, pageSize: PAGE_SIZE } });
  const items = assistants.data?.assistants.items;
  const assistantId = params.get("assistant");
  const assistant = items?.find((candidate) => candidate.id === assistantId) ?? null;
  const conversations = useQuery(ConversationsDocument, { variables: { assistantId: assistantId ?? "" }, skip: !assistantId });
  const conversationList = assistantId ? conversations.data?.conversations : undefined;
  const conversationId = params.get("conversation");

  const [createConversation, { loading: creatingConversation }] = useMutation(CreateConversationDocument);
  const [renameConversation] = useMutation(RenameConversationDocument);
  const [deleteConversations] = useMutation(DeleteConversationsDocument);
  const [deleteAssistants] = useMutation(DeleteAssistantsDocument);

  function select(next: { assistant?: string | null; conversation?: string | null }, replace = false) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if (value) updated.set(key, value);
          else updated.delete(key);
        }
        return updated;
      },
      { replace },
    );
  }

  // Land on the first assistant, and on its newest conversation, when the address names none.
  useEffect(() => {
    if (!assistantId && items && items.length > 0 && !deferredSearch) select({ assistant: items[0].id, conversation: null }, true);
  }, [assistantId, items, deferredSearch]);
  useEffect(() => {
    if (assistantId && !conversationId && conversationList && conversationList.length > 0) select({ conversation: conversationList[0].id }, true);
  }, [assistantId, conversationId, conversationList]);

  async function newConversation(): Promise<string> {
    if (!assistantId) throw new Error("no assistant");
    const { data } = await createConversation({ variables: { assistantId, name: t("chat.conversations.defaultName") } });
    if (!data) throw new Error("no conversation");
    await conversations.refetch();
    select({ conversation: data.createConversation.id });
    return data.createConversation.id;
  }

  async function startConversation() {
    try {
      await newConversation();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function removeConversation(conversation: ConversationRowFragment) {
    try {
      await deleteConversations({ variables: { ids: [conversation.id] } });
      client.cache.evict({ id: client.cache.identify({ __typename: "Conversation", id: conversation.id }) });
      client.cache.gc();
      notify.success("deleted");
      if (conversation.id === conversationId) select({ conversation: null }, true);
      await conversations.refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function removeAssistant(target: AssistantCardFragment) {
    try {
      await deleteAssistants({ variables: { ids: [target.id] } });
      client.cache.evict({ id: client.cache.identify({ __typename: "Assistant", id: target.id }) });
      client.cache.gc();
      notify.success("deleted");
      if (target.id === assistantId) select({ assistant: null, conversation: null }, true);
      await assistants.refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  function act(action: AssistantAction, target: AssistantCardFragment) {
    if (action === "edit") setSettings({ open: true, assistantId: target.id });
    else if (action === "statistics") setOverview({ open: true, assistant: { id: target.id, name: target.name } });
    else if (action === "embed") setEmbedding(target);
    else setDeletingAssistant(target);
  }

  const noAssistantsAtAll = items !== undefined && items.length === 0 && !deferredSearch;
  const selectedConversation = conversationList?.find((conversation) => conversation.id === conversationId);

  return (
    <>
      <PageHeader
        title={t("pages.chat.title")}
        description={t("pages.chat.summary")}
        actions={
          <HStack gap="2" wrap="wrap">
            <Button variant="outline" onClick={() => setApiKeysOpen(true)} data-testid="chat-api-keys">
              <LuKeyRound /> {t("api.keys")}
            </Button>
            <Button variant="outline" onClick={() => setOverview({ open: true, assistant: null })} data-testid="chat-overview">
              <LuChartLine /> {t("chat.statistics.title")}
            </Button>
            <Button colorPalette="brand" onClick={() => setSettings({ open: true, assistantId: null })} data-testid="assistant-create">
              <LuPlus /> {t("chat.assistants.create")}
            </Button>
          </HStack>
        }
      />

      {assistants.error && !assistants.data ? (
        <Center py="16" flexDirection="column" gap="3" role="alert">
          <Text color="fg.muted">{describeError(assistants.error, i18n)}</Text>
          <Button size="sm" variant="outline" onClick={() => void assistants.refetch()}>
            <LuRefreshCw /> {t("common.retry")}
          </Button>
        </Center>
      ) : noAssistantsAtAll ? (
        <EmptyAssistants onCreate={() => setSettings({ open: true, assistantId: null })} />
      ) : (
        <Grid
          templateColumns={{ base: "minmax(0, 1fr)", md: "15rem minmax(0, 1fr)", lg: "16rem 14rem minmax(0, 1fr)" }}
          templateRows={{ base: "auto", md: "auto auto", lg: "minmax(0, 1fr)" }}
          height={{ lg: "calc(100dvh - 15.5rem)" }}
          minHeight={{ lg: "32rem" }}
          bg="bg.panel"
          borderWidth="1px"
          rounded="l3"
          overflow="hidden"
        >
          <Box borderEndWidth={{ md: "1px" }} borderBottomWidth={{ base: "1px", lg: "0" }} maxHeight={{ base: "18rem", lg: "none" }} minHeight="0" overflow="hidden">
            <AssistantList
              assistants={items}
              selectedId={assistantId}
              search={search}
              onSearch={setSearch}
              onSelect={(id) => id !== assistantId && select({ assistant: id, conversation: null })}
              onAction={act}
            />
          </Box>
          <Box borderEndWidth={{ lg: "1px" }} borderBottomWidth={{ base: "1px", lg: "0" }} maxHeight={{ base: "18rem", lg: "none" }} minHeight="0" overflow="hidden" bg={{ base: "bg.panel", lg: "bg.subtle" }}>
            {assistantId ? (
              <ConversationList
                conversations={conversationList}
                selectedId={conversationId}
                creating={creatingConversation}
                onSelect={(id) => select({ conversation: id })}
                onCreate={() => void startConversation()}
                onRename={setRenaming}
                onDelete={setDeletingConversation}
              />
            ) : null}
          </Box>
          <Flex direction="column" minHeight={{ base: "36rem", lg: "0" }} gridColumn={{ md: "1 / -1", lg: "auto" }} bg="bg.canvas">
            {assistant ? (
              <>
                <Flex align="center" gap="3" px="5" py="2.5" borderBottomWidth="1px" borderColor="border.muted" bg="bg.panel">
                  <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size="sm" />
                  <Stack gap="0" flex="1" minWidth="0">
                    <Text fontWeight="semibold" fontSize="sm" truncate data-testid="chat-assistant-name">
                      {assistant.name}
                    </Text>
                    <Text fontSize="xs" color="fg.muted" truncate data-testid="chat-conversation-name">
                      {selectedConversation?.name ?? t("chat.conversations.defaultName")}
                    </Text>
                  </Stack>
                  <IconButton size="sm" variant="ghost" aria-label={t("chat.embed.title")} title={t("chat.embed.title")} onClick={() => setEmbedding(assistant)} data-testid="chat-embed">
                    <LuCode />
                  </IconButton>
                  <IconButton size="sm" variant="ghost" aria-label={t("chat.assistants.edit")} title={t("chat.assistants.edit")} onClick={() => setSettings({ open: true, assistantId: assistant.id })} data-testid="chat-settings">
                    <LuSettings2 />
                  </IconButton>
                </Flex>
                <Box flex="1" minHeight="0">
                  <ChatPanel conversationId={conversationId} assistant={assistant} linkDocuments createConversation={newConversation} />
                </Box>
              </>
            ) : (
              <Center flex="1" color="fg.subtle" fontSize="sm" p="8">
                {items && items.length > 0 ? t("chat.assistants.pick") : null}
              </Center>
            )}
          </Flex>
        </Grid>
      )}

      <AssistantSettingsDialog
        open={settings.open}
        assistantId={settings.open ? settings.assistantId : null}
        onClose={() => setSettings({ open: false })}
        onSaved={(id) => {
          void assistants.refetch();
          if (settings.open && settings.assistantId === null) select({ assistant: id, conversation: null });
        }}
      />
      {overview.open && (
        <Suspense fallback={null}>
          <StatisticsDialog open assistant={overview.assistant} onClose={() => setOverview({ open: false })} />
        </Suspense>
      )}
      <EmbedDialog
        assistant={embedding}
        onClose={() => setEmbedding(null)}
        onOpenApiKeys={() => setApiKeysOpen(true)}
      />
      <ApiKeyDialog open={apiKeysOpen} onClose={() => setApiKeysOpen(false)} />
      <TextFieldsDialog
        open={renaming !== null}
        title={t("chat.conversations.renameTitle")}
        testId="conversation-rename-dialog"
        fields={[{ name: "name", label: t("chat.conversations.name"), required: true, requiredKey: "errors.conversation.nameRequired", initial: renaming?.name ?? "" }]}
        onClose={() => setRenaming(null)}
        onSubmit={async (values) => {
          if (!renaming) return;
          await renameConversation({ variables: { id: renaming.id, name: values.name.trim() } });
          notify.success("renamed");
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
      />
      <ConfirmDeleteDialog open={deletingConversation !== null} subject={deletingConversation?.name} onClose={() => setDeletingConversation(null)} onConfirm={() => (deletingConversation ? removeConversation(deletingConversation) : undefined)} />
      <ConfirmDeleteDialog open={deletingAssistant !== null} subject={deletingAssistant?.name} onClose={() => setDeletingAssistant(null)} onConfirm={() => (deletingAssistant ? removeAssistant(deletingAssistant) : undefined)} />
    </>
  );
}
