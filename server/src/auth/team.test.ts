import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { signUpAndIn, startTestServer, REGISTER, type TestServer } from "../testing/app";

/**
 * Teams (spec §2, §3, §4, §5, §8): invitations by e-mail through a local SMTP server, agreeing and refusing,
 * invitations that wait for an address to sign up, leaving, removing, roles and ownership — each rule as a user sees it.
 */

interface Mail {
  to: string;
  subject: string;
  text: string;
}

let server: TestServer;
let smtp: SMTPServer;
const mails: Mail[] = [];
/** Addresses the SMTP server refuses, to see a failed mail kept and sent again. */
const refused = new Set<string>();

interface Account {
  token: string;
  userId: string;
  email: string;
}

const gql = <T = Record<string, any>>(who: Account, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, who.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const failure = (response: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) => ({ code: response.errors?.[0]?.extensions?.code, message: response.errors?.[0]?.message });

const TEAM = `query($tenantId: ID) { team(tenantId: $tenantId) { tenantId name myRole members { userId nickname email role joinedAt } invitations { id email waitingForSignUp mail mailError inviterNickname } } }`;
const INVITE = `mutation($email: String!, $tenantId: ID) { inviteTeamMember(email: $email, tenantId: $tenantId) { id email waitingForSignUp mail mailError teamName } }`;
const MINE = `{ teamInvitations { id tenantId teamName inviterNickname waitingForSignUp } }`;
const JOINED = `{ joinedTeams { tenantId name ownerNickname ownerEmail role joinedAt } }`;

async function account(): Promise<Account> {
  const { token, userId, email } = await signUpAndIn(server);
  return { token, userId, email };
}

async function invite(from: Account, email: string, tenantId?: string) {
  return gql(from, INVITE, { email, tenantId });
}

/** Invites `to` into `owner`'s team and agrees: a normal member. */
async function join(owner: Account, to: Account): Promise<void> {
  const sent = await invite(owner, to.email);
  if (sent.errors) throw new Error(JSON.stringify(sent.errors));
  const agreed = await gql(to, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id: sent.data!.inviteTeamMember.id });
  if (agreed.errors) throw new Error(JSON.stringify(agreed.errors));
}

const roles = async (owner: Account) => Object.fromEntries((await gql(owner, TEAM)).data!.team.members.map((m: { userId: string; role: string }) => [m.userId, m.role]));

