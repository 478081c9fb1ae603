import { In, Not, type EntityManager } from "typeorm";
import { authorize, can, type TeamMembershipResource } from "../policies";
import type { SignedIn, TenantRole } from "../policies/principal";
import { Conflict, FieldChecks, Invalid, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { isLanguage, type Locale } from "../platform/messages";
import type { Platform } from "../platform";
import { smtpInvitationMailer, type InvitationMailer } from "./team-mail";
import { TeamInvitation } from "./team-invitation.entity";
import type { JoinedTeam, Team, TeamInvitationView, TeamMember } from "./team.types";
import { TenantMember } from "./tenant-member.entity";
import { Tenant } from "./tenant.entity";
import { User } from "./user.entity";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Roles a member can be given; "owner" changes hands only through transferOwnership, so that there is always one. */
const ASSIGNABLE_ROLES = ["admin", "normal"] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Who may sign up, as sign-up decides it: an invitation to an address that never could would wait forever. */
export interface TeamAccounts {
  signUpPolicy(): Promise<{ open: boolean; emailDomains: string[] }>;
}

const membership = (tenantId: string, userId: string | null, role: TenantRole): TeamMembershipResource => ({ kind: "teamMembership", tenantId, userId, role });
const invitationResource = (invitation: TeamInvitation) => membership(invitation.tenantId, invitation.userId, "invite");

/**
 * Called by account creation, inside its transaction: invitations that waited for this address become the new
 * account's, so that they show to it at once (spec §4: agreed or refused like any other).
 */
export async function claimTeamInvitations(tx: EntityManager, userId: string, email: string): Promise<void> {
  await tx.createQueryBuilder().update(TeamInvitation).set({ userId }).where("lower(email) = :email AND user_id IS NULL", { email: email.trim().toLowerCase() }).execute();
}

/**
 * Teams (spec §2 /team, §3, §4, §5): a team is a tenant. Its owner and admins invite by e-mail, remove members and
 * change roles; the invited agree or refuse; members leave. Every decision is the team-membership policy's.
 */
export class TeamService {
  private readonly mailer: InvitationMailer | null;

  constructor(
    private readonly platform: Platform,
    private readonly accounts: TeamAccounts,
  ) {
    this.mailer = platform.config.smtp ? smtpInvitationMailer(platform.config.smtp) : null;
  }

  private get members() {
    return this.platform.db.getRepository(TenantMember);
  }
  private get invitations() {
    return this.platform.db.getRepository(TeamInvitation);
  }
  private get users() {
    return this.platform.db.getRepository(User);
  }

  private async usersById(ids: string[]): Promise<Map<string, User>> {
    const users = ids.length === 0 ? [] : await this.users.findBy({ id: In([...new Set(ids)]) });
    return new Map(users.map((u) => [u.id, u]));
  }

  private async tenantNames(ids: string[]): Promise<Map<string, string>> {
    const tenants = ids.length === 0 ? [] : await this.platform.db.getRepository(Tenant).findBy({ id: In([...new Set(ids)]) });
    return new Map(tenants.map((t) => [t.id, t.name]));
  }

  private async invitationViews(rows: TeamInvitation[], withMailError: boolean): Promise<TeamInvitationView[]> {
    const [users, names] = await Promise.all([this.usersById(rows.map((r) => r.invitedBy)), this.tenantNames(rows.map((r) => r.tenantId))]);
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenantId,
      teamName: names.get(r.tenantId) ?? "",
      email: r.email,
      inviterNickname: users.get(r.invitedBy)?.nickname ?? "",
      inviterEmail: users.get(r.invitedBy)?.email ?? "",
      createdAt: r.createdAt,
      waitingForSignUp: r.userId === null,
      mail: r.mail,
      mailError: withMailError ? r.mailError : null,
    }));
  }

  /** A team with its members and pending invitations; the principal's own by default. */
  async team(principal: SignedIn, tenantId = principal.tenantId): Promise<Team> {
    const me = await this.members.findOneBy({ tenantId, userId: principal.user.id });
    if (!me) throw NotFound("errors.team.notFound");
    const rows = await this.members.find({ where: { tenantId }, order: { createdAt: "ASC" } });
    const users = await this.usersById(rows.map((r) => r.userId));
    const members: TeamMember[] = rows
      .filter((r) => can(principal, "read", membership(tenantId, r.userId, r.role)) && users.has(r.userId))
      .map((r) => {
        const user = users.get(r.userId)!;
        return { userId: r.userId, nickname: user.nickname, email: user.email, avatar: user.avatar, role: r.role, joinedAt: r.createdAt };
      });
    const pending = (await this.invitations.find({ where: { tenantId }, order: { createdAt: "DESC" } })).filter((r) => can(principal, "read", invitationResource(r)));
    const name = (await this.tenantNames([tenantId])).get(tenantId) ?? "";
    // Why a mail failed (the SMTP server's words) is for those who may send it again.
    const managing = pending.length > 0 && can(principal, "manage", invitationResource(pending[0]));
    return { tenantId, name, myRole: me.role, members, invitations: await this.invitationViews(pending, managing) };
  }

  /** The teams the principal belongs to besides its own tenant, with each one's owner. */
  async joinedTeams(principal: SignedIn): Promise<JoinedTeam[]> {
    const rows = await this.members.find({ where: { userId: principal.user.id, tenantId: Not(principal.tenantId) }, order: { createdAt: "DESC" } });
    if (rows.length === 0) return [];
    const tenantIds = rows.map((r) => r.tenantId);
    const owners = await this.members.find({ where: { tenantId: In(tenantIds), role: "owner" } });
    const [users, names] = await Promise.all([this.usersById(owners.map((o) => o.userId)), this.tenantNames(tenantIds)]);
    return rows.map((r) => {
      const owner = users.get(owners.find((o) => o.tenantId === r.tenantId)?.userId ?? "");
      return { tenantId: r.tenantId, name: names.get(r.tenantId) ?? "", ownerNickname: owner?.nickname ?? "", ownerEmail: owner?.email ?? "", role: r.role, joinedAt: r.createdAt };
    });
  }

  /** Invitations waiting for the principal's answer. */
  async invitationsForMe(principal: SignedIn): Promise<TeamInvitationView[]> {
    const rows = await this.invitations.find({ where: { userId: principal.user.id }, order: { createdAt: "DESC" } });
    return this.invitationViews(rows, false);
  }

  /**
   * Invites an address to a team (the principal's own by default). An address with an account gets an invitation
   * it can agree to or refuse; one without waits for that address to sign up — unless sign-up is closed to it, when
   * nobody could ever answer: "User not found", as RAGFlow says of every unknown address.
   */
  async invite(principal: SignedIn, emailInput: string, tenantId = principal.tenantId): Promise<TeamInvitationView> {
    const email = emailInput?.trim() ?? "";
    new FieldChecks()
      .check(email !== "", "email", "errors.emailRequired")
      .check(EMAIL_PATTERN.test(email) && email.length <= 255, "email", "errors.emailInvalid", { email })
      .throwIfAny();
    const inviter = await this.users.findOneByOrFail({ id: principal.user.id });
    if (inviter.email.toLowerCase() === email.toLowerCase()) throw Invalid([{ field: "email", messageKey: "errors.cannotInviteYourself" }]);
    const invitee = await this.users.createQueryBuilder("u").where("lower(u.email) = :email", { email: email.toLowerCase() }).getOne();
    authorize(principal, "manage", membership(tenantId, invitee?.id ?? null, "invite"));
    if (!invitee && !(await this.mayStillSignUp(email))) throw NotFound("errors.userNotFound");
    if (invitee && (await this.members.existsBy({ tenantId, userId: invitee.id }))) throw Conflict("errors.team.alreadyMember", { email });
    const taken = await this.invitations.createQueryBuilder("i").where("i.tenantId = :tenantId AND lower(i.email) = :email", { tenantId, email: email.toLowerCase() }).getExists();
    if (taken) throw Conflict("errors.team.alreadyInvited", { email });
    const invitation = this.invitations.create({ id: newId(), tenantId, email, userId: invitee?.id ?? null, invitedBy: inviter.id, mail: "none", mailError: null });
    try {
      await this.invitations.insert(invitation);
    } catch (error) {
      // Two invitations of one address at the same moment: the unique index decides.
      if ((error as { code?: string }).code === "23505") throw Conflict("errors.team.alreadyInvited", { email });
      throw error;
    }
    await this.mail(invitation, inviter, invitee?.language ?? inviter.language);
    return (await this.invitationViews([await this.invitations.findOneByOrFail({ id: invitation.id })], true))[0];
  }

  private async mayStillSignUp(email: string): Promise<boolean> {
    const policy = await this.accounts.signUpPolicy();
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
    return policy.open && (policy.emailDomains.length === 0 || policy.emailDomains.includes(domain));
  }

  /**
   * Mails the invitation when SMTP is configured. A failure never loses the invitation, which shows in the app
   * regardless: it is recorded (mail "failed", with the reason) for the inviter, who may send it again.
   */
  private async mail(invitation: TeamInvitation, inviter: User, language: string): Promise<void> {
    if (!this.mailer) return;
    const team = (await this.tenantNames([invitation.tenantId])).get(invitation.tenantId) ?? "";
    const base = this.platform.config.publicUrl ?? `http://localhost:${this.platform.config.port}`;
    const link = `${base}/${invitation.userId ? "team" : "login"}`;
    let outcome: Pick<TeamInvitation, "mail" | "mailError">;
    try {
      await this.mailer.send({ to: invitation.email, language: (isLanguage(language) ? language : "en") as Locale, inviter: `${inviter.nickname} <${inviter.email}>`, team, link });
      outcome = { mail: "sent", mailError: null };
    } catch (error) {
      outcome = { mail: "failed", mailError: error instanceof Error ? error.message.slice(0, 500) : String(error) };
    }
    await this.invitations.update({ id: invitation.id }, outcome);
  }

  private async invitation(id: string): Promise<TeamInvitation> {
    const invitation = await this.invitations.findOneBy({ id });
    if (!invitation) throw NotFound("errors.team.invitationNotFound");
    return invitation;
  }

  /** Sends a pending invitation's e-mail again (after a failure, or when it went astray). */
  async resendInvitation(principal: SignedIn, id: string): Promise<TeamInvitationView> {
    const invitation = await this.invitation(id);
    authorize(principal, "manage", invitationResource(invitation));
    const inviter = await this.users.findOneByOrFail({ id: principal.user.id });
    const invitee = invitation.userId ? await this.users.findOneBy({ id: invitation.userId }) : null;
    await this.mail(invitation, inviter, invitee?.language ?? inviter.language);
    return (await this.invitationViews([await this.invitations.findOneByOrFail({ id })], true))[0];
  }

  /** The invited person joins the team as a normal member. */
  async agree(principal: SignedIn, id: string): Promise<void> {
    const invitation = await this.invitation(id);
    authorize(principal, "use", invitationResource(invitation));
    await this.platform.db.transaction(async (tx) => {
      await tx.createQueryBuilder().insert().into(TenantMember).values({ tenantId: invitation.tenantId, userId: principal.user.id, role: "normal" }).orIgnore().execute();
      await tx.delete(TeamInvitation, { id });
    });
  }

  /** The invited person refuses, or the team's owner or an admin cancels: the invitation is gone either way. */
  async dropInvitation(principal: SignedIn, id: string): Promise<void> {
    const invitation = await this.invitation(id);
    authorize(principal, "delete", invitationResource(invitation));
    await this.invitations.delete({ id });
  }

  private async place(tenantId: string, userId: string): Promise<TenantMember> {
    const row = await this.members.findOneBy({ tenantId, userId });
    if (!row) throw NotFound("errors.userNotFound");
    return row;
  }

  /** Leaves a team; the owner cannot leave its own (it would leave the team without one). */
  async leave(principal: SignedIn, tenantId: string): Promise<void> {
    await this.remove(principal, tenantId, principal.user.id);
  }

  /** Removes a member: the owner and admins may, never the owner. */
  async remove(principal: SignedIn, tenantId: string, userId: string): Promise<void> {
    const row = await this.place(tenantId, userId);
    authorize(principal, "delete", membership(tenantId, userId, row.role));
    await this.members.delete({ tenantId, userId });
  }

  /** Makes a member an admin or a normal member; the owner's role changes only by handing ownership on. */
  async changeRole(principal: SignedIn, tenantId: string, userId: string, role: string): Promise<TeamMember> {
    new FieldChecks().check((ASSIGNABLE_ROLES as readonly string[]).includes(role), "role", "errors.team.roleInvalid").throwIfAny();
    const row = await this.place(tenantId, userId);
    authorize(principal, "manage", membership(tenantId, userId, row.role));
    if (row.role === "owner") throw Invalid([{ field: "role", messageKey: "errors.team.ownerStays" }]);
    authorize(principal, "manage", membership(tenantId, userId, role as AssignableRole));
    await this.members.update({ tenantId, userId }, { role: role as AssignableRole });
    return this.memberView(tenantId, userId);
  }

  /** Hands the team's ownership to one of its members, who becomes its one owner; the previous owner stays as an admin. */
  async transferOwnership(principal: SignedIn, tenantId: string, userId: string): Promise<TeamMember> {
    const row = await this.place(tenantId, userId);
    const owner = await this.members.findOneBy({ tenantId, role: "owner" });
    if (!owner) throw NotFound("errors.team.notFound");
    authorize(principal, "manage", membership(tenantId, owner.userId, "owner"));
    if (row.role === "owner") return this.memberView(tenantId, userId);
    await this.platform.db.transaction(async (tx) => {
      await tx.update(TenantMember, { tenantId, userId: owner.userId }, { role: "admin" });
      await tx.update(TenantMember, { tenantId, userId }, { role: "owner" });
    });
    return this.memberView(tenantId, userId);
  }

  private async memberView(tenantId: string, userId: string): Promise<TeamMember> {
    const row = await this.place(tenantId, userId);
    const user = await this.users.findOneByOrFail({ id: userId });
    return { userId, nickname: user.nickname, email: user.email, avatar: user.avatar, role: row.role, joinedAt: row.createdAt };
  }
}
