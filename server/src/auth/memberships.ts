import type { DataSource } from "typeorm";
import type { Membership, PrincipalUser } from "../policies/principal";
import { TenantMember } from "./tenant-member.entity";

/** The tenants a user belongs to, with their role in each. */
export async function membershipsOf(db: DataSource, userId: string): Promise<Membership[]> {
  const rows = await db.getRepository(TenantMember).find({ where: { userId }, select: { tenantId: true, role: true } });
  return rows.map(({ tenantId, role }) => ({ tenantId, role }));
}

/** A credential found by its token's hash, with the active user it acts for and their memberships. */
export interface CredentialHolder {
  credentialId: string;
  /** The credential's tenant (an API key's; a session acts in its user's own tenant). */
  tenantId: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: PrincipalUser;
  active: boolean;
  memberships: Membership[];
}

const CREDENTIALS = {
  session: { table: "auth_session", holder: "user_id", tenant: "c.user_id", lastUsed: "NULL::timestamptz" },
  apiToken: { table: "api_token", holder: "created_by", tenant: "c.tenant_id", lastUsed: "c.last_used_at" },
} as const;

/**
 * Every signed-in request starts here, so the credential, its user and the user's memberships are read in one
 * statement (each statement is a round trip to the database thread in embedded mode, and they add up under load).
 * Null when no credential has that hash or its user is gone.
 */
export async function credentialHolder(db: DataSource, kind: keyof typeof CREDENTIALS, hash: string): Promise<CredentialHolder | null> {
  const { table, holder, tenant, lastUsed } = CREDENTIALS[kind];
  const rows: { id: string; tenant_id: string; expires_at: Date | null; last_used_at: Date | null; user_id: string; language: string; is_active: boolean; memberships: Membership[] }[] =
    await db.query(
      `SELECT c.id, ${tenant} AS tenant_id, c.expires_at, ${lastUsed} AS last_used_at, u.id AS user_id, u.language, u.is_active,
         (SELECT coalesce(json_agg(json_build_object('tenantId', m.tenant_id, 'role', m.role)), '[]'::json) FROM tenant_member m WHERE m.user_id = u.id) AS memberships
       FROM ${table} c JOIN app_user u ON u.id = c.${holder} WHERE c.token_hash = $1`,
      [hash],
    );
  const [row] = rows;
  if (!row) return null;
  return {
    credentialId: row.id,
    tenantId: row.tenant_id,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    user: { id: row.user_id, language: row.language },
    active: row.is_active,
    memberships: row.memberships,
  };
}
