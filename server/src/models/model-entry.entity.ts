import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import { bigintAsNumber } from "../platform/sql";
import type { ModelType } from "./model-types";

/**
 * A model a tenant added from a provider, with that provider's credentials: non-secret fields in
 * `settings`, secret ones sealed in `sealedSecrets` (see platform/secret-box.ts).
 */
@Entity()
export class ModelEntry {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 64 })
  provider: string;

  @Column({ type: "varchar", length: 255 })
  modelName: string;

  @Column({ type: "varchar", length: 16 })
  modelType: ModelType;

  @Column({ type: "jsonb", default: {} })
  settings: Record<string, string>;

  @Column({ type: "text" })
  sealedSecrets: string;

  @Column({ type: "integer", nullable: true })
  maxTokens: number | null;

  @Column({ type: "boolean", default: false })
  vision: boolean;

  @Column({ type: "bigint", default: 0, transformer: bigintAsNumber })
  usedTokens: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
