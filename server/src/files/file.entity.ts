import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import { bigintAsNumber } from "../platform/sql";

/**
 * A folder or a file of a tenant's file manager (RAGFlow's `file`). The root folder has no parent; a file's bytes are in
 * the object store under `storageKey`, which the documents it was linked as share (see knowledge/stored-bytes.ts).
 */
@Entity("file")
export class FileNode {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32, nullable: true })
  parentId: string | null;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Column({ type: "varchar", length: 255 })
  name: string;

  @Column({ type: "varchar", length: 8 })
  kind: "folder" | "file";

  /** Lower-case extension without the dot; empty for folders. */
  @Column({ type: "varchar", length: 32 })
  suffix: string;

  /** RAGFlow's file type: folder, pdf, doc, visual, aural, virtual or other. */
  @Column({ type: "varchar", length: 16 })
  type: string;

  @Column({ type: "bigint", transformer: bigintAsNumber })
  size: number;

  @Column({ type: "varchar", length: 200, nullable: true })
  storageKey: string | null;

  /** "" (uploaded or made here) or "s3" (imported from a bucket). */
  @Column({ type: "varchar", length: 16 })
  sourceType: string;

  /** The recycle-bin entry that holds this row (bin/), or null while it is live. */
  @Column({ type: "varchar", length: 32, nullable: true })
  binnedIn: string | null;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
