import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError, messageKeyOf } from "../../../errors";
import { FlowShareDocument, RevokeFlowShareDocument, ShareFlowDocument } from "../../../graphql/gql/graphql";

/** A failed share: its message key (to offer a way out) and its text. */
export interface ShareFailure {
  key?: string;
  text: string;
}

/** Whether a flow is shared (its `sharedId`), sharing it and revoking the share: as an assistant's (useAssistantShare). */
export function useFlowShare(flowId: string | null) {
  const { i18n } = useTranslation();
  const { data, loading, error } = useQuery(FlowShareDocument, { variables: { flowId: flowId ?? "" }, skip: flowId === null, fetchPolicy: "network-only" });
  const [share, { loading: sharing }] = useMutation(ShareFlowDocument, { refetchQueries: [FlowShareDocument] });
  const [revoke] = useMutation(RevokeFlowShareDocument, { refetchQueries: [FlowShareDocument] });
  const [failure, setFailure] = useState<ShareFailure | null>(null);

  return {
    loadingFirst: loading && !data,
    /** The share could not be read at all. */
    readFailure: error && !data ? describeError(error, i18n) : null,
    sharedId: data?.flowShare?.sharedId,
    sharing,
    /** Why the last share failed, shown until the next attempt. */
    failure,
    async share() {
      setFailure(null);
      try {
        await share({ variables: { flowId: flowId ?? "" } });
      } catch (failed) {
        setFailure({ key: messageKeyOf(failed), text: describeError(failed, i18n) });
      }
    },
    async revoke() {
      try {
        await revoke({ variables: { flowId: flowId ?? "" } });
        notify.success("deleted");
      } catch (failed) {
        notify.error(describeError(failed, i18n));
      }
    },
  };
}
