import fs from "node:fs";

/** Owner-only modes for everything Cairn keeps: tenants' documents, the database, the server key, the model cache. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Creates a directory (and its missing parents) that only its owner can enter, and narrows one that already
 * exists: an installation from before this rule had its data directory readable by every local user.
 */
export function ensurePrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  fs.chmodSync(directory, PRIVATE_DIRECTORY_MODE);
}
