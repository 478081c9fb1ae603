import { createHash, timingSafeEqual } from "node:crypto";
import { DomainError, NotFound } from "../../platform/errors";
import { newId, randomToken } from "../../platform/ids";
import { isLanguage } from "../../platform/messages";
import type { Platform } from "../../platform";
import { SecretBox } from "../../platform/secret-box";
import type { SignedIn } from "../../policies/principal";
import { authorizeAccountAction } from "../account-guard";
import type { AuthService, SignedInSession } from "../auth.service";
import type { RequestOrigin } from "../client-network";
import { User } from "../user.entity";
import { Identity } from "./identity.entity";
import type { IdentityProvider, ProviderProfile } from "./provider";
import { configuredProviders } from "./registry";

/** How long someone may take at the provider (signing in, a second factor, consent) before the sign-in must start again. */
export const FLOW_SECONDS = 10 * 60;
/** The login page claims the session as soon as the provider's callback has sent the browser there. */
export const OUTCOME_SECONDS = 60;
/** Where a sign-in goes when it was not given a page of this application to come back to. */
const HOME_PATH = "/my";

/** What the browser asks for when it sets off to a provider: the page to come back to, and the login form's choices. */
export interface SignInRequest {
  redirect?: string;
  remember?: boolean;
  language?: string;
}

/** One sign-in between its start and the provider's callback, sealed into a short-lived httpOnly cookie of that browser. */
interface Flow {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirect: string;
  remember: boolean;
  language?: string;
  expiresAt: number;
}

/** How a sign-in ended, sealed into a cookie that only the login page's claim reads: a session, or why there is none. */
export type SignInOutcome =
  | { ok: true; token: string; expiresAt: string; redirect: string }
  | { ok: false; messageKey: string; params: Record<string, unknown> };

