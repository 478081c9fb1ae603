import { Column, Entity, PrimaryColumn } from "typeorm";
import type { WorkKind } from "./work-kind";

/** What a bin entry records besides the item: where it was and what went with it, shown on the bin page. */
export interface BinEntryDetail {
  /** The name of the knowledge base, folder or assistant the item was in, when it had one. */
  parentName?: string;
  /** How many rows of each kind went into the bin with the item, e.g. { file: 3, document: 1 }. */
  counts?: Record<string, number>;
}

/**
 * One deleted item in a tenant's recycle bin. The item's rows (and those that went with it) carry this entry's id in
 * their `binned_in` column until the entry is restored (the marks are cleared) or purged (the rows are destroyed).
 */
@Entity()
export class BinEntry {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 16 })
  kind: WorkKind;

  @Column({ type: "varchar", length: 32 })
  itemId: string;

  /** The item's name when it was deleted. */
  @Column({ type: "varchar", length: 255 })
  name: string;

  /** The user who deleted it. */
  @Column({ type: "varchar", length: 32 })
  binnedBy: string;

  @Column({ type: "timestamptz" })
  binnedAt: Date;

  /** When the purge job destroys it; set from RECYCLE_BIN_DAYS when it was binned. */
  @Column({ type: "timestamptz" })
  purgeAt: Date;

  @Column({ type: "jsonb" })
  detail: BinEntryDetail;
}
