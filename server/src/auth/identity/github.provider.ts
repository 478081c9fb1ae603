import type { IdentityProvidersConfig } from "../../platform/config";
import { DomainError } from "../../platform/errors";
import type { AuthorizationRequest, CodeExchange, IdentityProvider, IdentityProviderModule, ProviderProfile } from "./provider";
import { objectOf, providerJson, providerUnavailable } from "./provider-http";

type GitHubSettings = NonNullable<IdentityProvidersConfig["github"]>;

const LABEL = "GitHub";
/** The profile, and the addresses with their verification (a profile's public e-mail may be unverified, or hidden). */
const SCOPE = "read:user user:email";
const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };

/**
 * GitHub's OAuth 2.0 web flow (it issues no ID token): the code is traded for an access token, with the PKCE verifier,
 * and the account is read from the REST API: /user for its id and name, /user/emails for the primary address and
 * whether GitHub verified it.
 */
class GitHubProvider implements IdentityProvider {
  readonly name = "github";
  readonly label = LABEL;

  constructor(private readonly settings: GitHubSettings) {}

  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    const url = new URL(`${this.settings.url.replace(/\/+$/, "")}/login/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: request.redirectUri,
      scope: SCOPE,
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: "S256",
    }).toString();
    return url.href;
  }

  async profileFor(exchange: CodeExchange): Promise<ProviderProfile> {
    const { url, apiUrl, clientId, clientSecret } = this.settings;
    const tokens = objectOf(
      LABEL,
      await providerJson(LABEL, `${url.replace(/\/+$/, "")}/login/oauth/access_token`, {
        method: "POST",
        form: { client_id: clientId, client_secret: clientSecret, code: exchange.code, redirect_uri: exchange.redirectUri, code_verifier: exchange.codeVerifier },
      }),
    );
    // GitHub answers a refused code (used, expired, wrong verifier) with HTTP 200 and an `error` field.
    if (typeof tokens.access_token !== "string") {
      throw new DomainError("UNAUTHENTICATED", "errors.sso.codeRefused", { provider: LABEL });
    }
    const headers = { ...API_HEADERS, authorization: `Bearer ${tokens.access_token}` };
    const api = apiUrl.replace(/\/+$/, "");
    const user = objectOf(LABEL, await providerJson(LABEL, `${api}/user`, { headers }));
    const emails = await providerJson(LABEL, `${api}/user/emails`, { headers });
    if (typeof user.id !== "number" && typeof user.id !== "string") throw providerUnavailable(LABEL);
    const primary = (Array.isArray(emails) ? emails : []).map((entry) => objectOf(LABEL, entry)).find((entry) => entry.primary === true);
    return {
      subject: String(user.id),
      email: typeof primary?.email === "string" ? primary.email : null,
      emailVerified: primary?.verified === true,
      name: typeof user.name === "string" && user.name !== "" ? user.name : typeof user.login === "string" ? user.login : null,
    };
  }
}

export const githubProvider: IdentityProviderModule<GitHubSettings> = {
  create: (settings) => new GitHubProvider(settings),
};