async function mailTo(address: string): Promise<Mail> {
  // The mutation answers after the SMTP server accepted the message, so it is here already.
  const mail = mails.find((m) => m.to === address);
  if (!mail) throw new Error(`no mail to ${address}: ${JSON.stringify(mails.map((m) => m.to))}`);
  return mail;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((parsed) => {
          for (const to of session.envelope.rcptTo) mails.push({ to: to.address, subject: parsed.subject ?? "", text: parsed.text ?? "" });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  // Sign-up is open to example.com only (the test accounts' domain): an address elsewhere can never answer.
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: "Cairn <cairn@example.com>", PUBLIC_URL: "https://cairn.example.com/", REGISTRATION_EMAIL_DOMAINS: "example.com" });
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("inviting", () => {
  it("refuses inviting yourself, in any letter case", async () => {
    const owner = await account();
    expect(failure(await invite(owner, owner.email.toUpperCase()))).toEqual({ code: "BAD_USER_INPUT", message: "You cannot invite yourself!" });
    expect((await gql(owner, TEAM)).data!.team.invitations).toEqual([]);
  });

  it("refuses an address that is not an e-mail address", async () => {
    const owner = await account();
    expect(failure(await invite(owner, "not an address")).code).toBe("BAD_USER_INPUT");
  });

  it("mails an account's invitation, which shows to them until they agree; then they are a normal member of that team", async () => {
    const [owner, guest] = [await account(), await account()];
    const sent = await invite(owner, guest.email);
    expect(sent.data!.inviteTeamMember).toMatchObject({ email: guest.email, waitingForSignUp: false, mail: "sent", mailError: null });

    const mail = await mailTo(guest.email);
    const ownerName = (await gql(owner, `{ me { nickname } }`)).data!.me.nickname;
    const teamName = (await gql(owner, TEAM)).data!.team.name;
    expect(mail.subject).toBe(`${ownerName} <${owner.email}> invites you to ${teamName} on Cairn`);
    expect(mail.text).toContain("https://cairn.example.com/team");

    const mine = (await gql(guest, MINE)).data!.teamInvitations;
    expect(mine).toEqual([{ id: sent.data!.inviteTeamMember.id, tenantId: owner.userId, teamName, inviterNickname: ownerName, waitingForSignUp: false }]);
    expect((await gql(owner, TEAM)).data!.team.invitations.map((i: { email: string }) => i.email)).toEqual([guest.email]);

    expect((await gql(guest, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id: mine[0].id })).data).toEqual({ agreeTeamInvitation: true });
    expect((await gql(guest, MINE)).data!.teamInvitations).toEqual([]);
    const team = (await gql(owner, TEAM)).data!.team;
    expect(team.invitations).toEqual([]);
    expect(team.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, "owner"],
      [guest.userId, "normal"],
    ]);
    expect(new Date(team.members[1].joinedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await gql(guest, JOINED)).data!.joinedTeams).toEqual([
      expect.objectContaining({ tenantId: owner.userId, name: teamName, ownerNickname: ownerName, ownerEmail: owner.email, role: "normal" }),
    ]);
    expect((await gql(guest, TEAM, { tenantId: owner.userId })).data!.team).toMatchObject({ myRole: "normal", members: [expect.anything(), expect.anything()] });
  });

  it("lets the invited refuse: no membership, no invitation", async () => {
    const [owner, guest] = [await account(), await account()];
    const id = (await invite(owner, guest.email)).data!.inviteTeamMember.id;
    expect((await gql(guest, `mutation($id: ID!) { refuseTeamInvitation(id: $id) }`, { id })).data).toEqual({ refuseTeamInvitation: true });
    expect((await gql(owner, TEAM)).data!.team.invitations).toEqual([]);
    expect(await roles(owner)).toEqual({ [owner.userId]: "owner" });
    expect(failure(await gql(guest, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id })).code).toBe("NOT_FOUND");
  });

  it("lets the owner cancel an invitation, which then cannot be agreed to", async () => {
    const [owner, guest] = [await account(), await account()];
    const id = (await invite(owner, guest.email)).data!.inviteTeamMember.id;
    expect(failure(await gql(guest, `mutation($id: ID!) { cancelTeamInvitation(id: $id) }`, { id: "nope" })).code).toBe("NOT_FOUND");
    expect((await gql(owner, `mutation($id: ID!) { cancelTeamInvitation(id: $id) }`, { id })).data).toEqual({ cancelTeamInvitation: true });
    expect((await gql(guest, MINE)).data!.teamInvitations).toEqual([]);
  });

  it("refuses agreeing for someone else", async () => {
    const [owner, guest, other] = [await account(), await account(), await account()];
    const id = (await invite(owner, guest.email)).data!.inviteTeamMember.id;
    expect(failure(await gql(other, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id }))).toEqual({ code: "NOT_FOUND", message: "User not found!" });
    expect(failure(await gql(owner, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id })).code).toBe("FORBIDDEN");
  });

  it("says so when the address is in the team already or invited already", async () => {
    const [owner, guest, next] = [await account(), await account(), await account()];
    await join(owner, guest);
    expect(failure(await invite(owner, guest.email))).toEqual({ code: "CONFLICT", message: "This user is in the team already." });
    await invite(owner, next.email);
    expect(failure(await invite(owner, next.email.toUpperCase())).code).toBe("CONFLICT");
  });

  it("keeps an invitation to an address without an account until it signs up, then shows it to that account", async () => {
    const owner = await account();
    const address = `newcomer-${Date.now()}@example.com`;
    const sent = (await invite(owner, address)).data!.inviteTeamMember;
    expect(sent).toMatchObject({ waitingForSignUp: true, mail: "sent" });
    expect((await mailTo(address)).text).toContain("https://cairn.example.com/login");

    const registered = await server.graphql<{ register: { token: string; user: { id: string } } }>(REGISTER, { input: { email: address.toUpperCase(), nickname: "newcomer", password: "correct horse battery" } });
    const newcomer = { token: registered.data!.register.token, userId: registered.data!.register.user.id, email: address };
    expect((await gql(newcomer, MINE)).data!.teamInvitations).toEqual([expect.objectContaining({ id: sent.id, tenantId: owner.userId, waitingForSignUp: false })]);
    expect((await gql(owner, TEAM)).data!.team.invitations[0].waitingForSignUp).toBe(false);
    await gql(newcomer, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id: sent.id });
    expect((await roles(owner))[newcomer.userId]).toBe("normal");
  });

  it("answers “User not found” for an address without an account that sign-up would refuse", async () => {
    const owner = await account();
    expect(failure(await invite(owner, "someone@elsewhere.org"))).toEqual({ code: "NOT_FOUND", message: "User not found!" });
    expect((await gql(owner, TEAM)).data!.team.invitations).toEqual([]);
  });

  it("keeps an invitation whose mail failed, tells the inviter why, and sends it again on request", async () => {
    const [owner, guest] = [await account(), await account()];
    refused.add(guest.email);
    const sent = (await invite(owner, guest.email)).data!.inviteTeamMember;
    expect(sent.mail).toBe("failed");
    expect(sent.mailError).toMatch(/550|mailbox unavailable/);
    expect((await gql(guest, MINE)).data!.teamInvitations.map((i: { id: string }) => i.id)).toEqual([sent.id]);

    refused.delete(guest.email);
    const again = await gql(owner, `mutation($id: ID!) { resendTeamInvitation(id: $id) { mail mailError } }`, { id: sent.id });
    expect(again.data!.resendTeamInvitation).toEqual({ mail: "sent", mailError: null });
    expect((await mailTo(guest.email)).subject).toContain("invites you to");
  });
});

