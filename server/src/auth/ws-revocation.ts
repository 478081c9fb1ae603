import type { WebSocket } from "ws";
import type { Principal } from "../policies/principal";
import { CREDENTIAL_REVOKED_TOPIC, credentialOf, type Credential } from "./revocation";
import { followTopic, type PubSub } from "../platform/pubsub";

/** graphql-ws's close code for an unauthenticated socket: its client ends every operation with an error and does not retry. */
const UNAUTHORIZED_CLOSE = { code: 4401, reason: "Unauthorized" };
/** setTimeout's longest delay (~24.8 days); a later expiry is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function keyOf(credential: Credential): string {
  return `${credential.kind}:${credential.id}`;
}

/**
 * The graphql-ws sockets of each credential, closed when the credential is revoked (an event on the pub/sub port,
 * published by whichever process signed the session out or deleted the key) or when it expires. A socket carries
 * one credential, from its connection parameters, so closing it ends exactly the operations that credential opened.
 */
export class RevocableSockets {
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly tracked = new WeakSet<WebSocket>();
  private readonly revocations: { close(): Promise<void> };

  constructor(pubsub: PubSub) {
    this.revocations = followTopic(pubsub, CREDENTIAL_REVOKED_TOPIC, "credential revocations", (message) => this.closeAll(keyOf(message as Credential)));
  }

  /** Remembers the socket under the credential of the principal it authenticated as (once per socket). */
  track(socket: WebSocket, principal: Principal): void {
    const credential = credentialOf(principal);
    if (!credential || this.tracked.has(socket)) return;
    this.tracked.add(socket);
    const key = keyOf(credential);
    let group = this.sockets.get(key);
    if (!group) this.sockets.set(key, (group = new Set()));
    group.add(socket);
    let timer: NodeJS.Timeout | undefined;
    const armExpiry = () => {
      if (!credential.expiresAt) return;
      const left = credential.expiresAt.getTime() - Date.now();
      if (left <= 0) return socket.close(UNAUTHORIZED_CLOSE.code, UNAUTHORIZED_CLOSE.reason);
      timer = setTimeout(armExpiry, Math.min(left, MAX_TIMER_MS));
      timer.unref();
    };
    armExpiry();
    socket.once("close", () => {
      clearTimeout(timer);
      group.delete(socket);
      if (group.size === 0 && this.sockets.get(key) === group) this.sockets.delete(key);
    });
  }

  private closeAll(key: string): void {
    for (const socket of this.sockets.get(key) ?? []) socket.close(UNAUTHORIZED_CLOSE.code, UNAUTHORIZED_CLOSE.reason);
  }

  close(): Promise<void> {
    return this.revocations.close();
  }
}
