import type { PubSub } from "../platform/pubsub";
import type { Principal } from "../policies/principal";

/**
 * A credential that stopped working (a session signed out or ended by a password change, an API key deleted)
 * is announced on this pub/sub topic, so that every server process closes the WebSockets opened with it.
 */
export const CREDENTIAL_REVOKED_TOPIC = "auth.credentialRevoked";

export interface Credential {
  kind: "session" | "apiToken";
  id: string;
}

/** The credential a principal authenticated with, and when it expires by itself; none for anonymous and share visitors. */
export function credentialOf(principal: Principal): (Credential & { expiresAt: Date | null }) | null {
  if (principal.kind === "session") return { kind: "session", id: principal.sessionId, expiresAt: principal.expiresAt };
  if (principal.kind === "apiToken") return { kind: "apiToken", id: principal.tokenId, expiresAt: principal.expiresAt };
  return null;
}

export function publishRevoked(pubsub: PubSub, credentials: Credential[]): void {
  for (const credential of credentials) pubsub.publish(CREDENTIAL_REVOKED_TOPIC, { kind: credential.kind, id: credential.id } satisfies Credential);
}
