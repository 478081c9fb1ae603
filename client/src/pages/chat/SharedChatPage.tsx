import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageSpinner, SharedPageShell, sharedPageState } from "../../components/share/SharedPageShell";
import { ConversationsDocument, CreateConversationDocument, SharedAssistantDocument } from "../../graphql/gql/graphql";
import { visitorId } from "../../session/visitorId";
import { AssistantAvatar } from "./assistant/AssistantAvatar";
import { ChatPanel } from "./conversation/ChatPanel";

/**
 * The shared chat (§1, §6): a visitor, signed out, talks to the one assistant its shared id names. The shared id is the
 * bearer credential (apollo.ts); the visitor id kept in this browser scopes the conversations to this visitor. There is
 * no way from here into the rest of the application.
 */
export default function SharedChatPage() {
  const { t } = useTranslation();
  // undefined: not decided yet (the visitor's newest conversation is taken); null: a new one starts with the next question.
  const [conversationId, setConversationId] = useState<string | null | undefined>(undefined);
  const shared = useQuery(SharedAssistantDocument);
  const assistant = shared.data?.sharedAssistant;
  const conversations = useQuery(ConversationsDocument, { variables: { assistantId: assistant?.id ?? "" }, skip: !assistant });
  const [createConversation] = useMutation(CreateConversationDocument);

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
    <SharedPageShell
      testId="shared-chat"
      title={assistant?.name}
      titleTestId="shared-assistant-name"
      avatar={assistant ? (size) => <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size={size} /> : null}
      newConversation={assistant ? { onClick: () => setConversationId(null), disabled: conversationId === null, testId: "shared-new-conversation" } : null}
      state={sharedPageState(shared, Boolean(assistant))}
      unavailable={{ text: t("chat.share.unavailable"), testId: "shared-unavailable" }}
    >
      {!assistant || conversationId === undefined ? (
        <PageSpinner />
      ) : (
        <ChatPanel
          conversationId={conversationId}
          assistant={{ name: assistant.name, avatar: assistant.avatar, opener: assistant.opener, tts: assistant.tts }}
          linkDocuments={false}
          createConversation={startConversation}
        />
      )}
    </SharedPageShell>
  );
}
