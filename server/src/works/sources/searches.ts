import { WorkKind } from "../../bin/work-kind";
import { spokenText } from "../../chat/speech";
import type { SearchRecordResource } from "../../policies";
import { escapeLike } from "../../platform/sql";
import type { SearchService } from "../../search/search.service";
import { readableWhere, snakeColumn, type WorkRow, type WorkSource } from "../work-source";
import { emptyPreview } from "../work.types";

/**
 * The searches of the search page's history, each its maker's own, named by its question; their activity is their
 * answer's last write. A search is removed outright (no bin), has no name of its own to change and no sharing.
 */
export function searchWorks(searches: SearchService): WorkSource {
  return {
    kind: WorkKind.search,
    renamable: false,
    mayShare: () => false,
    select(principal, search, bind) {
      return `SELECT '${WorkKind.search}' AS kind, r.id, r.question AS name, NULL::text AS description, NULL::text AS variant, NULL::varchar AS parent_id,
          json_build_object('knowledgeBases', jsonb_array_length(r.knowledge_base_ids)) AS counts,
          r.updated_at AS activity_at, FALSE AS team_shared, r.created_by,
          jsonb_build_object('tenantId', r.tenant_id, 'createdBy', r.created_by) AS resource
        FROM search_record r
        WHERE ${readableWhere(principal, "searchRecord", snakeColumn("r"), bind)}${search ? ` AND r.question ILIKE ${bind(`%${escapeLike(search)}%`)}` : ""}`;
    },
    resource: (row: WorkRow): SearchRecordResource => ({ kind: "searchRecord", ...(row.resource as Omit<SearchRecordResource, "kind">) }),
    async preview(principal, id) {
      const record = await searches.record(principal, id);
      // The summary as plain text: its citation markers point into chunks the slide does not show.
      return { ...emptyPreview(), answer: spokenText(record.content) };
    },
  };
}
