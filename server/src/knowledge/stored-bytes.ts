import type { Platform } from "../platform";

/**
 * Whatever besides documents may hold an object of the store: the file manager's files, whose bytes the documents they
 * were linked as share. Handed in by the composition root, since this floor cannot know the floors above it.
 */
export interface ObjectHolders {
  /** The keys among these that something still holds. */
  held(keys: string[]): Promise<Set<string>>;
}

/**
 * The one place stored objects are deleted once their rows are gone: a key that a document or another holder still
 * names keeps its bytes. So deleting a linked document never deletes the file's bytes, nor deleting a file its
 * documents', whichever goes first.
 */
export class StoredBytes {
  constructor(
    private readonly platform: Platform,
    private readonly others: ObjectHolders | null = null,
  ) {}

  /** Deletes the objects of these keys that nothing holds any more; a failure leaves the bytes (an orphan, never a loss). */
  async release(keys: string[]): Promise<void> {
    const unique = [...new Set(keys.filter(Boolean))];
    if (unique.length === 0) return;
    const rows: { storage_key: string }[] = await this.platform.db.query(`SELECT DISTINCT storage_key FROM document WHERE storage_key = ANY($1)`, [unique]);
    const held = new Set(rows.map((r) => r.storage_key));
    for (const key of (await this.others?.held(unique)) ?? []) held.add(key);
    await Promise.all(unique.filter((key) => !held.has(key)).map((key) => this.platform.storage.delete(key).catch(() => undefined)));
  }
}
