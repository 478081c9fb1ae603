import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../errors";
import {
  AgreeTeamInvitationDocument,
  CancelTeamInvitationDocument,
  ChangeTeamRoleDocument,
  JoinedTeamsDocument,
  LeaveTeamDocument,
  MyTeamDocument,
  RefuseTeamInvitationDocument,
  RemoveTeamMemberDocument,
  ResendTeamInvitationDocument,
  TeamInvitationsForMeDocument,
  TransferTeamOwnershipDocument,
} from "../../graphql/gql/graphql";
import { notify, type SuccessMessage } from "../toaster";

/** How often the invitations to me are asked for again while the app is open: a new one shows within a minute. */
const INVITATIONS_POLL_MS = 60_000;

/** Asks again when the window comes back to the front: what others did meanwhile (an invitation, a removal) shows at once. */
function useRefetchOnFocus(refetch: () => unknown): void {
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [refetch]);
}

/** The invitations waiting for my answer: for the team pages and the header's badge. */
export function useInvitationsToMe() {
  const query = useQuery(TeamInvitationsForMeDocument, { pollInterval: INVITATIONS_POLL_MS });
  useRefetchOnFocus(query.refetch);
  return { ...query, invitations: query.data?.teamInvitations ?? [] };
}

const EVERYTHING = [MyTeamDocument, JoinedTeamsDocument, TeamInvitationsForMeDocument];

/** My team, the teams I joined and every team action, each refetching what it changes and telling how it went. */
export function useTeam() {
  const { i18n } = useTranslation();
  const team = useQuery(MyTeamDocument);
  const joined = useQuery(JoinedTeamsDocument);
  useRefetchOnFocus(team.refetch);
  useRefetchOnFocus(joined.refetch);
  const options = { refetchQueries: EVERYTHING, awaitRefetchQueries: true };
  const [invite] = useMutation(ResendTeamInvitationDocument, options);
  const [cancel] = useMutation(CancelTeamInvitationDocument, options);
  const [agree] = useMutation(AgreeTeamInvitationDocument, options);
  const [refuse] = useMutation(RefuseTeamInvitationDocument, options);
  const [leave] = useMutation(LeaveTeamDocument, options);
  const [remove] = useMutation(RemoveTeamMemberDocument, options);
  const [changeRole] = useMutation(ChangeTeamRoleDocument, options);
  const [transfer] = useMutation(TransferTeamOwnershipDocument, options);

  /** Runs one action; true when it succeeded (then the success message shows), false after showing why not. */
  async function run(action: () => Promise<unknown>, success: SuccessMessage): Promise<boolean> {
    try {
      await action();
      notify.success(success);
      return true;
    } catch (failure) {
      notify.error(describeError(failure, i18n));
      return false;
    }
  }

  return {
    team,
    joined,
    resend: (id: string) => run(() => invite({ variables: { id } }), "operated"),
    cancel: (id: string) => run(() => cancel({ variables: { id } }), "deleted"),
    agree: (id: string) => run(() => agree({ variables: { id } }), "operated"),
    refuse: (id: string) => run(() => refuse({ variables: { id } }), "operated"),
    leave: (tenantId: string) => run(() => leave({ variables: { tenantId } }), "operated"),
    remove: (userId: string) => run(() => remove({ variables: { userId } }), "deleted"),
    changeRole: (userId: string, role: "admin" | "normal") => run(() => changeRole({ variables: { userId, role } }), "modified"),
    transfer: (userId: string) => run(() => transfer({ variables: { userId } }), "modified"),
  };
}

export type TeamActions = ReturnType<typeof useTeam>;
