import { createHash } from "node:crypto";
import { startTestServer, signUpAndIn, type TestServer } from "../../testing/app";
import { startGitHubServer, type GitHubTestServer } from "../../testing/github-oauth-server";
import { startOidcProvider, type OidcTestProvider } from "../../testing/oidc-provider";
import { freePort } from "../../testing/processes";
import { TenantMember } from "../tenant-member.entity";
import { Tenant } from "../tenant.entity";
import { User } from "../user.entity";
import { Identity } from "./identity.entity";

/**
 * Sign-in through a local OpenID Connect provider (oidc-provider) and a local server speaking GitHub's OAuth protocol,
 * driven as a browser does: redirects followed by hand, cookies kept per site.
 */

class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  private jar(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    if (!this.jars.has(origin)) this.jars.set(origin, new Map());
    return this.jars.get(origin)!;
  }

  /** One request, no redirect followed; the cookies it sets are kept (a Max-Age=0 cookie goes). */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ status: number; location: string | null; body: string }> {
    const jar = this.jar(url);
    const response = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "), ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=thu, 01 jan 1970/i.test(attribute))) jar.delete(name);
      else jar.set(name, pair.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    return { status: response.status, location: location && new URL(location, url).href, body: await response.text() };
  }
}

let server: TestServer;
let oidc: OidcTestProvider;
let github: GitHubTestServer;

const UNVERIFIED_LOGIN = "unverified";
const UNVERIFIED_EMAIL = "mallory-claims@example.com";

beforeAll(async () => {
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  [oidc, github] = await Promise.all([
    startOidcProvider({
      port: await freePort(),
      redirectUris: [`${app}/v1/auth/oidc/callback`, `${app}/v1/auth/google/callback`],
      accounts: { [UNVERIFIED_LOGIN]: { email: UNVERIFIED_EMAIL, email_verified: false, name: "Mallory" } },
    }),
    startGitHubServer(),
  ]);
  server = await startTestServer({
    PORT: String(port),
    AUTH_OIDC_ISSUER: oidc.issuer,
    AUTH_OIDC_CLIENT_ID: oidc.clientId,
    AUTH_OIDC_CLIENT_SECRET: oidc.clientSecret,
    AUTH_OIDC_NAME: "Harbour SSO",
    // Google is OpenID Connect at its own issuer: the local provider stands in for it.
    AUTH_GOOGLE_ISSUER: oidc.issuer,
    AUTH_GOOGLE_CLIENT_ID: oidc.clientId,
    AUTH_GOOGLE_CLIENT_SECRET: oidc.clientSecret,
    AUTH_GITHUB_URL: github.url,
    AUTH_GITHUB_API_URL: github.apiUrl,
    AUTH_GITHUB_CLIENT_ID: github.clientId,
    AUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
  });
});

afterAll(async () => {
  await server?.close();
  await oidc?.stop();
  await github?.close();
});

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Starts at Cairn; answers the redirect to the provider's sign-in page. */
async function start(browser: Browser, provider: string, redirect = "/knowledge"): Promise<string> {
  const answer = await browser.request(`${server.url}/v1/auth/${provider}/start?${new URLSearchParams({ redirect, remember: "1" })}`);
  expect(answer.status).toBe(302);
  return answer.location!;
}

