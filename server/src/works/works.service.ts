import type { WorkKind } from "../bin/work-kind";
import { can } from "../policies";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { Invalid } from "../platform/errors";
import { WORK_COLUMNS, type WorkRow, type WorkSource } from "./work-source";
import type { Work, WorkPage, WorkPreview } from "./work.types";

export interface WorkQuery {
  kind?: WorkKind | null;
  search?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

export const DEFAULT_PAGE_SIZE = 24;
/** The most one page may hold (the GraphQL budget prices `works` by it: graphql/field-costs.ts). */
export const MAX_PAGE_SIZE = 100;

/**
 * My space: everything a user may read of what was made in their tenants, newest activity first, across kinds.
 *
 * One UNION ALL of the sources' SELECTs, ordered and paged by the database: the order is exact on every page and the
 * total comes from the same rows, for a user with thousands of items as for one with three. (A per-source top-N merge
 * would read page × size rows of every kind for a deep page and still need each kind's count; the union reads each
 * readable row's sort key once, through the indexes the lists already use.)
 */
export class WorksService {
  private readonly byKind: Map<WorkKind, WorkSource>;

  constructor(
    private readonly platform: Platform,
    sources: WorkSource[],
  ) {
    this.byKind = new Map(sources.map((source) => [source.kind, source]));
  }

  /** The kinds my space lists, in the order of its filter. */
  get kinds(): WorkKind[] {
    return [...this.byKind.keys()];
  }

  async list(principal: SignedIn, query: WorkQuery = {}): Promise<WorkPage> {
    const sources = query.kind ? [this.source(query.kind)] : [...this.byKind.values()];
    const search = query.search?.trim() || null;
    const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, query.pageSize ?? DEFAULT_PAGE_SIZE));
    const page = Math.max(1, query.page ?? 1);
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const union = sources.map((source) => `(${source.select(principal, search, bind)})`).join(" UNION ALL ");
    const [{ total }]: { total: string }[] = await this.platform.db.query(`SELECT count(*) AS total FROM (${union}) w`, params);
    const rows: WorkRow[] = await this.platform.db.query(
      `SELECT ${WORK_COLUMNS.join(", ")} FROM (${union}) w ORDER BY activity_at DESC, kind, id OFFSET ${(page - 1) * pageSize} LIMIT ${pageSize}`,
      params,
    );
    return { total: Number(total), items: rows.map((row) => this.present(principal, row)) };
  }

  /** The larger look of one work, for the slides: its source checks that the principal may read it. */
  preview(principal: SignedIn, kind: WorkKind, id: string): Promise<WorkPreview> {
    return this.source(kind).preview(principal, id);
  }

  private source(kind: WorkKind): WorkSource {
    const source = this.byKind.get(kind);
    if (!source) throw Invalid([{ field: "kind", messageKey: "works.errors.kindNotListed" }]);
    return source;
  }

  private present(principal: SignedIn, row: WorkRow): Work {
    const source = this.source(row.kind);
    const resource = source.resource(row);
    const manage = can(principal, "manage", resource);
    return {
      kind: row.kind,
      id: row.id,
      name: row.name,
      description: row.description || null,
      variant: row.variant,
      parentId: row.parent_id,
      counts: Object.entries(row.counts).map(([name, value]) => ({ name, value: Number(value) })),
      activityAt: new Date(row.activity_at),
      teamShared: row.team_shared,
      mine: row.created_by === principal.user.id,
      can: { rename: source.renamable && manage, share: source.mayShare(principal, row, manage), delete: can(principal, "delete", resource) },
    };
  }
}
