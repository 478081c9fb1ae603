import type { EntityManager } from "typeorm";
import type { BinEntry, BinEntryDetail } from "./bin-entry.entity";

/** A live item a domain service has checked may be deleted by the principal, ready to go into the bin. */
export interface BinItem {
  id: string;
  tenantId: string;
  name: string;
  detail?: BinEntryDetail;
  /** Rows of another kind the domain chose to go with it (a file's linked documents the principal may change). */
  related?: string[];
}

/**
 * How one kind of item goes into the bin, comes back and is destroyed. Each domain writes its own (the composition
 * root registers them with BinService), so that this floor knows none of their tables. Every method runs inside the
 * entry's transaction.
 */
export interface BinKind {
  /** Marks the item's rows, and those that go with it, with the entry; answers how many of each kind went (the detail's counts). */
  bin(manager: EntityManager, item: BinItem, entryId: string): Promise<Record<string, number> | void>;
  /**
   * Clears the entry's marks: refuses (a DomainError) while the item's parent is in the bin, and gives the item a free name
   * when its own was taken meanwhile; answers the name it has now.
   */
  restore(manager: EntityManager, entry: BinEntry): Promise<string>;
  /** Destroys the entry's rows for good; answers what to do once that is committed (releasing stored bytes), if anything. */
  destroy(manager: EntityManager, entry: BinEntry): Promise<(() => Promise<void>) | void>;
}

/**
 * The first of "name", "name (1)", "name (2)"… that is not taken; with `keepExtension` the number goes before a file
 * name's extension ("report (1).pdf").
 */
export async function freeName(name: string, taken: (candidate: string) => Promise<boolean>, options: { keepExtension?: boolean; maxLength?: number } = {}): Promise<string> {
  if (!(await taken(name))) return name;
  const dot = options.keepExtension ? name.lastIndexOf(".") : -1;
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; ; n++) {
    const suffix = ` (${n})${extension}`;
    const candidate = stem.slice(0, Math.max(1, (options.maxLength ?? Infinity) - suffix.length)) + suffix;
    if (!(await taken(candidate))) return candidate;
  }
}
