import type { WorkKind } from "../bin/work-kind";
import { scope, scopeCondition, type Resource, type ResourceKind } from "../policies";
import type { SignedIn } from "../policies/principal";
import type { WorkPreview } from "./work.types";

/** Adds a query parameter and answers its placeholder ($1, $2…). */
export type Bind = (value: unknown) => string;

/**
 * The columns every source's SELECT gives, in this order, so that my space pages all kinds in one UNION ALL:
 * kind, id, name, description, variant, parent_id, counts (json, which keeps the order written: name → number), activity_at, team_shared, created_by, and
 * `resource` (jsonb: the fields its policy reads, to say what the principal may do with each row).
 */
export const WORK_COLUMNS = ["kind", "id", "name", "description", "variant", "parent_id", "counts", "activity_at", "team_shared", "created_by", "resource"] as const;

export interface WorkRow {
  kind: WorkKind;
  id: string;
  name: string;
  description: string | null;
  variant: string | null;
  parent_id: string | null;
  counts: Record<string, number>;
  activity_at: Date;
  team_shared: boolean;
  created_by: string;
  resource: Record<string, unknown>;
}

/**
 * One kind of work, describing itself: how to list the principal's readable, live ones as WORK_COLUMNS, what its
 * policy resource is, whether it can be shared, and its larger preview. Adding a kind is one module and one line
 * in `sources.ts`.
 */
export interface WorkSource {
  kind: WorkKind;
  /** Whether a work of the kind has a name of its own to change (a search is named by its question). */
  renamable: boolean;
  /**
   * Whether the principal, who may `manage` the row or not, may share it as the kind shares (a team permission, a
   * share link); false for a kind with no sharing, so that my space offers "share" only where it exists.
   */
  mayShare(principal: SignedIn, row: WorkRow, manage: boolean): boolean;
  /** One SELECT of WORK_COLUMNS over the principal's readable, live works of the kind, named like `search` when given. */
  select(principal: SignedIn, search: string | null, bind: Bind): string;
  /** The policy resource of a listed row (from its `resource` column). */
  resource(row: WorkRow): Resource;
  /** Its larger look for the slides; the source checks that the principal may read it. */
  preview(principal: SignedIn, id: string): Promise<WorkPreview>;
}

/**
 * The principal's read scope of a policy kind as SQL over `column(field)`: the policy decides, this only writes its
 * clauses with positional parameters.
 */
export function readableWhere(principal: SignedIn, kind: ResourceKind, column: (field: string) => string, bind: Bind): string {
  return scopeCondition(scope(principal, "read", kind), (field, allowed) => (Array.isArray(allowed) ? `${column(field)} = ANY(${bind(allowed)}::text[])` : `${column(field)} = ${bind(allowed)}`));
}

/** A column name for the usual case where a clause's field is the snake_case column of the row's alias. */
export const snakeColumn =
  (alias: string) =>
  (field: string): string =>
    `${alias}.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
