import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { ConversationsDocument, CreateConversationDocument, DeleteConversationsDocument, RenameConversationDocument, type ConversationRowFragment } from "../../../graphql/gql/graphql";
import type { ChatSelection } from "../useChatSelection";

/** The selected assistant's conversations: the list, the one selected, and creating, renaming and deleting one. */
export function useConversations({ assistantId, conversationId, select }: ChatSelection) {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const query = useQuery(ConversationsDocument, { variables: { assistantId: assistantId ?? "" }, skip: !assistantId });
  const list = assistantId ? query.data?.conversations : undefined;
  const [createConversation, { loading: creating }] = useMutation(CreateConversationDocument);
  const [renameConversation] = useMutation(RenameConversationDocument);
  const [deleteConversations] = useMutation(DeleteConversationsDocument);

  /** Creates a conversation with the default name, selects it and returns its id; throws on failure. */
  async function create(): Promise<string> {
    if (!assistantId) throw new Error("no assistant");
    const { data } = await createConversation({ variables: { assistantId, name: t("chat.conversations.defaultName") } });
    if (!data) throw new Error("no conversation");
    await query.refetch();
    select({ conversation: data.createConversation.id });
    return data.createConversation.id;
  }

  async function start() {
    try {
      await create();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function remove(conversation: ConversationRowFragment) {
    try {
      await deleteConversations({ variables: { ids: [conversation.id] } });
      client.cache.evict({ id: client.cache.identify({ __typename: "Conversation", id: conversation.id }) });
      client.cache.gc();
      notify.success("deleted");
      if (conversation.id === conversationId) select({ conversation: null }, true);
      await query.refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  /** Throws, so that the rename dialog shows the failure under its field. */
  async function rename(conversation: ConversationRowFragment, name: string) {
    await renameConversation({ variables: { id: conversation.id, name } });
    notify.success("renamed");
  }

  return {
    /** Undefined while no assistant is selected or before the first answer. */
    list,
    selected: list?.find((conversation) => conversation.id === conversationId),
    creating,
    create,
    start,
    remove,
    rename,
  };
}

export type Conversations = ReturnType<typeof useConversations>;