/** Signs in at the local OpenID Connect provider with `login`; answers where the provider sends the browser back to. */
async function signInAtProvider(browser: Browser, authorizeUrl: string, login: string): Promise<string> {
  const interaction = await browser.request(authorizeUrl);
  expect(interaction.location).toMatch(/\/interaction\//);
  const submitted = await browser.request(interaction.location!, { method: "POST", form: { prompt: "login", login, password: "any" } });
  const resumed = await browser.request(submitted.location!);
  expect(resumed.location).toContain(`${server.url}/v1/auth/`);
  return resumed.location!;
}

interface Outcome {
  code: number;
  data: { token?: string; redirect?: string; messageKey?: string; params?: Record<string, unknown> };
}

/** Comes back to Cairn's callback, lands on the login page, and claims what the sign-in left there. */
async function finish(browser: Browser, callbackUrl: string, provider: string): Promise<Outcome> {
  const landed = await browser.request(callbackUrl);
  expect(landed.location).toBe(`${server.url}/login?sso=${provider}`);
  const claimed = await browser.request(`${server.url}/v1/auth/session`, { method: "POST" });
  return JSON.parse(claimed.body) as Outcome;
}

async function me(token: string): Promise<{ id: string; email: string; nickname: string }> {
  const answer = await server.graphql<{ me: { id: string; email: string; nickname: string } }>("{ me { id email nickname } }", {}, token);
  return answer.data!.me;
}

const identitiesOf = (userId: string) => server.platform.db.getRepository(Identity).findBy({ userId });

async function unlink(token: string): Promise<string | undefined> {
  const listed = await server.graphql<{ myIdentities: { id: string }[] }>("{ myIdentities { id provider } }", {}, token);
  const answer = await server.graphql(`mutation($id: ID!) { unlinkIdentity(id: $id) }`, { id: listed.data!.myIdentities[0].id }, token);
  return answer.errors?.[0]?.extensions.messageKey ?? "unlinked";
}

describe("sign-in with an OpenID Connect provider", () => {
  it("lists the configured providers for the login page, the OpenID Connect one under its configured name", async () => {
    const answer = await server.graphql<{ signInProviders: unknown[] }>("{ signInProviders { name label startUrl } }");
    expect(answer.data!.signInProviders).toEqual([
      { name: "github", label: "GitHub", startUrl: "/v1/auth/github/start" },
      { name: "google", label: "Google", startUrl: "/v1/auth/google/start" },
      { name: "oidc", label: "Harbour SSO", startUrl: "/v1/auth/oidc/start" },
    ]);
  });

  it("sends the browser to the provider with state, nonce and an S256 PKCE challenge, to come back to Cairn's callback", async () => {
    const browser = new Browser();
    const authorize = new URL(await start(browser, "oidc"));
    expect(authorize.origin).toBe(oidc.issuer);
    const params = authorize.searchParams;
    expect({ state: params.get("state")?.length, nonce: params.get("nonce")?.length, challenge: params.get("code_challenge")?.length, method: params.get("code_challenge_method") }).toEqual({
      state: 43,
      nonce: 43,
      challenge: 43,
      method: "S256",
    });
    expect(params.get("redirect_uri")).toBe(`${server.url}/v1/auth/oidc/callback`);
  });

  it("signs in for the first time: the account and its personal tenant are made, and the session is a normal one", async () => {
    const email = unique("ada");
    const browser = new Browser();
    const outcome = await finish(browser, await signInAtProvider(browser, await start(browser, "oidc"), email), "oidc");
    expect(outcome.code).toBe(0);
    expect(outcome.data.redirect).toBe("/knowledge");
    const user = await me(outcome.data.token!);
    expect(user).toMatchObject({ email, nickname: email.split("@")[0] });
    expect(await server.platform.db.getRepository(Tenant).existsBy({ id: user.id })).toBe(true);
    expect(await server.platform.db.getRepository(TenantMember).findOneBy({ tenantId: user.id, userId: user.id })).toMatchObject({ role: "owner" });
    expect(await identitiesOf(user.id)).toEqual([expect.objectContaining({ provider: "oidc", subject: email, email })]);
    // No password was made up for it: password sign-in fails as for any wrong password.
    expect((await server.platform.db.getRepository(User).findOneByOrFail({ id: user.id })).passwordHash).toBeNull();

    // The outcome is claimed once.
    const again = JSON.parse((await browser.request(`${server.url}/v1/auth/session`, { method: "POST" })).body) as Outcome;
    expect(again.data.messageKey).toBe("errors.sso.expired");

    // The next sign-in finds the same account through the linked identity.
    const second = new Browser();
    const next = await finish(second, await signInAtProvider(second, await start(second, "oidc"), email), "oidc");
    expect((await me(next.data.token!)).id).toBe(user.id);

    // Its only way to sign in cannot be unlinked.
    expect(await unlink(next.data.token!)).toBe("errors.sso.lastSignInMethod");
  });

  it("refuses a callback whose state is not the one this browser was given, or that comes to another browser", async () => {
    const browser = new Browser();
    const callback = new URL(await signInAtProvider(browser, await start(browser, "oidc"), unique("eve")));
    callback.searchParams.set("state", "forged-state");
    expect((await finish(browser, callback.href, "oidc")).data.messageKey).toBe("errors.sso.stateMismatch");

    const victim = new Browser();
    const attacker = new Browser();
    const attackersCallback = await signInAtProvider(attacker, await start(attacker, "oidc"), unique("attacker"));
    // Login CSRF: the victim's browser is sent the attacker's callback; it never started that sign-in.
    expect((await finish(victim, attackersCallback, "oidc")).data.messageKey).toBe("errors.sso.stateMismatch");
  });

  it("refuses an ID token whose nonce is not this sign-in's", async () => {
    const browser = new Browser();
    const authorize = new URL(await start(browser, "oidc"));
    authorize.searchParams.set("nonce", "a-nonce-from-another-sign-in");
    const outcome = await finish(browser, await signInAtProvider(browser, authorize.href, unique("replay")), "oidc");
    expect(outcome.data).toMatchObject({ messageKey: "errors.sso.idTokenRefused", params: { reason: "nonce" } });
  });

  it("does not link an address the provider has not verified to the account that has it", async () => {
    const owner = await server.graphql<{ register: { user: { id: string } } }>(
      `mutation($input: RegisterInput!) { register(input: $input) { user { id } } }`,
      { input: { email: UNVERIFIED_EMAIL, nickname: "Real owner", password: "correct horse battery" } },
    );
    const ownerId = owner.data!.register.user.id;
    const browser = new Browser();
    const outcome = await finish(browser, await signInAtProvider(browser, await start(browser, "oidc"), UNVERIFIED_LOGIN), "oidc");
    expect(outcome.data).toMatchObject({ messageKey: "errors.sso.emailUnverified", params: { provider: "Harbour SSO", email: UNVERIFIED_EMAIL } });
    expect(outcome.data.token).toBeUndefined();
    expect(await identitiesOf(ownerId)).toEqual([]);
  });

  it("signs in with Google as OpenID Connect at Google's issuer", async () => {
    const email = unique("grace");
    const browser = new Browser();
    const outcome = await finish(browser, await signInAtProvider(browser, await start(browser, "google"), email), "google");
    const user = await me(outcome.data.token!);
    expect(await identitiesOf(user.id)).toEqual([expect.objectContaining({ provider: "google", email })]);
  });

  it("goes back only to a page of Cairn: another site as the redirect ends on the home page", async () => {
    for (const redirect of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "/login"]) {
      const browser = new Browser();
      const outcome = await finish(browser, await signInAtProvider(browser, await start(browser, "oidc", redirect), unique("redirect")), "oidc");
      expect({ redirect, landing: outcome.data.redirect }).toEqual({ redirect, landing: "/my" });
    }
  });

  it("tells the login page when the provider is not one this server signs in with", async () => {
    const browser = new Browser();
    const unknown = await browser.request(`${server.url}/v1/auth/myspace/start`);
    expect(unknown.location).toBe(`${server.url}/login?sso=myspace`);
    const claimed = JSON.parse((await browser.request(`${server.url}/v1/auth/session`, { method: "POST" })).body) as Outcome;
    expect(claimed.data).toMatchObject({ messageKey: "errors.sso.unknownProvider" });
  });
});