/** What the provider's callback carries (RFC 6749 §4.1.2). */
export interface CallbackParams {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * Only a path of this application is a place to return to after sign-in, never another site ("//evil.example",
 * "/\\evil.example", "https://evil.example") nor the login page itself.
 */
export function safeRedirect(raw: string | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\") || /[\u0000-\u001f\\]/.test(raw)) return HOME_PATH;
  if (raw === "/login" || raw.startsWith("/login?")) return HOME_PATH;
  return raw;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

const failure = (messageKey: string, params: Record<string, unknown> = {}) => new DomainError("UNAUTHENTICATED", messageKey, params);

/**
 * Sign-in with identity providers (GitHub, Google, any OpenID Connect provider): the flow around every provider.
 * A provider account already linked signs in as its user; otherwise an account with the same e-mail address is linked
 * when the provider vouches for the address; otherwise a new account with its personal tenant is made by the one
 * function that makes accounts (AuthService.register). The session is the one password sign-in opens.
 */
export class IdentitySignInService {
  private readonly providers: IdentityProvider[];
  private readonly seals: SecretBox;

  constructor(
    private readonly platform: Platform,
    private readonly auth: AuthService,
    providers: IdentityProvider[] = configuredProviders(platform.config.identityProviders),
  ) {
    this.providers = providers;
    this.seals = SecretBox.fromConfig(platform.config);
  }

  private get identities() {
    return this.platform.db.getRepository(Identity);
  }

  /** The providers the login page offers, in order. */
  enabledProviders(): readonly IdentityProvider[] {
    return this.providers;
  }

  private provider(name: string): IdentityProvider {
    const provider = this.providers.find((candidate) => candidate.name === name);
    if (!provider) throw NotFound("errors.sso.unknownProvider", { provider: name });
    return provider;
  }

  private redirectUri(provider: IdentityProvider, origin: string): string {
    return `${this.platform.config.publicUrl ?? origin}/v1/auth/${provider.name}/callback`;
  }

  /**
   * The provider's sign-in address, and the sealed flow the browser keeps until the callback: its state, nonce and
   * PKCE verifier never leave the server in the clear. `origin` is the request's, used when PUBLIC_URL is not set.
   */
  async start(name: string, request: SignInRequest, origin: string): Promise<{ location: string; sealedFlow: string }> {
    const provider = this.provider(name);
    const flow: Flow = {
      provider: provider.name,
      state: randomToken(32),
      nonce: randomToken(32),
      codeVerifier: randomToken(32),
      redirect: safeRedirect(request.redirect),
      remember: request.remember === true,
      language: request.language !== undefined && isLanguage(request.language) ? request.language : undefined,
      expiresAt: Date.now() + FLOW_SECONDS * 1000,
    };
    const location = await provider.authorizationUrl({
      redirectUri: this.redirectUri(provider, origin),
      state: flow.state,
      nonce: flow.nonce,
      codeChallenge: createHash("sha256").update(flow.codeVerifier).digest("base64url"),
    });
    return { location, sealedFlow: this.seals.seal(JSON.stringify(flow)) };
  }

  private openFlow(sealed: string | undefined): Flow | null {
    if (!sealed) return null;
    try {
      return JSON.parse(this.seals.open(sealed)) as Flow;
    } catch {
      return null;
    }
  }

  /**
   * The provider's callback: the flow this browser started (same provider, same state, not expired), the code traded
   * for the provider's account, and that account signed in. Refusals are DomainErrors with `errors.sso.*` keys.
   */
  async finish(name: string, params: CallbackParams, sealedFlow: string | undefined, origin: string, client: RequestOrigin): Promise<{ session: SignedInSession; redirect: string }> {
    const provider = this.provider(name);
    const flow = this.openFlow(sealedFlow);
    // No flow, another provider's, or another state: not the sign-in this browser started (RFC 6749 §10.12).
    if (!flow || flow.provider !== provider.name || !sameSecret(params.state, flow.state)) throw failure("errors.sso.stateMismatch");
    if (flow.expiresAt < Date.now()) throw failure("errors.sso.expired");
    if (params.error === "access_denied") throw failure("errors.sso.denied", { provider: provider.label });
    if (params.error || !params.code) throw failure("errors.sso.providerError", { provider: provider.label });
    const profile = await provider.profileFor({ code: params.code, redirectUri: this.redirectUri(provider, origin), codeVerifier: flow.codeVerifier, nonce: flow.nonce });
    const user = await this.accountFor(provider, profile, flow.language, client);
    return { session: await this.auth.signInVouchedFor(user, flow.remember), redirect: flow.redirect };
  }

  private async accountFor(provider: IdentityProvider, profile: ProviderProfile, language: string | undefined, client: RequestOrigin): Promise<User> {
    const users = this.platform.db.getRepository(User);
    const linked = await this.identities.findOneBy({ provider: provider.name, subject: profile.subject });
    if (linked) {
      if (profile.email && profile.email !== linked.email) await this.identities.update({ id: linked.id }, { email: profile.email });
      return users.findOneByOrFail({ id: linked.userId });
    }
    if (!profile.email) throw failure("errors.sso.noEmail", { provider: provider.label });
    const existing = await this.auth.findUserByEmail(profile.email);
    // Only an address the provider vouches for proves the person owns the account that has it.
    if (existing && !profile.emailVerified) throw failure("errors.sso.emailUnverified", { provider: provider.label, email: profile.email });
    // Sign-up restricted to some domains takes an address only when its owner is known to hold it.
    if (!existing && !profile.emailVerified && this.platform.config.registrationEmailDomains.length > 0) {
      throw failure("errors.sso.emailUnverified", { provider: provider.label, email: profile.email });
    }
    const nickname = (profile.name?.trim() || profile.email.slice(0, profile.email.indexOf("@"))).slice(0, 100);
    const user = existing ?? (await this.auth.register({ email: profile.email, nickname, password: null, language }, client));
    await this.identities.insert({ id: newId(), provider: provider.name, subject: profile.subject, userId: user.id, email: profile.email });
    return user;
  }

  sealOutcome(outcome: SignInOutcome): string {
    return this.seals.seal(JSON.stringify({ outcome, expiresAt: Date.now() + OUTCOME_SECONDS * 1000 }));
  }

  /** The outcome the callback left for this browser, or null when there is none (or it is too old to trust). */
  openOutcome(sealed: string | undefined): SignInOutcome | null {
    if (!sealed) return null;
    try {
      const { outcome, expiresAt } = JSON.parse(this.seals.open(sealed)) as { outcome: SignInOutcome; expiresAt: number };
      return expiresAt >= Date.now() ? outcome : null;
    } catch {
      return null;
    }
  }

  /** The provider accounts linked to the signed-in user. */
  linkedIdentities(principal: SignedIn): Promise<Identity[]> {
    return this.identities.find({ where: { userId: principal.user.id }, order: { createdAt: "ASC" } });
  }

  /** Unlinks one of the user's provider accounts, unless it is the only way left to sign in (no password, no other identity). */
  async unlink(principal: SignedIn, id: string): Promise<void> {
    authorizeAccountAction(principal, "manageIdentities");
    const identity = await this.identities.findOneBy({ id, userId: principal.user.id });
    if (!identity) throw NotFound("errors.sso.identityNotFound");
    const user = await this.platform.db.getRepository(User).findOneByOrFail({ id: principal.user.id });
    const others = await this.identities.countBy({ userId: user.id });
    if (!user.passwordHash && others <= 1) throw new DomainError("CONFLICT", "errors.sso.lastSignInMethod", { provider: identity.provider });
    await this.identities.delete({ id: identity.id });
  }
}
