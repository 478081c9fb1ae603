import { IsNull, LessThan, Not } from "typeorm";
import type { ApiTokenService } from "./api-token.service";
import type { Config } from "../platform/config";
import { Conflict, DomainError, FieldChecks, Forbidden, Unauthenticated } from "../platform/errors";
import { newId, randomToken } from "../platform/ids";
import { tokenHash } from "../platform/secrets";
import type { Platform } from "../platform";
import { authorizeAccountAction } from "./account-guard";
import { AuthSession } from "./auth-session.entity";
import { canonicalAddress, networkOf, type RequestOrigin } from "./client-network";
import { hashPassword, verifyAgainstDecoy, verifyPassword } from "./password";
import type { SignedIn } from "../policies/principal";
import { isLanguage } from "../platform/messages";
import { AVATAR_MAX_BYTES, AVATAR_PATTERN, COLOR_SCHEMAS, isTimezone } from "./profile-options";
import { publishRevoked } from "./revocation";
import { credentialHolder } from "./memberships";
import { claimTeamInvitations } from "./team.service";
import { TenantMember } from "./tenant-member.entity";
import { Tenant } from "./tenant.entity";
import { Throttle, type ThrottleKey, type ThrottleRule } from "./throttle";
import { User } from "./user.entity";

/** The spec's rule: a new password must be longer than 8 characters. */
export const PASSWORD_MIN_LENGTH = 9;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RegisterInput {
  email: string;
  nickname: string;
  /** null: an account that signs in through an identity provider (auth/identity) and has no password. */
  password: string | null;
  /** The interface language the account starts with; English when not given. */
  language?: string;
}

export interface LoginInput {
  email: string;
  password: string;
  remember?: boolean;
}

export interface ChangePasswordInput {
  /** Not asked of an account that has no password yet (see changePassword). */
  currentPassword?: string | null;
  newPassword: string;
  confirmPassword: string;
  /** Also delete every API key the user created (the password may have leaked with them). */
  revokeApiKeys?: boolean;
}

export interface ProfileInput {
  nickname?: string;
  avatar?: string | null;
  colorSchema?: string;
  timezone?: string;
  language?: string;
}

export interface SignedInSession {
  token: string;
  expiresAt: Date;
  user: User;
}

/** Whether the sign-up page should offer its form, and to which addresses. */
export interface SignUpPolicy {
  open: boolean;
  /** Why it is closed: switched off by the operator, or the configured number of accounts is reached. */
  closedReason: "disabled" | "full" | null;
  /** The e-mail domains that may sign up; empty: any. */
  emailDomains: string[];
}

function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** A counter forgets after an hour without failures: longer than the longest sign-in lock, so waiting it out gains nothing. */
const SIGN_IN_MEMORY_SECONDS = 3600;
/** Sign-ups beyond the free ones wait ten minutes, doubling up to a day; the count is kept for a day. */
const SIGN_UP_LOCK = { baseLockSeconds: 600, maxLockSeconds: 86_400, forgetAfterSeconds: 86_400 };

/** Accounts: sign-up with a personal tenant, sign-in with throttling, sessions, password and profile. */
export class AuthService {
  private readonly config: Config;
  private readonly throttle: Throttle;

  constructor(
    private readonly platform: Platform,
    private readonly apiTokens: ApiTokenService,
  ) {
    this.config = platform.config;
    this.throttle = new Throttle(platform.db, Math.max(SIGN_IN_MEMORY_SECONDS, SIGN_UP_LOCK.forgetAfterSeconds));
  }

  private get users() {
    return this.platform.db.getRepository(User);
  }
  private get sessions() {
    return this.platform.db.getRepository(AuthSession);
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.createQueryBuilder("u").where("lower(u.email) = :key", { key: emailKey(email) }).getOne();
  }

  async signUpPolicy(): Promise<SignUpPolicy> {
    const { registrationEnabled, registrationMaxUsers, registrationEmailDomains } = this.config;
    const full = registrationMaxUsers > 0 && (await this.users.count()) >= registrationMaxUsers;
    const closedReason = !registrationEnabled ? "disabled" : full ? "full" : null;
    return { open: closedReason === null, closedReason, emailDomains: registrationEmailDomains };
  }

