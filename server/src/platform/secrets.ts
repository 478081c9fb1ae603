import { createHash } from "node:crypto";

/**
 * Session and API tokens carry 256 random bits, so a fast SHA-256 is enough to store them safely
 * (unlike passwords, they cannot be guessed from a dictionary), and it lets a token be looked up by its hash.
 */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
