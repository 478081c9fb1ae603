import { Avatar, Badge, Box, Button, Center, Flex, HStack, IconButton, Menu, Portal, Skeleton, Stack, Table, Text } from "@chakra-ui/react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuEllipsis, LuMailCheck, LuUserPlus } from "react-icons/lu";
import { useFormatters } from "../../format";
import type { TeamInvitationRowFragment, TeamMemberRowFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { LoadFailed } from "../LoadFailed";
import { memberActions } from "./memberActions";
import { ConfirmTeamAction, type PendingConfirmation } from "./ConfirmTeamAction";
import { InviteDialog } from "./InviteDialog";
import { useInvitationsToMe, useTeam, type TeamActions } from "./useTeam";

/** A titled panel of the team pages. */
function Panel({ title, hint, action, testId, children }: { title: string; hint?: string; action?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden" data-testid={testId}>
      <Flex px={{ base: "5", md: "6" }} py="4" align="center" justify="space-between" gap="4" borderBottomWidth="1px">
        <Stack gap="0.5" minWidth="0">
          <Text fontWeight="semibold">{title}</Text>
          {hint && (
            <Text fontSize="sm" color="fg.muted">
              {hint}
            </Text>
          )}
        </Stack>
        {action}
      </Flex>
      {children}
    </Box>
  );
}

function Empty({ text, testId }: { text: string; testId: string }) {
  return (
    <Center py="8" px="6" color="fg.muted" fontSize="sm" data-testid={testId}>
      {text}
    </Center>
  );
}

/** A panel's query while it loads (skeleton rows) or after it failed (with a retry); what it shows once it has data. */
function Loaded({ query, rows, children }: { query: { data?: unknown; loading: boolean; error?: ComponentProps<typeof LoadFailed>["error"]; refetch: () => unknown }; rows: number; children: ReactNode }) {
  if (query.loading && !query.data) {
    return (
      <Stack p="6" gap="3">
        {Array.from({ length: rows }, (_, row) => (
          <Skeleton key={row} height="6" />
        ))}
      </Stack>
    );
  }
  if (query.error && !query.data) return <LoadFailed py="10" error={query.error} onRetry={() => void query.refetch()} />;
  return children;
}

/** A table of a team panel; with actions, a last column for each row's buttons, at the end. */
function TeamTable({ testId, columns, withActions, children }: { testId: string; columns: string[]; withActions: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea>
      <Table.Root size="md" data-testid={testId}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {columns.map((column) => (
              <Table.ColumnHeader key={column}>{column}</Table.ColumnHeader>
            ))}
            {withActions && <Table.ColumnHeader textAlign="end">{t("team.actions")}</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function RoleBadge({ role }: { role: string }) {
  const { t } = useTranslation();
  const palette = role === "owner" ? "brand" : role === "admin" ? "purple" : "gray";
  return (
    <Badge variant="subtle" colorPalette={palette} data-testid="team-role">
      {t(`team.roles.${role}`, { defaultValue: role })}
    </Badge>
  );
}

function Person({ nickname, email, avatar, you }: { nickname: string; email: string; avatar?: string | null; you?: boolean }) {
  const { t } = useTranslation();
  return (
    <HStack gap="3" minWidth="0">
      <Avatar.Root size="sm" colorPalette="brand">
        <Avatar.Fallback name={nickname} />
        {avatar && <Avatar.Image src={avatar} />}
      </Avatar.Root>
      <Box minWidth="0">
        <Text fontWeight="medium" truncate>
          {nickname}
          {you && (
            <Text as="span" color="fg.muted" fontWeight="normal">
              {" "}
              ({t("team.you")})
            </Text>
          )}
        </Text>
        <Text fontSize="xs" color="fg.muted" truncate>
          {email}
        </Text>
      </Box>
    </HStack>
  );
}

function MemberMenu({ member, myRole, actions, confirm }: { member: TeamMemberRowFragment; myRole: string; actions: TeamActions; confirm: (pending: PendingConfirmation) => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const allowed = memberActions(myRole, member, user?.id);
  if (!Object.values(allowed).some(Boolean)) return null;
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={t("team.actions")} data-testid="team-member-actions">
          <LuEllipsis />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {allowed.makeAdmin && (
              <Menu.Item value="admin" onClick={() => void actions.changeRole(member.userId, "admin")} data-testid="team-make-admin">
                {t("team.makeAdmin")}
              </Menu.Item>
            )}
            {allowed.makeNormal && (
              <Menu.Item value="normal" onClick={() => void actions.changeRole(member.userId, "normal")} data-testid="team-make-normal">
                {t("team.makeNormal")}
              </Menu.Item>
            )}
            {allowed.transfer && (
              <Menu.Item
                value="owner"
                onClick={() => confirm({ question: t("team.transferConfirm", { name: member.nickname }), action: t("team.transfer"), run: () => actions.transfer(member.userId) })}
                data-testid="team-transfer"
              >
                {t("team.transfer")}
              </Menu.Item>
            )}
            {allowed.remove && (
              <Menu.Item
                value="remove"
                color="fg.error"
                onClick={() => confirm({ question: t("team.removeConfirm", { name: member.nickname }), action: t("team.remove"), run: () => actions.remove(member.userId) })}
                data-testid="team-remove"
              >
                {t("team.remove")}
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

function SentInvitations({ invitations, managing, actions }: { invitations: TeamInvitationRowFragment[]; managing: boolean; actions: TeamActions }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  if (invitations.length === 0) return <Empty text={t("team.noPendingSent")} testId="team-sent-empty" />;
  return (
    <TeamTable testId="team-sent-table" columns={[t("team.email"), t("team.status"), t("team.sentAt")]} withActions={managing}>
      {invitations.map((invitation) => (
        <Table.Row key={invitation.id} data-testid="team-sent-row">
          <Table.Cell>{invitation.email}</Table.Cell>
          <Table.Cell>
            <HStack gap="2" wrap="wrap">
              <Badge variant="subtle">{t(invitation.waitingForSignUp ? "team.waitingSignUp" : "team.waitingAnswer")}</Badge>
              {invitation.mail === "sent" && (
                <Badge variant="subtle" colorPalette="green">
                  <LuMailCheck /> {t("team.mailSent")}
                </Badge>
              )}
              {invitation.mail === "failed" && (
                <Badge variant="subtle" colorPalette="red" title={invitation.mailError ?? undefined} data-testid="team-mail-failed">
                  {t("team.mailFailed")}
                </Badge>
              )}
            </HStack>
          </Table.Cell>
          <Table.Cell color="fg.muted">{format.dateTime(invitation.createdAt)}</Table.Cell>
          {managing && (
            <Table.Cell textAlign="end">
              <HStack gap="1" justify="end">
                {invitation.mail === "failed" && (
                  <Button size="xs" variant="ghost" onClick={() => void actions.resend(invitation.id)} data-testid="team-resend">
                    {t("team.resend")}
                  </Button>
                )}
                <Button size="xs" variant="ghost" colorPalette="red" onClick={() => void actions.cancel(invitation.id)} data-testid="team-cancel-invitation">
                  {t("team.cancelInvitation")}
                </Button>
              </HStack>
            </Table.Cell>
          )}
        </Table.Row>
      ))}
    </TeamTable>
  );
}

function MyTeam({ actions, confirm }: { actions: TeamActions; confirm: (pending: PendingConfirmation) => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const [inviting, setInviting] = useState(false);
  const team = actions.team.data?.team;
  const managing = team?.myRole === "owner" || team?.myRole === "admin";

  return (
    <Stack gap="5">
      <Panel
        title={team?.name ?? t("team.myTeam")}
        hint={t("team.myTeamHint")}
        testId="team-members"
        action={
          managing && (
            <Button colorPalette="brand" size="sm" onClick={() => setInviting(true)} data-testid="team-invite">
              <LuUserPlus /> {t("team.invite")}
            </Button>
          )
        }
      >
        <Loaded query={actions.team} rows={2}>
          <TeamTable testId="team-member-table" columns={[t("team.name"), t("team.role"), t("team.joined")]} withActions>
            {team?.members.map((member) => (
              <Table.Row key={member.userId} data-testid="team-member-row" data-email={member.email}>
                <Table.Cell>
                  <Person nickname={member.nickname} email={member.email} avatar={member.avatar} you={member.userId === user?.id} />
                </Table.Cell>
                <Table.Cell>
                  <RoleBadge role={member.role} />
                </Table.Cell>
                <Table.Cell color="fg.muted">{format.dateTime(member.joinedAt)}</Table.Cell>
                <Table.Cell textAlign="end">
                  <MemberMenu member={member} myRole={team.myRole} actions={actions} confirm={confirm} />
                </Table.Cell>
              </Table.Row>
            ))}
          </TeamTable>
        </Loaded>
      </Panel>
      {team && (
        <Panel title={t("team.pendingSent")} testId="team-sent">
          <SentInvitations invitations={team.invitations} managing={managing} actions={actions} />
        </Panel>
      )}
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}

/** Invitations waiting for my answer, with Agree and Refuse (spec §4). Shown only when there is one. */
function InvitationsToMe({ actions }: { actions: TeamActions }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const { invitations } = useInvitationsToMe();
  if (invitations.length === 0) return null;
  return (
    <Panel title={t("team.invitations")} testId="team-invitations-to-me">
      <Stack gap="0">
        {invitations.map((invitation) => (
          <Flex
            key={invitation.id}
            px={{ base: "5", md: "6" }}
            py="3"
            gap="4"
            align="center"
            justify="space-between"
            borderBottomWidth="1px"
            _last={{ borderBottomWidth: "0" }}
            data-testid="team-invitation-to-me"
          >
            <Stack gap="0.5" minWidth="0">
              <Text fontWeight="medium">{t("team.invitationFrom", { name: invitation.inviterNickname, team: invitation.teamName })}</Text>
              <Text fontSize="xs" color="fg.muted">
                {invitation.inviterEmail} · {format.dateTime(invitation.createdAt)}
              </Text>
            </Stack>
            <HStack gap="2" flexShrink="0">
              <Button size="sm" variant="outline" onClick={() => void actions.refuse(invitation.id)} data-testid="team-refuse">
                {t("team.refuse")}
              </Button>
              <Button size="sm" colorPalette="brand" onClick={() => void actions.agree(invitation.id)} data-testid="team-agree">
                {t("team.agree")}
              </Button>
            </HStack>
          </Flex>
        ))}
      </Stack>
    </Panel>
  );
}

function JoinedTeams({ actions, confirm }: { actions: TeamActions; confirm: (pending: PendingConfirmation) => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const teams = actions.joined.data?.joinedTeams ?? [];
  return (
    <Panel title={t("team.joinedTeams")} testId="team-joined">
      <Loaded query={actions.joined} rows={1}>
        {teams.length === 0 ? (
          <Empty text={t("team.noJoinedTeams")} testId="team-joined-empty" />
        ) : (
          <TeamTable testId="team-joined-table" columns={[t("team.name"), t("team.owner"), t("team.role"), t("team.joined")]} withActions>
            {teams.map((team) => (
              <Table.Row key={team.tenantId} data-testid="team-joined-row">
                <Table.Cell fontWeight="medium">{team.name}</Table.Cell>
                <Table.Cell>
                  <Person nickname={team.ownerNickname} email={team.ownerEmail} />
                </Table.Cell>
                <Table.Cell>
                  <RoleBadge role={team.role} />
                </Table.Cell>
                <Table.Cell color="fg.muted">{format.dateTime(team.joinedAt)}</Table.Cell>
                <Table.Cell textAlign="end">
                  {team.role !== "owner" && (
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      onClick={() => confirm({ question: t("team.leaveConfirm", { name: team.name }), action: t("team.leave"), run: () => actions.leave(team.tenantId) })}
                      data-testid="team-leave"
                    >
                      {t("team.leave")}
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </TeamTable>
        )}
      </Loaded>
    </Panel>
  );
}

/**
 * Everything about teams on one screen (spec §2 /team and Settings → Team): invitations to me, my team's members
 * with what my role lets me do to each, the invitations it sent, and the teams I joined.
 */
export function TeamOverview() {
  const actions = useTeam();
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  return (
    <Stack gap="5" data-testid="team-overview">
      <InvitationsToMe actions={actions} />
      <MyTeam actions={actions} confirm={setPending} />
      <JoinedTeams actions={actions} confirm={setPending} />
      <ConfirmTeamAction pending={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}
