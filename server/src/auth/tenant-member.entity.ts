import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";
import type { TenantRole } from "../policies/principal";

/** Who belongs to a tenant and how: the owner at sign-up; teams add members and invitations. */
@Entity()
export class TenantMember {
  @PrimaryColumn({ type: "varchar", length: 32 })
  tenantId: string;

  @PrimaryColumn({ type: "varchar", length: 32 })
  userId: string;

  @Column({ type: "varchar", length: 16 })
  role: TenantRole;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
