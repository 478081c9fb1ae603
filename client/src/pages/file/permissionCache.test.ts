import { beforeEach, expect, test } from "@jest/globals";
import { MAX_REMEMBERED_FILES, PERMISSION_KEY, permissionCacheOf, type KeyValueStore } from "./permissionCache";

/** filePermissionMap keeps the server's last word on each file, per user, bounded, and survives a broken storage. */

class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

let store: MemoryStore;
beforeEach(() => {
  store = new MemoryStore();
});

test("what the server answered is found again, and a later answer replaces it", () => {
  const cache = permissionCacheOf(store, "u1");
  expect(cache.actionsOf("f1")).toBeUndefined();
  cache.remember([{ id: "f1", can: ["rename", "move", "delete"] }, { id: "f2", can: [] }]);
  expect(permissionCacheOf(store, "u1").actionsOf("f1")).toEqual(["rename", "move", "delete"]);
  expect(permissionCacheOf(store, "u1").actionsOf("f2")).toEqual([]);
  cache.remember([{ id: "f1", can: ["download"] }]);
  expect(permissionCacheOf(store, "u1").actionsOf("f1")).toEqual(["download"]);
});

test("another account in the same browser does not see the first one's permissions, and overwrites them", () => {
  permissionCacheOf(store, "u1").remember([{ id: "f1", can: ["delete"] }]);
  const other = permissionCacheOf(store, "u2");
  expect(other.actionsOf("f1")).toBeUndefined();
  other.remember([{ id: "f9", can: ["rename"] }]);
  expect(permissionCacheOf(store, "u1").actionsOf("f1")).toBeUndefined();
  expect(JSON.parse(store.getItem(PERMISSION_KEY) ?? "")).toEqual({ user: "u2", files: [["f9", ["rename"]]] });
});

test("a refused file is forgotten", () => {
  const cache = permissionCacheOf(store, "u1");
  cache.remember([{ id: "f1", can: ["delete"] }, { id: "f2", can: ["delete"] }]);
  cache.forget(["f1"]);
  expect(cache.actionsOf("f1")).toBeUndefined();
  expect(cache.actionsOf("f2")).toEqual(["delete"]);
});

test("only the most recently answered files are kept", () => {
  const cache = permissionCacheOf(store, "u1");
  cache.remember(Array.from({ length: MAX_REMEMBERED_FILES }, (_, index) => ({ id: `f${index}`, can: ["download"] })));
  cache.remember([{ id: "f0", can: ["download"] }, { id: "new", can: ["rename"] }]);
  expect(cache.actionsOf("f0")).toEqual(["download"]);
  expect(cache.actionsOf("f1")).toBeUndefined();
  expect(cache.actionsOf("new")).toEqual(["rename"]);
});

test("a damaged value, or no storage at all, is an empty cache rather than a failure", () => {
  store.setItem(PERMISSION_KEY, "{not json");
  expect(permissionCacheOf(store, "u1").actionsOf("f1")).toBeUndefined();
  store.setItem(PERMISSION_KEY, JSON.stringify({ user: "u1", files: [["f1", "delete"]] }));
  expect(permissionCacheOf(store, "u1").actionsOf("f1")).toBeUndefined();
  const none = permissionCacheOf(null, "u1");
  none.remember([{ id: "f1", can: ["delete"] }]);
  expect(none.actionsOf("f1")).toBeUndefined();
});
