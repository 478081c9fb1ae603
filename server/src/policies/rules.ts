import { isSignedIn, type Principal, type TenantRole } from "./principal";

/**
 * What a principal may do to a resource. `read` is to see it (lists, details); `use` is to work with it without
 * changing it (chat with an assistant, retrieve from a knowledge base, run a flow); `manage` is to change it or
 * what it holds (settings, uploads, parsing, chunks); `delete` is to remove it.
 */
export const ACTIONS = ["read", "use", "manage", "delete"] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * One way a resource can be allowed: every field named must match (a list: any of its values). A rule is a list
 * of clauses, any of which allows. The same clauses answer `can` for one resource and become the where-clause of
 * a list query (see `scopeSql`), so that a rule is written once for both.
 */
export type Clause = Readonly<Record<string, string | boolean | readonly string[]>>;

export function matches(clause: Clause, resource: object): boolean {
  const fields = resource as Record<string, unknown>;
  return Object.entries(clause).every(([field, allowed]) => (Array.isArray(allowed) ? allowed.includes(fields[field]) : fields[field] === allowed));
}

/** A resource's rules: the clauses that allow each action to a principal, and the errors that refuse it. */
export interface Policy {
  rules(principal: Principal, action: Action): Clause[];
  /** The message when the resource may not even be read: it is "not found", so that refusals reveal nothing. */
  notFound: string;
  /** The message when it may be read but not acted on so. */
  forbidden: string;
}

/** Roles that give access to a tenant's things: an invitation gives none until it is agreed. */
const MEMBER_ROLES: readonly TenantRole[] = ["owner", "admin", "normal"];
/** Roles that may change and delete what a tenant's members made. */
const MANAGER_ROLES: readonly TenantRole[] = ["owner", "admin"];

/**
 * The principal's role in a tenant. A user's own tenant, made at sign-up with the user's id, is theirs as owner
 * even before a membership row says so.
 */
export function roleIn(principal: Principal, tenantId: string): TenantRole | undefined {
  if (!isSignedIn(principal)) return undefined;
  return principal.memberships.find((m) => m.tenantId === tenantId)?.role ?? (tenantId === principal.user.id ? "owner" : undefined);
}

function tenantsWhere(principal: Principal, roles: readonly TenantRole[]): string[] {
  if (!isSignedIn(principal)) return [];
  const tenants = new Set([principal.tenantId, ...principal.memberships.map((m) => m.tenantId)]);
  return [...tenants].filter((tenantId) => roles.includes(roleIn(principal, tenantId)!));
}

/** Tenants whose team-shared things the principal may read: those it has joined (not merely been invited to). */
export const memberTenants = (principal: Principal) => tenantsWhere(principal, MEMBER_ROLES);
/** Tenants where the principal may change what others made. */
export const managedTenants = (principal: Principal) => tenantsWhere(principal, MANAGER_ROLES);
/** Tenants the principal owns: its own, and any whose ownership was handed to it. */
export const ownedTenants = (principal: Principal) => tenantsWhere(principal, ["owner"]);

/** The tenant the principal acts in, when it holds one of these roles there: its own things. */
export function home(principal: Principal, roles: "member" | "manager"): string[] {
  if (!isSignedIn(principal)) return [];
  const role = roleIn(principal, principal.tenantId);
  return role && (roles === "member" ? MEMBER_ROLES : MANAGER_ROLES).includes(role) ? [principal.tenantId] : [];
}

/** Clauses with no tenant to match allow nothing; dropping them keeps scopes short. */
export const live = (clauses: Clause[]): Clause[] => clauses.filter((c) => Object.values(c).every((v) => !Array.isArray(v) || v.length > 0));