  private refuseClosedSignUp(policy: SignUpPolicy): void {
    if (policy.closedReason === "disabled") throw Forbidden("errors.registrationDisabled");
    if (policy.closedReason === "full") throw Forbidden("errors.registrationFull");
  }

  /** Sign-ups are counted per client address and per network, whatever their outcome once the input is valid. */
  private signUpKeys(origin: RequestOrigin): ThrottleKey[] {
    const { addressFreeSignUps, networkFreeSignUps } = this.config.signUpThrottle;
    return [
      { key: `signup:address:${canonicalAddress(origin.address)}`, rule: { freeEvents: addressFreeSignUps, ...SIGN_UP_LOCK } },
      { key: `signup:network:${networkOf(origin.address)}`, rule: { freeEvents: networkFreeSignUps, ...SIGN_UP_LOCK } },
    ];
  }

  async register(input: RegisterInput, origin: RequestOrigin = {}): Promise<User> {
    this.refuseClosedSignUp(await this.signUpPolicy());
    const email = input.email?.trim() ?? "";
    const nickname = input.nickname?.trim() ?? "";
    const domains = this.config.registrationEmailDomains;
    new FieldChecks()
      .check(email !== "", "email", "errors.emailRequired")
      .check(EMAIL_PATTERN.test(email) && email.length <= 255, "email", "errors.emailInvalid", { email })
      .check(nickname !== "", "nickname", "errors.nicknameRequired")
      .check(nickname.length <= 100, "nickname", "errors.nicknameTooLong")
      .check(input.password === null || !!input.password, "password", "errors.passwordRequired")
      .check(input.password === null || (input.password ?? "").length >= PASSWORD_MIN_LENGTH, "password", "errors.passwordTooShort")
      .check(input.language === undefined || isLanguage(input.language), "language", "errors.languageInvalid")
      .check(domains.length === 0 || domains.includes(email.slice(email.lastIndexOf("@") + 1).toLowerCase()), "email", "errors.emailDomainNotAllowed", {
        domains: domains.join(", "),
      })
      .throwIfAny();
    await this.throttle.admit(this.signUpKeys(origin), "errors.signUpThrottled");
    if (await this.findUserByEmail(email)) throw Conflict("errors.emailTaken", { email });

    const passwordHash = input.password === null ? null : await hashPassword(input.password);
    const id = newId();
    const maxUsers = this.config.registrationMaxUsers;
    try {
      await this.platform.db.transaction(async (tx) => {
        if (maxUsers > 0) {
          // Concurrent sign-ups queue here, so that the cap holds exactly.
          await tx.query(`LOCK TABLE app_user IN SHARE ROW EXCLUSIVE MODE`);
          if ((await tx.count(User)) >= maxUsers) throw Forbidden("errors.registrationFull");
        }
        // The personal tenant shares the user's id, as RAGFlow's API expects (tenant_id == user id).
        await tx.insert(Tenant, { id, name: `${nickname}‘s Kingdom` });
        await tx.insert(User, { id, email, nickname, passwordHash, language: input.language ?? "en" });
        await tx.insert(TenantMember, { tenantId: id, userId: id, role: "owner" });
        await claimTeamInvitations(tx, id, email);
      });
    } catch (error) {
      // Two sign-ups with one address at the same moment: the unique index decides, the loser gets the same message.
      if ((error as { code?: string }).code === "23505") throw Conflict("errors.emailTaken", { email });
      throw error;
    }
    return this.users.findOneByOrFail({ id });
  }

  /** Creates the account and signs it in: whoever signs up is signed in at once (a session of the default length). */
  async signUp(input: RegisterInput, origin: RequestOrigin = {}): Promise<SignedInSession> {
    const user = await this.register(input, origin);
    await this.users.update({ id: user.id }, { lastLoginAt: new Date() });
    return this.openSession(await this.users.findOneByOrFail({ id: user.id }), false);
  }

