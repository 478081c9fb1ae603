
/**
 * Who is making a request: nobody, a signed-in browser session, a script holding an API token, or a
 * visitor of a shared assistant's page (spec §1, §6), who may chat with that one assistant and nothing else.
 * `kind` says how the request authenticated, which decides what it may do (auth/account-guard.ts); `expiresAt`
 * is when the credential stops working by itself (null: never), so that open subscriptions end with it.
 */
/**
 * The person behind a signed-in principal. The user entity lives with accounts (auth/), above this ground; a
 * principal needs only who they are and the language they read.
 */
export interface PrincipalUser {
  id: string;
  language: string;
}

export type Principal =
  | { kind: "anonymous" }
  | { kind: "session"; user: PrincipalUser; tenantId: string; sessionId: string; expiresAt: Date }
  | { kind: "apiToken"; user: PrincipalUser; tenantId: string; tokenId: string; expiresAt: Date | null }
  | SharePrincipal;

/** The bearer of a share token: no user, no tenant access, only the shared assistant's chat operations. */
export type SharePrincipal = { kind: "share"; tenantId: string; assistantId: string; shareId: string };

/** A member of a tenant acting as such: what every operation outside the shared chat requires. */
export type SignedIn = Extract<Principal, { kind: "session" | "apiToken" }>;

export function isSignedIn(principal: Principal): principal is SignedIn {
  return principal.kind === "session" || principal.kind === "apiToken";
}

export const ANONYMOUS: Principal = { kind: "anonymous" };

/**
 * The credential of an `Authorization` header: "Bearer <token>" as the REST API and GraphQL clients
 * send it, or the bare token as RAGFlow's web API does.
 */
export function bearerToken(header: string | undefined | null): string | undefined {
  const parts = (header ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : parts[1];
}
