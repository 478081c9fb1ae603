import type { User } from "./user.entity";

/** Who is making a request: nobody, a signed-in browser session, or a script holding an API token. */
export type Principal =
  | { kind: "anonymous" }
  | { kind: "session"; user: User; tenantId: string; sessionId: string }
  | { kind: "apiToken"; user: User; tenantId: string; tokenId: string };

export type SignedIn = Exclude<Principal, { kind: "anonymous" }>;

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
