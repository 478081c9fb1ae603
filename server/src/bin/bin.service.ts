import type { EntityManager, Repository } from "typeorm";
import type { SignedIn } from "../policies/principal";
import { authorize, scope, scopeSql } from "../policies";
import { NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import type { Platform } from "../platform";
import { BinEntry } from "./bin-entry.entity";
import type { BinItem, BinKind } from "./bin-kind";
import type { WorkKind } from "./work-kind";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the server looks for entries past their time; a day's retention makes an hour's lateness harmless. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Entries destroyed per pass of the purge, so that a full bin never holds the database in one long pass. */
const PURGE_BATCH = 100;

export interface BinQuery {
  kind?: WorkKind | null;
  /** Case-insensitive part of the item's name. */
  search?: string | null;
  page?: number;
  pageSize?: number;
}

/** An entry as the bin page lists it: with the name of the user who deleted the item. */
export interface BinListing {
  entry: BinEntry;
  binnedByName: string;
}

export interface RestoredItem {
  entryId: string;
  kind: WorkKind;
  itemId: string;
  name: string;
  /** The name it had when deleted, when that was taken meanwhile and it came back under `name`. */
  previousName: string | null;
}

const entryResource = (entry: BinEntry) => ({ kind: "binEntry" as const, tenantId: entry.tenantId, binnedBy: entry.binnedBy });

/**
 * The recycle bin: deleting from the web app puts an item here (its rows marked with the entry, nothing destroyed), so
 * that restoring brings it back exactly; an entry is destroyed for good by the purge once RECYCLE_BIN_DAYS have passed,
 * or when a user deletes it forever or empties the bin. Each kind's tables are handled by the BinKind its domain
 * registers (services.ts); each entry is binned, restored or purged in a transaction of its own.
 */
export class BinService {
  private readonly entries: Repository<BinEntry>;
  private readonly kinds = new Map<WorkKind, BinKind>();
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly platform: Platform,
    /** The time the bin reads: injected by tests that look at the purge after the period. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.entries = platform.db.getRepository(BinEntry);
  }

  register(kind: WorkKind, handler: BinKind): void {
    this.kinds.set(kind, handler);
  }

  /** How many days an item stays in the bin; 0: the bin is off and deleting destroys. */
  get retentionDays(): number {
    return this.platform.config.recycleBinDays;
  }

  private handler(kind: WorkKind): BinKind {
    const handler = this.kinds.get(kind);
    if (!handler) throw new Error(`No recycle-bin handler for ${kind}`);
    return handler;
  }

  /**
   * Moves items the caller has checked the principal may delete into the bin, one entry each; with the bin off they are
   * destroyed at once, through the same purge. Answers the entries made.
   */
  async put(principal: SignedIn, kind: WorkKind, items: BinItem[]): Promise<BinEntry[]> {
    const handler = this.handler(kind);
    const made: BinEntry[] = [];
    for (const item of items) {
      const binnedAt = this.now();
      const entry = this.entries.create({
        id: newId(),
        tenantId: item.tenantId,
        kind,
        itemId: item.id,
        name: item.name,
        binnedBy: principal.user.id,
        binnedAt,
        purgeAt: new Date(binnedAt.getTime() + this.retentionDays * DAY_MS),
        detail: item.detail ?? {},
      });
      await this.platform.db.transaction(async (manager) => {
        const counts = await handler.bin(manager, item, entry.id);
        if (counts && Object.keys(counts).length > 0) entry.detail = { ...entry.detail, counts };
        await manager.insert(BinEntry, entry);
      });
      made.push(entry);
    }
    if (this.retentionDays === 0) for (const entry of made) await this.purgeEntry(entry.id);
    return made;
  }

  /** The entries the principal may see (those it deleted, and all of the tenants it owns), newest first. */
  async list(principal: SignedIn, query: BinQuery = {}): Promise<{ items: BinListing[]; total: number }> {
    const { sql, params } = scopeSql(scope(principal, "read", "binEntry"), "e");
    const builder = this.entries.createQueryBuilder("e").where(sql, params);
    if (query.kind) builder.andWhere("e.kind = :kind", { kind: query.kind });
    if (query.search?.trim()) builder.andWhere("e.name ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    const pageSize = Math.min(100, Math.max(1, query.pageSize ?? 30));
    const page = Math.max(1, query.page ?? 1);
    const [entries, total] = await builder.orderBy("e.binnedAt", "DESC").addOrderBy("e.id", "ASC").skip((page - 1) * pageSize).take(pageSize).getManyAndCount();
    const users: { id: string; nickname: string }[] = entries.length === 0 ? [] : await this.platform.db.query(`SELECT id, nickname FROM app_user WHERE id = ANY($1)`, [[...new Set(entries.map((e) => e.binnedBy))]]);
    const names = new Map(users.map((u) => [u.id, u.nickname]));
    return { total, items: entries.map((entry) => ({ entry, binnedByName: names.get(entry.binnedBy) ?? "" })) };
  }

  /** Entries by id that the principal may act on; NOT_FOUND for any other, before anything changes. */
  private async accessible(principal: SignedIn, ids: string[]): Promise<BinEntry[]> {
    const unique = [...new Set(ids)];
    const found = unique.length === 0 ? [] : await this.entries.createQueryBuilder("e").where("e.id IN (:...ids)", { ids: unique }).getMany();
    for (const id of unique) {
      const entry = found.find((e) => e.id === id);
      if (!entry) throw NotFound("errors.bin.notFound");
      authorize(principal, "manage", entryResource(entry));
    }
    return found;
  }

  /**
   * Brings items back as they were, latest deleted first: an item can only have been deleted before its parent, so a
   * parent restored in the same request is back before its children. A child whose parent stays in the bin is refused.
   */
  async restore(principal: SignedIn, ids: string[]): Promise<RestoredItem[]> {
    const entries = (await this.accessible(principal, ids)).sort((a, b) => b.binnedAt.getTime() - a.binnedAt.getTime());
    const restored: RestoredItem[] = [];
    for (const { id } of entries) {
      const item = await this.platform.db.transaction(async (manager) => {
        const entry = await this.lock(manager, id);
        if (!entry) throw NotFound("errors.bin.notFound");
        const name = await this.handler(entry.kind).restore(manager, entry);
        await manager.delete(BinEntry, { id: entry.id });
        return { entryId: entry.id, kind: entry.kind, itemId: entry.itemId, name, previousName: name === entry.name ? null : entry.name };
      });
      restored.push(item);
    }
    return restored;
  }

  /** Deletes entries forever; answers how many were. */
  async purge(principal: SignedIn, ids: string[]): Promise<number> {
    let purged = 0;
    for (const entry of await this.accessible(principal, ids)) if (await this.purgeEntry(entry.id)) purged++;
    return purged;
  }

  /** Deletes forever every entry the principal may see. */
  async empty(principal: SignedIn): Promise<number> {
    const { sql, params } = scopeSql(scope(principal, "manage", "binEntry"), "e");
    const entries = await this.entries.createQueryBuilder("e").select("e.id").where(sql, params).getMany();
    let purged = 0;
    for (const entry of entries) if (await this.purgeEntry(entry.id)) purged++;
    return purged;
  }

  /** Destroys the entries whose time is up (all of them, batch after batch); answers how many. */
  async purgeExpired(): Promise<number> {
    let purged = 0;
    for (;;) {
      const due: { id: string }[] = await this.platform.db.query(`SELECT id FROM bin_entry WHERE purge_at <= $1 ORDER BY purge_at LIMIT ${PURGE_BATCH}`, [this.now()]);
      let done = 0;
      for (const { id } of due) if (await this.purgeEntry(id)) done++;
      purged += done;
      // Fewer than a batch: all done. None done: another process holds them; its own pass finishes them.
      if (due.length < PURGE_BATCH || done === 0) return purged;
    }
  }

  /**
   * Destroys one entry with its rows, in one transaction; the entry row is locked, so that another process purging
   * or restoring it at the same time skips it (and a second purge finds nothing). Bytes are released after the commit.
   */
  private async purgeEntry(id: string): Promise<boolean> {
    const after = await this.platform.db.transaction(async (manager) => {
      const entry = await this.lock(manager, id);
      if (!entry) return null;
      const release = await this.handler(entry.kind).destroy(manager, entry);
      await manager.delete(BinEntry, { id: entry.id });
      return release ?? (async () => undefined);
    });
    if (!after) return false;
    await after();
    return true;
  }

  private async lock(manager: EntityManager, id: string): Promise<BinEntry | null> {
    return manager.getRepository(BinEntry).createQueryBuilder("e").setLock("pessimistic_write").setOnLocked("skip_locked").where("e.id = :id", { id }).getOne();
  }

  /**
   * Starts the periodic purge. The retention an operator sets is the one users are told, so entries already in the bin
   * follow a changed RECYCLE_BIN_DAYS too: their purge time is recomputed from when they were deleted.
   */
  async startPurging(): Promise<void> {
    await this.platform.db.query(`UPDATE bin_entry SET purge_at = binned_at + make_interval(days => $1) WHERE purge_at <> binned_at + make_interval(days => $1)`, [this.retentionDays]);
    const run = () => (this.pass = this.pass.then(() => this.purgeExpired()).catch((error) => console.error("[bin] purge failed:", error)));
    run();
    this.timer = setInterval(run, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  async stopPurging(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pass;
  }
}
