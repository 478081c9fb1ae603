/**
 * One identity provider, as the sign-in flow (identity-sign-in.ts) drives it and the login page shows it. Each
 * provider is a module of this folder that describes itself (`IdentityProviderModule`) and is listed once in
 * registry.ts; the flow around it (state, nonce, PKCE, accounts, sessions) is the same for all.
 */
export interface IdentityProvider {
  /** In URLs (/v1/auth/{name}/…) and in the identities table: github, google, oidc. */
  readonly name: string;
  /** What the login page's button names: "GitHub", "Google", or the configured name of an OpenID Connect provider. */
  readonly label: string;
  /** Where the browser goes to sign in at the provider. */
  authorizationUrl(request: AuthorizationRequest): Promise<string>;
  /** Trades the code the provider sent back for who signed in, checking what the provider's protocol lets it check. */
  profileFor(exchange: CodeExchange): Promise<ProviderProfile>;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  /** Bound into an OpenID Connect ID token; providers without ID tokens (GitHub) ignore it. */
  nonce: string;
  /** PKCE (RFC 7636): base64url(SHA-256(verifier)), sent as method S256. */
  codeChallenge: string;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
}

export interface ProviderProfile {
  /** The provider's stable id of the account. */
  subject: string;
  email: string | null;
  /** Whether the provider vouches that the account owns `email`: only then may it sign in to an existing account with that address. */
  emailVerified: boolean;
  /** A display name for a new account. */
  name: string | null;
}

/** A provider module: it makes its provider from its section of the configuration (registry.ts asks it when that section is set). */
export interface IdentityProviderModule<Settings> {
  create(settings: Settings): IdentityProvider;
}
