import type { DataSource } from "typeorm";
import type { Membership } from "../policies/principal";
import { TenantMember } from "./tenant-member.entity";

/** The tenants a user belongs to, with their role in each: read once per request, as the principal is built. */
export async function membershipsOf(db: DataSource, userId: string): Promise<Membership[]> {
  const rows = await db.getRepository(TenantMember).find({ where: { userId }, select: { tenantId: true, role: true } });
  return rows.map(({ tenantId, role }) => ({ tenantId, role }));
}