  /**
   * The counters a sign-in attempt goes under: the account as tried from this network (guessing one password;
   * it locks only that network out of that account, never the owner elsewhere), the client address and its
   * network (one password sprayed over many accounts).
   */
  private signInKeys(email: string, origin: RequestOrigin): { account: ThrottleKey; sources: ThrottleKey[] } {
    const { accountFreeAttempts, addressFreeAttempts, networkFreeAttempts, baseLockSeconds, maxLockSeconds } = this.config.signInThrottle;
    const rule = (freeEvents: number): ThrottleRule => ({ freeEvents, baseLockSeconds, maxLockSeconds, forgetAfterSeconds: SIGN_IN_MEMORY_SECONDS });
    const network = networkOf(origin.address);
    return {
      // Hashed: what strangers type as an e-mail address (a password, at times) is not kept in the clear.
      account: { key: `signin:account:${tokenHash(email)}|${network}`, rule: rule(accountFreeAttempts) },
      sources: [
        { key: `signin:address:${canonicalAddress(origin.address)}`, rule: rule(addressFreeAttempts) },
        { key: `signin:network:${network}`, rule: rule(networkFreeAttempts) },
      ],
    };
  }

  async login(input: LoginInput, origin: RequestOrigin = {}): Promise<SignedInSession> {
    const key = emailKey(input.email ?? "");
    new FieldChecks()
      .check(key !== "", "email", "errors.emailRequired")
      .check(!!input.password, "password", "errors.passwordRequired")
      .throwIfAny();
    const { account, sources } = this.signInKeys(key, origin);
    // Counted as a failure until the password proves right; an unknown address is a failure like any other.
    await this.throttle.admit([account, ...sources], "errors.signInThrottled");
    const user = await this.findUserByEmail(key);
    // An account without a password (made by an identity provider) is refused as slowly as an unknown one.
    const valid = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDecoy(input.password);
    if (!user || !valid) throw Unauthenticated("errors.signInFailed");
    await this.throttle.clear([account.key]);
    await this.throttle.uncount(sources.map((s) => s.key));
    return this.signInVouchedFor(user, input.remember === true);
  }

  /** Signs in a user whose identity is proven (a right password, an identity provider's answer), unless the account is disabled. */
  async signInVouchedFor(user: User, remember: boolean): Promise<SignedInSession> {
    if (!user.isActive) throw new DomainError("FORBIDDEN", "errors.accountDisabled");
    await this.users.update({ id: user.id }, { lastLoginAt: new Date() });
    return this.openSession(user, remember);
  }

  private async openSession(user: User, remember: boolean): Promise<SignedInSession> {
    const token = randomToken(32);
    const lifetimeMs = remember ? this.config.rememberMeDays * 86_400_000 : this.config.sessionTtlHours * 3_600_000;
    const expiresAt = new Date(Date.now() + lifetimeMs);
    await this.sessions.delete({ userId: user.id, expiresAt: LessThan(new Date()) });
    await this.sessions.insert({ id: newId(), userId: user.id, tokenHash: tokenHash(token), remember, expiresAt });
    return { token, expiresAt, user };
  }

  /** The signed-in user behind a session token, or null when the token is unknown or expired. */
  async authenticateSession(token: string): Promise<SignedIn | null> {
    const found = await credentialHolder(this.platform.db, "session", tokenHash(token));
    if (!found) return null;
    const expiresAt = found.expiresAt!;
    if (expiresAt.getTime() <= Date.now()) {
      await this.sessions.delete({ id: found.credentialId });
      return null;
    }
    if (!found.active) return null;
    return { kind: "session", user: found.user, tenantId: found.tenantId, memberships: found.memberships, sessionId: found.credentialId, expiresAt };
  }

  tenantOf(principal: SignedIn): Promise<Tenant> {
    return this.platform.db.getRepository(Tenant).findOneByOrFail({ id: principal.tenantId });
  }

  /** The signed-in person's account as stored now (a principal carries only their id and language). */
  currentUser(principal: SignedIn): Promise<User> {
    return this.users.findOneByOrFail({ id: principal.user.id });
  }

