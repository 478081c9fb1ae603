import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/** Why one object of an import was not copied: a message key of the locales with its parameters. */
export interface ImportProblem {
  key: string;
  messageKey: string;
  params: Record<string, unknown>;
}

/**
 * An import from an S3 bucket and how far it got, for subscribers in any process. The bucket's address and keys are
 * not here: they live only in the memory of the process that copies.
 */
@Entity("file_import")
export class FileImportRow {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Column({ type: "varchar", length: 32 })
  parentId: string;

  @Column({ type: "varchar", length: 8 })
  status: "running" | "done" | "failed";

  @Column({ type: "integer" })
  total: number;

  @Column({ type: "integer" })
  done: number;

  @Column({ type: "integer" })
  failed: number;

  @Column({ type: "jsonb" })
  errors: ImportProblem[];

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
