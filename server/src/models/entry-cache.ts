import { followTopic, type PubSub } from "../platform/pubsub";
import type { ModelEntry } from "./model-entry.entity";

/** Where a process says that a tenant's model entries changed, so that every process forgets them. */
export const MODEL_ENTRIES_CHANGED_TOPIC = "model-entries-changed";
/** No entry is used longer than this after it was read, should a change's message be lost on the way. */
export const ENTRY_CACHE_MS = 60_000;
/** Entries kept at most (the tenants that use models at a time): past it, the oldest go. */
const MAX_ENTRIES = 10_000;

/**
 * Model entries as last read, in this process. Every answer opens its chat model's entry, and every query embedded by a
 * configured model its embedding model's: a read each, on the way to the first token. Entries change only through
 * ModelsService, which calls `changed`: the tenant's entries are forgotten here at once and, through the pub/sub
 * port, in every other process. A read that was under way when a change came is not kept (the tenant's generation
 * moved on meanwhile), so a stale entry is never stored after its change was seen.
 */
export class ModelEntryCache {
  private readonly entries = new Map<string, { entry: ModelEntry; tenantId: string; until: number }>();
  private readonly generations = new Map<string, number>();
  private readonly changes: { close(): Promise<void> };

  constructor(private readonly pubsub: PubSub) {
    this.changes = followTopic(pubsub, MODEL_ENTRIES_CHANGED_TOPIC, "model entry changes", (message) => this.forget((message as { tenantId: string }).tenantId));
  }

  /** The entry under `key`, read by `read` unless a fresh one is kept; an entry that does not exist is not kept. */
  async get(tenantId: string, key: string, read: () => Promise<ModelEntry | null>): Promise<ModelEntry | null> {
    const kept = this.entries.get(key);
    if (kept && kept.until > Date.now()) return kept.entry;
    const generation = this.generations.get(tenantId) ?? 0;
    const entry = await read();
    if (entry && (this.generations.get(tenantId) ?? 0) === generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { entry, tenantId, until: Date.now() + ENTRY_CACHE_MS });
    }
    return entry;
  }

  /** The tenant's entries changed: forgotten here and in every other process. */
  changed(tenantId: string): void {
    this.forget(tenantId);
    this.pubsub.publish(MODEL_ENTRIES_CHANGED_TOPIC, { tenantId });
  }

  private forget(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    for (const [key, kept] of this.entries) if (kept.tenantId === tenantId) this.entries.delete(key);
  }

  close(): Promise<void> {
    return this.changes.close();
  }
}
