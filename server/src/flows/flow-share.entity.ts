import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/**
 * The public share of a flow (spec §2, API publishing), as an assistant's (chat/share.entity.ts): its id is the share
 * token itself, the `shared_id` of the share page and the bearer credential that page sends. One per flow, stable
 * until revoked. Visitors' turns run as `createdBy` in the flow's tenant: the sharer lends them their access.
 */
@Entity("flow_share")
export class FlowShare {
  @PrimaryColumn({ type: "varchar", length: 64 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  flowId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
