import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/**
 * The public share of an assistant (spec §1, §6): its id is the share token itself, the `shared_id` of
 * the share page and the bearer credential that page sends. One per assistant, stable until revoked.
 */
@Entity("chat_share")
export class ChatShare {
  @PrimaryColumn({ type: "varchar", length: 64 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  assistantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
