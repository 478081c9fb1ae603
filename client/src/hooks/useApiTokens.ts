import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../components/toaster";
import { describeError } from "../errors";
import { ApiTokensDocument, CreateApiTokenDocument, DeleteApiTokenDocument, type ApiTokenRowFragment } from "../graphql/gql/graphql";

/**
 * The workspace's API keys with their create and delete actions, for the settings' API page and the chat's
 * API-key dialog: the key just created (shown once) and the key being confirmed for deletion are state here.
 */
export function useApiTokens(options: { skip?: boolean } = {}) {
  const { i18n } = useTranslation();
  const { data, loading, error, refetch } = useQuery(ApiTokensDocument, { skip: options.skip });
  const [createdToken, setCreatedToken] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ApiTokenRowFragment | null>(null);
  const [createToken, { loading: creating }] = useMutation(CreateApiTokenDocument, {
    update(cache, { data: created }) {
      if (!created) return;
      cache.updateQuery({ query: ApiTokensDocument }, (current) => (current ? { apiTokens: [created.createApiToken.apiToken, ...current.apiTokens] } : current));
    },
  });
  const [deleteToken] = useMutation(DeleteApiTokenDocument);

  /** Creates a key that stops working at `expiresAt` (never when absent); true when it was created. */
  async function create(expiresAt: Date | null = null): Promise<boolean> {
    try {
      const { data: created } = await createToken({ variables: { input: { expiresAt: expiresAt?.toISOString() ?? null } } });
      if (created) setCreatedToken(created.createApiToken.token);
      notify.success("created");
      return true;
    } catch (failure) {
      notify.error(describeError(failure, i18n));
      return false;
    }
  }

  async function remove(token: ApiTokenRowFragment) {
    try {
      await deleteToken({
        variables: { id: token.id },
        update(cache) {
          cache.evict({ id: cache.identify({ __typename: "ApiToken", id: token.id }) });
          cache.gc();
        },
      });
      notify.success("deleted");
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return { data, tokens: data?.apiTokens ?? [], loading, error, refetch, creating, create, remove, createdToken, setCreatedToken, deleting, setDeleting };
}