describe("sign-in with GitHub", () => {
  const account = (email: string, verified: boolean) => ({
    id: Math.floor(Math.random() * 1e9),
    login: `gh-${email.split("@")[0]}`,
    name: "Margaret Hamilton",
    emails: [
      { email: `noreply-${email}`, primary: false, verified: true },
      { email, primary: true, verified },
    ],
  });

  it("sends the PKCE verifier whose S256 hash was the challenge, and makes the account from the primary address", async () => {
    const email = unique("margaret");
    github.next = { account: account(email, true) };
    const browser = new Browser();
    const authorize = new URL(await start(browser, "github"));
    const challenge = authorize.searchParams.get("code_challenge");
    const outcome = await finish(browser, (await browser.request(authorize.href)).location!, "github");
    expect(outcome.code).toBe(0);
    const verifier = github.verifiers.at(-1)!;
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(challenge);
    expect(await me(outcome.data.token!)).toMatchObject({ email, nickname: "Margaret Hamilton" });
  });

  it("links to the existing account that has the address GitHub verified, which can unlink it again", async () => {
    const existing = await signUpAndIn(server);
    github.next = { account: account(existing.email, true) };
    const browser = new Browser();
    const outcome = await finish(browser, (await browser.request(await start(browser, "github"))).location!, "github");
    expect((await me(outcome.data.token!)).id).toBe(existing.userId);
    expect(await identitiesOf(existing.userId)).toEqual([expect.objectContaining({ provider: "github", subject: String(github.next.account.id) })]);
    // The password still works: linking changed nothing else.
    const login = await server.graphql(`mutation($input: LoginInput!) { login(input: $input) { token } }`, { input: { email: existing.email, password: existing.password } });
    expect(login.errors).toBeUndefined();
    // With a password to sign in with, the GitHub account can be unlinked.
    expect(await unlink(outcome.data.token!)).toBe("unlinked");
    expect(await identitiesOf(existing.userId)).toEqual([]);
  });

  it("does not link to an existing account through an address GitHub has not verified", async () => {
    const existing = await signUpAndIn(server);
    github.next = { account: account(existing.email, false) };
    const browser = new Browser();
    const outcome = await finish(browser, (await browser.request(await start(browser, "github"))).location!, "github");
    expect(outcome.data).toMatchObject({ messageKey: "errors.sso.emailUnverified", params: { provider: "GitHub" } });
    expect(await identitiesOf(existing.userId)).toEqual([]);
  });

  it("tells the login page when the user declined at GitHub", async () => {
    github.next = { account: account(unique("declines"), true), deny: true };
    const browser = new Browser();
    const outcome = await finish(browser, (await browser.request(await start(browser, "github"))).location!, "github");
    expect(outcome.data).toMatchObject({ messageKey: "errors.sso.denied", params: { provider: "GitHub" } });
  });
});
