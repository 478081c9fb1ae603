import { WorkKind } from "../../bin/work-kind";
import type { DocumentService } from "../../knowledge/document.service";
import type { KnowledgeBaseResource } from "../../policies";
import { escapeLike } from "../../platform/sql";
import { readableWhere, snakeColumn, type WorkRow, type WorkSource } from "../work-source";
import { emptyPreview } from "../work.types";

/** How many documents a knowledge base's slide lists (its latest changed). */
export const PREVIEW_DOCUMENTS = 8;

/** Knowledge bases (the document list checks that the principal may read one); their activity is their own last change or their latest document's, whichever is later. */
export function knowledgeBaseWorks(documents: DocumentService): WorkSource {
  return {
    kind: WorkKind.knowledgeBase,
    renamable: true,
    mayShare: (_principal, _row, manage) => manage,
    select(principal, search, bind) {
      return `SELECT '${WorkKind.knowledgeBase}' AS kind, kb.id, kb.name, kb.description, NULL::text AS variant, NULL::varchar AS parent_id,
          json_build_object('documents', kb.document_count, 'chunks', kb.chunk_count) AS counts,
          GREATEST(kb.updated_at, (SELECT max(d.updated_at) FROM document d WHERE d.knowledge_base_id = kb.id AND d.binned_in IS NULL)) AS activity_at,
          kb.permission = 'team' AS team_shared, kb.created_by,
          jsonb_build_object('tenantId', kb.tenant_id, 'createdBy', kb.created_by, 'permission', kb.permission) AS resource
        FROM knowledge_base kb
        WHERE kb.binned_in IS NULL AND ${readableWhere(principal, "knowledgeBase", snakeColumn("kb"), bind)}${search ? ` AND kb.name ILIKE ${bind(`%${escapeLike(search)}%`)}` : ""}`;
    },
    resource: (row: WorkRow): KnowledgeBaseResource => ({ kind: "knowledgeBase", ...(row.resource as Omit<KnowledgeBaseResource, "kind">) }),
    async preview(principal, id) {
      const { items } = await documents.list(principal, id, { orderBy: "updatedAt", pageSize: PREVIEW_DOCUMENTS });
      return { ...emptyPreview(), documents: items.map((d) => ({ id: d.id, name: d.name, chunkCount: d.chunkCount, run: d.run })) };
    },
  };
}
