import { LessThan } from "typeorm";
import type { Config } from "../config";
import { Conflict, DomainError, FieldChecks, TooManyRequests, Unauthenticated } from "../platform/errors";
import { newId, randomToken } from "../platform/ids";
import { tokenHash } from "../platform/secrets";
import type { Platform } from "../platform";
import { AuthSession } from "./auth-session.entity";
import { hashPassword, verifyPassword } from "./password";
import type { SignedIn } from "./principal";
import { AVATAR_MAX_BYTES, AVATAR_PATTERN, COLOR_SCHEMAS, isLanguage, isTimezone } from "./profile-options";
import { SignInThrottle } from "./sign-in-throttle.entity";
import { TenantMember } from "./tenant-member.entity";
import { Tenant } from "./tenant.entity";
import { User } from "./user.entity";

/** The spec's rule: a new password must be longer than 8 characters. */
export const PASSWORD_MIN_LENGTH = 9;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RegisterInput {
  email: string;
  nickname: string;
  password: string;
  /** The interface language the account starts with; English when not given. */
  language?: string;
}

export interface LoginInput {
  email: string;
  password: string;
  remember?: boolean;
}

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
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

function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Accounts: sign-up with a personal tenant, sign-in with throttling, sessions, password and profile. */
export class AuthService {
  private readonly config: Config;

  constructor(private readonly platform: Platform) {
    this.config = platform.config;
  }

  private get users() {
    return this.platform.db.getRepository(User);
  }
  private get sessions() {
    return this.platform.db.getRepository(AuthSession);
  }
  private get throttles() {
    return this.platform.db.getRepository(SignInThrottle);
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.createQueryBuilder("u").where("lower(u.email) = :key", { key: emailKey(email) }).getOne();
  }

  async register(input: RegisterInput): Promise<User> {
    if (!this.config.registrationEnabled) throw new DomainError("FORBIDDEN", "errors.registrationDisabled");
    const email = input.email?.trim() ?? "";
    const nickname = input.nickname?.trim() ?? "";
    new FieldChecks()
      .check(email !== "", "email", "errors.emailRequired")
      .check(EMAIL_PATTERN.test(email) && email.length <= 255, "email", "errors.emailInvalid", { email })
      .check(nickname !== "", "nickname", "errors.nicknameRequired")
      .check(nickname.length <= 100, "nickname", "errors.nicknameTooLong")
      .check(!!input.password, "password", "errors.passwordRequired")
      .check((input.password ?? "").length >= PASSWORD_MIN_LENGTH, "password", "errors.passwordTooShort")
      .check(input.language === undefined || isLanguage(input.language), "language", "errors.languageInvalid")
      .throwIfAny();
    if (await this.findUserByEmail(email)) throw Conflict("errors.emailTaken", { email });

    const passwordHash = await hashPassword(input.password);
    const id = newId();
    try {
      await this.platform.db.transaction(async (tx) => {
        // The personal tenant shares the user's id, as RAGFlow's API expects (tenant_id == user id).
        await tx.insert(Tenant, { id, name: `${nickname}‘s Kingdom` });
        await tx.insert(User, { id, email, nickname, passwordHash, language: input.language ?? "en" });
        await tx.insert(TenantMember, { tenantId: id, userId: id, role: "owner" });
      });
    } catch (error) {
      // Two sign-ups with one address at the same moment: the unique index decides, the loser gets the same message.
      if ((error as { code?: string }).code === "23505") throw Conflict("errors.emailTaken", { email });
      throw error;
    }
    return this.users.findOneByOrFail({ id });
  }

  async login(input: LoginInput): Promise<SignedInSession> {
    const key = emailKey(input.email ?? "");
    new FieldChecks()
      .check(key !== "", "email", "errors.emailRequired")
      .check(!!input.password, "password", "errors.passwordRequired")
      .throwIfAny();
    await this.refuseWhileLocked(key);
    const user = await this.findUserByEmail(key);
    const valid = user !== null && (await verifyPassword(input.password, user.passwordHash));
    if (!user || !valid) {
      await this.recordFailure(key);
      throw Unauthenticated("errors.signInFailed");
    }
    if (!user.isActive) throw new DomainError("FORBIDDEN", "errors.accountDisabled");
    await this.throttles.delete({ emailKey: key });
    await this.users.update({ id: user.id }, { lastLoginAt: new Date() });
    return this.openSession(user, input.remember === true);
  }

  private async refuseWhileLocked(key: string): Promise<void> {
    const throttle = await this.throttles.findOneBy({ emailKey: key });
    const wait = throttle?.lockedUntil ? Math.ceil((throttle.lockedUntil.getTime() - Date.now()) / 1000) : 0;
    if (wait > 0) throw TooManyRequests("errors.signInThrottled", { seconds: wait });
  }

  /** After the free attempts, each further failure locks the address for twice as long as the one before. */
  private async recordFailure(key: string): Promise<void> {
    const { freeAttempts, baseLockSeconds, maxLockSeconds } = this.config.signInThrottle;
    const failures = ((await this.throttles.findOneBy({ emailKey: key }))?.failures ?? 0) + 1;
    const lockSeconds = failures >= freeAttempts ? Math.min(maxLockSeconds, baseLockSeconds * 2 ** (failures - freeAttempts)) : 0;
    const lockedUntil = lockSeconds > 0 ? new Date(Date.now() + lockSeconds * 1000) : null;
    await this.throttles.upsert({ emailKey: key, failures, lockedUntil }, ["emailKey"]);
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
    const session = await this.sessions.findOneBy({ tokenHash: tokenHash(token) });
    if (!session) return null;
    if (session.expiresAt.getTime() <= Date.now()) {
      await this.sessions.delete({ id: session.id });
      return null;
    }
    const user = await this.users.findOneBy({ id: session.userId });
    if (!user || !user.isActive) return null;
    return { kind: "session", user, tenantId: user.id, sessionId: session.id };
  }

  tenantOf(principal: SignedIn): Promise<Tenant> {
    return this.platform.db.getRepository(Tenant).findOneByOrFail({ id: principal.tenantId });
  }

  async logout(principal: SignedIn): Promise<void> {
    if (principal.kind === "session") await this.sessions.delete({ id: principal.sessionId });
  }

  /** Changes the password and signs out every other session of the user. */
  async changePassword(principal: SignedIn, input: ChangePasswordInput): Promise<void> {
    new FieldChecks()
      .check(!!input.currentPassword, "currentPassword", "errors.currentPasswordRequired")
      .check(!!input.newPassword, "newPassword", "errors.newPasswordRequired")
      .check((input.newPassword ?? "").length >= PASSWORD_MIN_LENGTH, "newPassword", "errors.passwordTooShort")
      .check(!!input.confirmPassword, "confirmPassword", "errors.confirmPasswordRequired")
      .check(input.confirmPassword === input.newPassword, "confirmPassword", "errors.passwordMismatch")
      .throwIfAny();
    const user = await this.users.findOneByOrFail({ id: principal.user.id });
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
      new FieldChecks().check(false, "currentPassword", "errors.currentPasswordWrong").throwIfAny();
    }
    const passwordHash = await hashPassword(input.newPassword);
    await this.users.update({ id: user.id }, { passwordHash });
    const keep = principal.kind === "session" ? principal.sessionId : "";
    await this.sessions.createQueryBuilder().delete().where("user_id = :userId AND id <> :keep", { userId: user.id, keep }).execute();
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