  async logout(principal: SignedIn): Promise<void> {
    if (principal.kind !== "session") return;
    await this.sessions.delete({ id: principal.sessionId });
    publishRevoked(this.platform.pubsub, [{ kind: "session", id: principal.sessionId }]);
  }

  /**
   * Changes the password and signs out every other session of the user; deletes the user's API keys when asked.
   * An account made by an identity provider has no password yet: its first one is set without a current one.
   */
  async changePassword(principal: SignedIn, input: ChangePasswordInput): Promise<void> {
    authorizeAccountAction(principal, "changePassword");
    const user = await this.users.findOneByOrFail({ id: principal.user.id });
    const firstPassword = user.passwordHash === null;
    new FieldChecks()
      .check(firstPassword || !!input.currentPassword, "currentPassword", "errors.currentPasswordRequired")
      .check(!!input.newPassword, "newPassword", "errors.newPasswordRequired")
      .check((input.newPassword ?? "").length >= PASSWORD_MIN_LENGTH, "newPassword", "errors.passwordTooShort")
      .check(!!input.confirmPassword, "confirmPassword", "errors.confirmPasswordRequired")
      .check(input.confirmPassword === input.newPassword, "confirmPassword", "errors.passwordMismatch")
      .throwIfAny();
    if (!firstPassword && !(await verifyPassword(input.currentPassword ?? "", user.passwordHash!))) {
      new FieldChecks().check(false, "currentPassword", "errors.currentPasswordWrong").throwIfAny();
    }
    const passwordHash = await hashPassword(input.newPassword);
    // A first password is set only while there is none: of two racing requests, the later one must prove the first's password.
    const changed = await this.users.update(firstPassword ? { id: user.id, passwordHash: IsNull() } : { id: user.id }, { passwordHash });
    if (changed.affected === 0) new FieldChecks().check(false, "currentPassword", "errors.currentPasswordRequired").throwIfAny();
    const ended = await this.sessions.find({ select: { id: true }, where: { userId: user.id, id: Not(principal.sessionId) } });
    if (ended.length > 0) {
      await this.sessions.delete(ended.map((s) => s.id));
      publishRevoked(this.platform.pubsub, ended.map((s) => ({ kind: "session", id: s.id })));
    }
    if (input.revokeApiKeys) await this.apiTokens.deleteAllCreatedBy(user.id);
  }

  /** Username, photo, colour schema, time zone and language. The e-mail address is not part of a profile change. */
  async updateProfile(principal: SignedIn, input: ProfileInput): Promise<User> {
    const changes: Partial<User> = {};
    const checks = new FieldChecks();
    if (input.nickname !== undefined) {
      changes.nickname = input.nickname.trim();
      checks
        .check(changes.nickname !== "", "nickname", "errors.usernameRequired")
        .check(changes.nickname.length <= 100, "nickname", "errors.nicknameTooLong");
    }
    if (input.avatar !== undefined) {
      changes.avatar = input.avatar || null;
      checks
        .check(!changes.avatar || AVATAR_PATTERN.test(changes.avatar), "avatar", "errors.avatarInvalid")
        .check(!changes.avatar || changes.avatar.length <= (AVATAR_MAX_BYTES * 4) / 3 + 64, "avatar", "errors.avatarTooLarge");
    }
    if (input.colorSchema !== undefined) {
      changes.colorSchema = input.colorSchema;
      checks.check((COLOR_SCHEMAS as readonly string[]).includes(input.colorSchema), "colorSchema", "errors.colorSchemaInvalid");
    }
    if (input.timezone !== undefined) {
      changes.timezone = input.timezone;
      checks.check(input.timezone !== "" && isTimezone(input.timezone), "timezone", "errors.timezoneInvalid");
    }
    if (input.language !== undefined) {
      changes.language = input.language;
      checks.check(isLanguage(input.language), "language", "errors.languageInvalid");
    }
    checks.throwIfAny();
    if (Object.keys(changes).length > 0) await this.users.update({ id: principal.user.id }, changes);
    return this.users.findOneByOrFail({ id: principal.user.id });
  }
}
