import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { AssistantsDocument, DeleteAssistantsDocument, type AssistantCardFragment } from "../../../graphql/gql/graphql";
import type { ChatSelection } from "../useChatSelection";

const PAGE_SIZE = 100;

/** The assistants the chat page lists, searched by name, the one selected, and deleting one. */
export function useAssistants({ assistantId, select }: ChatSelection) {
  const { i18n } = useTranslation();
  const client = useApolloClient();
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const query = useQuery(AssistantsDocument, { variables: { search: deferredSearch || null, page: 1, pageSize: PAGE_SIZE } });
  const [deleteAssistants] = useMutation(DeleteAssistantsDocument);
  const items = query.data?.assistants.items;

  async function remove(target: AssistantCardFragment) {
    try {
      await deleteAssistants({ variables: { ids: [target.id] } });
      client.cache.evict({ id: client.cache.identify({ __typename: "Assistant", id: target.id }) });
      client.cache.gc();
      notify.success("deleted");
      if (target.id === assistantId) select({ assistant: null, conversation: null }, true);
      await query.refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return {
    search,
    setSearch,
    searching: deferredSearch !== "",
    /** Undefined until the first answer arrives. */
    items,
    selected: items?.find((candidate) => candidate.id === assistantId) ?? null,
    /** The user has no assistant (not merely none matching the search): the page invites them to create one. */
    noneAtAll: items !== undefined && items.length === 0 && !deferredSearch,
    /** The list could not be read at all. */
    failure: query.error && !query.data ? query.error : undefined,
    refetch: query.refetch,
    remove,
  };
}

export type Assistants = ReturnType<typeof useAssistants>;
