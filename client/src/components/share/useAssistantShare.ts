import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../toaster";
import { describeError, messageKeyOf } from "../../errors";
import { AssistantShareDocument, RevokeAssistantShareDocument, ShareAssistantDocument } from "../../graphql/gql/graphql";

/** A failed share: its message key (to offer a way out) and its text. */
export interface ShareFailure {
  key?: string;
  text: string;
}

/** Whether an assistant is shared (its `sharedId`), sharing it and revoking the share. */
export function useAssistantShare(assistantId: string | null) {
  const { i18n } = useTranslation();
  const { data, loading, error } = useQuery(AssistantShareDocument, { variables: { assistantId: assistantId ?? "" }, skip: assistantId === null, fetchPolicy: "network-only" });
  const [share, { loading: sharing }] = useMutation(ShareAssistantDocument, { refetchQueries: [AssistantShareDocument] });
  const [revoke] = useMutation(RevokeAssistantShareDocument, { refetchQueries: [AssistantShareDocument] });
  const [failure, setFailure] = useState<ShareFailure | null>(null);

  return {
    loadingFirst: loading && !data,
    /** The share could not be read at all. */
    readFailure: error && !data ? describeError(error, i18n) : null,
    sharedId: data?.assistantShare?.sharedId,
    sharing,
    /** Why the last share failed, shown until the next attempt. */
    failure,
    async share() {
      setFailure(null);
      try {
        await share({ variables: { assistantId: assistantId ?? "" } });
      } catch (failed) {
        setFailure({ key: messageKeyOf(failed), text: describeError(failed, i18n) });
      }
    },
    async revoke() {
      try {
        await revoke({ variables: { assistantId: assistantId ?? "" } });
        notify.success("deleted");
      } catch (failed) {
        notify.error(describeError(failed, i18n));
      }
    },
  };
}
