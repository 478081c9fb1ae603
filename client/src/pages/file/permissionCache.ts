/**
 * §3's browser key `filePermissionMap`: what the server last said the signed-in user may do with each file (its `can`
 * field), so that a row's menu can be drawn before the list's answer arrives. It never decides anything: every answer
 * of the server replaces what is kept, and an action the server refuses is refused with the server's words.
 */
export const PERMISSION_KEY = "filePermissionMap";

/** Enough for the folders a user walks through; the oldest entries go first. */
export const MAX_REMEMBERED_FILES = 1000;

/** What is kept: whose answers these are (another account in the same browser starts afresh) and, oldest first, each file's actions. */
interface StoredPermissions {
  user: string;
  files: [id: string, actions: string[]][];
}

/** The part of `window.localStorage` the cache uses; null where the browser offers no storage. */
export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function isStored(value: unknown): value is StoredPermissions {
  if (typeof value !== "object" || value === null) return false;
  const { user, files } = value as Partial<StoredPermissions>;
  return (
    typeof user === "string" &&
    Array.isArray(files) &&
    files.every((entry) => Array.isArray(entry) && typeof entry[0] === "string" && Array.isArray(entry[1]) && entry[1].every((action) => typeof action === "string"))
  );
}

export interface PermissionCache {
  /** The actions last allowed on this file, or undefined when the server has not said yet. */
  actionsOf(fileId: string): string[] | undefined;
  /** Keeps the server's answer for these files, replacing what was known of them. */
  remember(files: { id: string; can: readonly string[] }[]): void;
  /** Drops what is known of these files, e.g. after the server refused an action on one. */
  forget(fileIds: string[]): void;
}

export function permissionCacheOf(store: KeyValueStore | null, userId: string): PermissionCache {
  function read(): Map<string, string[]> {
    try {
      const parsed: unknown = JSON.parse(store?.getItem(PERMISSION_KEY) ?? "null");
      return isStored(parsed) && parsed.user === userId ? new Map(parsed.files) : new Map();
    } catch {
      return new Map();
    }
  }

  function write(files: Map<string, string[]>): void {
    const kept = [...files].slice(-MAX_REMEMBERED_FILES);
    try {
      store?.setItem(PERMISSION_KEY, JSON.stringify({ user: userId, files: kept } satisfies StoredPermissions));
    } catch {
      // A full or unavailable storage only costs the quick first drawing of the menus.
    }
  }

  return {
    actionsOf: (fileId) => read().get(fileId),
    remember(answered) {
      if (answered.length === 0) return;
      const files = read();
      for (const { id, can } of answered) {
        // Re-inserted so that it counts as the newest.
        files.delete(id);
        files.set(id, [...can]);
      }
      write(files);
    },
    forget(fileIds) {
      const files = read();
      if (!fileIds.some((id) => files.delete(id))) return;
      write(files);
    },
  };
}
