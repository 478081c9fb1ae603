
/**
 * Who is making a request: nobody, a signed-in browser session, a script holding an API token, or a
 * visitor of a shared assistant's page (spec §1, §6), who may chat with that one assistant and nothing else, or of a
 * shared flow's page, who may run that one flow.
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

/**
 * RAGFlow's tenant roles (`user_tenant.role`): the owner made at sign-up, admins and normal members of a team,
 * and "invite" — invited, with no access until the invitation is agreed.
 */
export const TENANT_ROLES = ["owner", "admin", "normal", "invite"] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

/** A tenant the user belongs to and how; read once when the principal is built, so that no check queries again. */
export interface Membership {
  tenantId: string;
  role: TenantRole;
}

export type Principal =
  | { kind: "anonymous" }
  | { kind: "session"; user: PrincipalUser; tenantId: string; memberships: readonly Membership[]; sessionId: string; expiresAt: Date }
  | { kind: "apiToken"; user: PrincipalUser; tenantId: string; memberships: readonly Membership[]; tokenId: string; expiresAt: Date | null }
  | SharePrincipal
  | FlowSharePrincipal;

/**
 * The bearer of a share token: no user, no tenant access, only the shared assistant's chat operations.
 * `visitorId` is who chats on the share page, when the request names them: a visitor sees only their own conversations.
 */
export type SharePrincipal = { kind: "share"; tenantId: string; assistantId: string; shareId: string; visitorId?: string };

/**
 * The bearer of a flow's share token (spec §2, API publishing): like a shared assistant's visitor, no user and no
 * tenant access, only running that one flow; `visitorId` scopes the sessions to the visitor who holds them.
 */
export type FlowSharePrincipal = { kind: "flowShare"; tenantId: string; flowId: string; shareId: string; visitorId?: string };

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