describe("members and roles", () => {
  let owner: Account;
  let admin: Account;
  let member: Account;
  let stranger: Account;

  beforeAll(async () => {
    [owner, admin, member, stranger] = [await account(), await account(), await account(), await account()];
    await join(owner, admin);
    await join(owner, member);
    const promoted = await gql(owner, `mutation($userId: ID!) { changeTeamRole(userId: $userId, role: "admin") { role } }`, { userId: admin.userId });
    expect(promoted.data!.changeTeamRole.role).toBe("admin");
  });

  const act = (who: Account, mutation: string, variables: Record<string, unknown>) => gql(who, mutation, { tenantId: owner.userId, ...variables });
  const REMOVE = `mutation($tenantId: ID, $userId: ID!) { removeTeamMember(tenantId: $tenantId, userId: $userId) }`;
  const ROLE = `mutation($tenantId: ID, $userId: ID!, $role: String!) { changeTeamRole(tenantId: $tenantId, userId: $userId, role: $role) { role } }`;
  const TRANSFER = `mutation($tenantId: ID, $userId: ID!) { transferTeamOwnership(tenantId: $tenantId, userId: $userId) { role } }`;

  it("refuses a normal member inviting, removing or changing roles", async () => {
    expect(failure(await invite(member, stranger.email, owner.userId)).code).toBe("FORBIDDEN");
    expect(failure(await act(member, REMOVE, { userId: admin.userId })).code).toBe("FORBIDDEN");
    expect(failure(await act(member, ROLE, { userId: member.userId, role: "admin" })).code).toBe("FORBIDDEN");
  });

  it("answers a stranger as if the team's people did not exist", async () => {
    expect(failure(await act(stranger, REMOVE, { userId: member.userId }))).toEqual({ code: "NOT_FOUND", message: "User not found!" });
    expect(failure(await gql(stranger, TEAM, { tenantId: owner.userId })).code).toBe("NOT_FOUND");
    expect(failure(await invite(stranger, `x-${Date.now()}@example.com`, owner.userId)).code).toBe("NOT_FOUND");
  });

  it("lets an admin invite to the team, and refuses an admin removing or demoting the owner or taking ownership", async () => {
    expect((await invite(admin, `by-admin-${Date.now()}@example.com`, owner.userId)).errors).toBeUndefined();
    expect(failure(await act(admin, REMOVE, { userId: owner.userId })).code).toBe("FORBIDDEN");
    expect(failure(await act(admin, ROLE, { userId: owner.userId, role: "normal" })).code).toBe("FORBIDDEN");
    expect(failure(await act(admin, ROLE, { userId: admin.userId, role: "owner" })).code).toBe("BAD_USER_INPUT");
    expect(failure(await act(admin, TRANSFER, { userId: admin.userId })).code).toBe("FORBIDDEN");
    expect((await roles(owner))[owner.userId]).toBe("owner");
  });

  it("refuses the owner leaving its own team or giving up its role except by handing ownership on", async () => {
    expect(failure(await gql(owner, `mutation($tenantId: ID!) { leaveTeam(tenantId: $tenantId) }`, { tenantId: owner.userId })).code).toBe("FORBIDDEN");
    expect(failure(await act(owner, ROLE, { userId: owner.userId, role: "admin" }))).toEqual({ code: "BAD_USER_INPUT", message: "A team always has one owner: hand the ownership to another member instead." });
  });

  it("lets an admin remove a normal member, who then sees the team no more", async () => {
    const extra = await account();
    await join(owner, extra);
    expect((await act(admin, REMOVE, { userId: extra.userId })).data).toEqual({ removeTeamMember: true });
    expect((await gql(extra, JOINED)).data!.joinedTeams).toEqual([]);
    expect(failure(await gql(extra, TEAM, { tenantId: owner.userId })).code).toBe("NOT_FOUND");
  });

  it("lets a member leave", async () => {
    const leaving = await account();
    await join(owner, leaving);
    expect((await gql(leaving, `mutation($tenantId: ID!) { leaveTeam(tenantId: $tenantId) }`, { tenantId: owner.userId })).data).toEqual({ leaveTeam: true });
    expect((await roles(owner))[leaving.userId]).toBeUndefined();
  });

  it("hands ownership on explicitly: one owner always, the previous one stays as an admin", async () => {
    const [boss, heir] = [await account(), await account()];
    await join(boss, heir);
    expect((await gql(boss, TRANSFER, { tenantId: boss.userId, userId: heir.userId })).data!.transferTeamOwnership.role).toBe("owner");
    expect(await roles(boss)).toEqual({ [boss.userId]: "admin", [heir.userId]: "owner" });
    // The new owner now decides: it may demote the previous owner, who can no longer take ownership back.
    expect(failure(await gql(boss, TRANSFER, { tenantId: boss.userId, userId: boss.userId })).code).toBe("FORBIDDEN");
    expect((await gql(heir, ROLE, { tenantId: boss.userId, userId: boss.userId, role: "normal" })).data!.changeTeamRole.role).toBe("normal");
  });
});
