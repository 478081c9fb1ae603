import { WorkKind } from "../../bin/work-kind";
import { drawingOutline } from "../../flows/drawing-outline";
import type { FlowService } from "../../flows/flow.service";
import type { FlowResource } from "../../policies";
import { escapeLike } from "../../platform/sql";
import { readableWhere, snakeColumn, type WorkRow, type WorkSource } from "../work-source";
import { emptyPreview } from "../work.types";

/** Agent flows; their activity is their last save or their last run, whichever is later. */
export function flowWorks(flows: FlowService): WorkSource {
  return {
    kind: WorkKind.flow,
    renamable: true,
    // Sharing a flow with the team is its maker's choice, as on the flow list: a teammate it was shared with does not unshare it.
    mayShare: (principal, row, manage) => manage && row.created_by === principal.user.id,
    select(principal, search, bind) {
      return `SELECT '${WorkKind.flow}' AS kind, f.id, f.title AS name, f.description, NULL::text AS variant, NULL::varchar AS parent_id,
          json_build_object('components', CASE WHEN jsonb_typeof(f.dsl->'components') = 'object' THEN (SELECT count(*) FROM jsonb_object_keys(f.dsl->'components')) ELSE 0 END) AS counts,
          GREATEST(f.updated_at, f.last_run_at) AS activity_at,
          f.permission = 'team' AS team_shared, f.created_by,
          jsonb_build_object('id', f.id, 'tenantId', f.tenant_id, 'createdBy', f.created_by, 'permission', f.permission) AS resource
        FROM flow f
        WHERE f.binned_in IS NULL AND ${readableWhere(principal, "flow", snakeColumn("f"), bind)}${search ? ` AND f.title ILIKE ${bind(`%${escapeLike(search)}%`)}` : ""}`;
    },
    resource: (row: WorkRow): FlowResource => ({ kind: "flow", ...(row.resource as Omit<FlowResource, "kind">) }),
    async preview(principal, id) {
      const flow = await flows.get(principal, id);
      return { ...emptyPreview(), outline: { ...drawingOutline(flow.dsl) } };
    },
  };
}
