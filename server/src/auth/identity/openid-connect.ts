import type { JsonWebKey } from "node:crypto";
import { verifyIdToken } from "./id-token";
import type { AuthorizationRequest, CodeExchange, IdentityProvider, ProviderProfile } from "./provider";
import { objectOf, providerJson, providerUnavailable } from "./provider-http";

export interface OpenIdSettings {
  name: string;
  label: string;
  issuer: string;
  /** Issuer names the ID token may carry besides `issuer`. */
  alsoIssuers?: string[];
  clientId: string;
  clientSecret: string;
}

interface Discovery {
  /** As the provider spells it, which its ID tokens repeat. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
  /** client_secret_basic unless the provider offers only client_secret_post. */
  secretInForm: boolean;
}

/** Discovery documents and key sets change rarely; a provider's keys are asked again at once for an unknown key id. */
const CACHE_MS = 10 * 60 * 1000;

interface Cached<T> {
  value: T;
  until: number;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * An OpenID Connect provider found from its issuer (Discovery 1.0), signing in with the authorization code flow,
 * PKCE and a nonce, and trusting only an ID token verified against the provider's published keys.
 */
export class OpenIdConnectProvider implements IdentityProvider {
  readonly name: string;
  readonly label: string;
  private discovery: Cached<Discovery> | null = null;
  private keySet: Cached<JsonWebKey[]> | null = null;

  constructor(private readonly settings: OpenIdSettings) {
    this.name = settings.name;
    this.label = settings.label;
  }

  private async discover(): Promise<Discovery> {
    if (this.discovery && this.discovery.until > Date.now()) return this.discovery.value;
    const { issuer, label } = this.settings;
    const document = objectOf(label, await providerJson(label, `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`));
    const authorizationEndpoint = text(document.authorization_endpoint);
    const tokenEndpoint = text(document.token_endpoint);
    const jwksUri = text(document.jwks_uri);
    // Discovery §4.3: the document must name the issuer it was fetched for (a trailing slash aside), or its keys vouch for someone else.
    const named = text(document.issuer);
    if (named?.replace(/\/+$/, "") !== issuer.replace(/\/+$/, "") || !authorizationEndpoint || !tokenEndpoint || !jwksUri) throw providerUnavailable(label);
    const methods = Array.isArray(document.token_endpoint_auth_methods_supported) ? document.token_endpoint_auth_methods_supported : ["client_secret_basic"];
    const value: Discovery = {
      issuer: named,
      authorizationEndpoint,
      tokenEndpoint,
      jwksUri,
      userinfoEndpoint: text(document.userinfo_endpoint),
      secretInForm: !methods.includes("client_secret_basic") && methods.includes("client_secret_post"),
    };
    this.discovery = { value, until: Date.now() + CACHE_MS };
    return value;
  }

  private async keys(fresh: boolean): Promise<JsonWebKey[]> {
    if (!fresh && this.keySet && this.keySet.until > Date.now()) return this.keySet.value;
    const { label } = this.settings;
    const answer = objectOf(label, await providerJson(label, (await this.discover()).jwksUri));
    const keys = Array.isArray(answer.keys) ? (answer.keys as JsonWebKey[]) : [];
    this.keySet = { value: keys, until: Date.now() + CACHE_MS };
    return keys;
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    const url = new URL((await this.discover()).authorizationEndpoint);
    url.search = new URLSearchParams({
      ...Object.fromEntries(url.searchParams),
      response_type: "code",
      client_id: this.settings.clientId,
      redirect_uri: request.redirectUri,
      scope: "openid email profile",
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: "S256",
    }).toString();
    return url.href;
  }

  async profileFor(exchange: CodeExchange): Promise<ProviderProfile> {
    const { clientId, clientSecret, alsoIssuers = [], label } = this.settings;
    const discovery = await this.discover();
    const form: Record<string, string> = { grant_type: "authorization_code", code: exchange.code, redirect_uri: exchange.redirectUri, code_verifier: exchange.codeVerifier };
    // RFC 6749 §2.3.1: the id and secret are form-encoded before they go into Basic credentials.
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64");
    const tokens = objectOf(
      label,
      await providerJson(label, discovery.tokenEndpoint, {
        method: "POST",
        form: discovery.secretInForm ? { ...form, client_id: clientId, client_secret: clientSecret } : form,
        headers: discovery.secretInForm ? {} : { authorization: `Basic ${basic}` },
      }),
    );
    const idToken = text(tokens.id_token);
    if (!idToken) throw providerUnavailable(label);
    const claims = await verifyIdToken(idToken, { issuers: [discovery.issuer, ...alsoIssuers], clientId, nonce: exchange.nonce, keys: (fresh) => this.keys(fresh) });
    const accessToken = text(tokens.access_token);
    // Many providers (oidc-provider among them) keep the profile claims for the userinfo endpoint when they issue an access token.
    const profile = text(claims.email) || !discovery.userinfoEndpoint || !accessToken ? claims : await this.userinfo(discovery.userinfoEndpoint, accessToken, String(claims.sub));
    return {
      subject: String(claims.sub),
      email: text(profile.email),
      emailVerified: profile.email_verified === true || profile.email_verified === "true",
      name: text(profile.name) ?? text(profile.preferred_username),
    };
  }

  /** Core §5.3.2: the userinfo answer counts only when it is about the ID token's subject. */
  private async userinfo(endpoint: string, accessToken: string, subject: string): Promise<Record<string, unknown>> {
    const { label } = this.settings;
    const answer = objectOf(label, await providerJson(label, endpoint, { headers: { authorization: `Bearer ${accessToken}` } }));
    if (answer.sub !== subject) throw providerUnavailable(label);
    return answer;
  }
}
