import type { DataSource } from "typeorm";
import { GroupedStatement, outputsByKey } from "../platform/grouped-statement";
import type { Membership, PrincipalUser } from "../policies/principal";

/** SQL: the memberships of the user `u` as a JSON array of Membership. */
const MEMBERSHIPS_OF_U = `(SELECT coalesce(json_agg(json_build_object('tenantId', m.tenant_id, 'role', m.role)), '[]'::json) FROM tenant_member m WHERE m.user_id = u.id)`;

/** A user as principals carry them, with their memberships and whether the account is active: one statement. */
export async function userWithMemberships(db: DataSource, userId: string): Promise<{ user: PrincipalUser; active: boolean; memberships: Membership[] } | null> {
  const [row]: { id: string; language: string; is_active: boolean; memberships: Membership[] }[] = await db.query(
    `SELECT u.id, u.language, u.is_active, ${MEMBERSHIPS_OF_U} AS memberships FROM app_user u WHERE u.id = $1`,
    [userId],
  );
  return row ? { user: { id: row.id, language: row.language }, active: row.is_active, memberships: row.memberships } : null;
}

/** A credential found by its token's hash, with the user it acts for (active or not) and their memberships. */
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

type CredentialKind = keyof typeof CREDENTIALS;

/**
 * Every signed-in request starts here, so the credential, its user and the user's memberships are read in one
 * statement (each statement is a round trip to the database thread in embedded mode, and they add up under load),
 * and the lookups of requests that arrive together share one (GroupedStatement).
 * Null when no credential has that hash or its user is gone.
 */
export function credentialHolder(db: DataSource, kind: CredentialKind, hash: string): Promise<CredentialHolder | null> {
  let lookups = credentialLookups.get(db);
  if (!lookups) credentialLookups.set(db, (lookups = new Map()));
  let lookup = lookups.get(kind);
  if (!lookup) lookups.set(kind, (lookup = new GroupedStatement((hashes) => credentialHolders(db, kind, hashes), { maxItems: MAX_LOOKUPS_PER_STATEMENT })));
  return lookup.submit(hash);
}

const MAX_LOOKUPS_PER_STATEMENT = 256;
const credentialLookups = new WeakMap<DataSource, Map<CredentialKind, GroupedStatement<string, CredentialHolder | null>>>();

/** The holders of the credentials with these hashes, in their order (null where none). */
async function credentialHolders(db: DataSource, kind: CredentialKind, hashes: string[]): Promise<(CredentialHolder | null)[]> {
  const { table, holder, tenant, lastUsed } = CREDENTIALS[kind];
  const rows: { token_hash: string; id: string; tenant_id: string; expires_at: Date | null; last_used_at: Date | null; user_id: string; language: string; is_active: boolean; memberships: Membership[] }[] =
    await db.query(
      `SELECT c.token_hash, c.id, ${tenant} AS tenant_id, c.expires_at, ${lastUsed} AS last_used_at, u.id AS user_id, u.language, u.is_active, ${MEMBERSHIPS_OF_U} AS memberships
       FROM ${table} c JOIN app_user u ON u.id = c.${holder} WHERE c.token_hash = ANY($1::char(64)[])`,
      [hashes],
    );
  const found = new Map(
    rows.map((row) => [
      row.token_hash,
      {
        credentialId: row.id,
        tenantId: row.tenant_id,
        expiresAt: row.expires_at,
        lastUsedAt: row.last_used_at,
        user: { id: row.user_id, language: row.language },
        active: row.is_active,
        memberships: row.memberships,
      },
    ]),
  );
  return outputsByKey(hashes, found, (holder) => ({ ...holder, user: { ...holder.user }, memberships: holder.memberships.map((m) => ({ ...m })) }));
}
