import { WorkKind } from "../../bin/work-kind";
import type { FileService } from "../../files/file.service";
import type { FileResource } from "../../policies";
import { escapeLike } from "../../platform/sql";
import { readableWhere, type WorkRow, type WorkSource } from "../work-source";
import { emptyPreview } from "../work.types";

/** The file policy's computed field: linked to a knowledge base shared with the team (a folder never is). */
const IN_TEAM_KNOWLEDGE_BASE = `(fi.kind = 'file' AND EXISTS (SELECT 1 FROM file_document fd JOIN knowledge_base tkb ON tkb.id = fd.knowledge_base_id WHERE fd.file_id = fi.id AND tkb.permission = 'team'))`;
const FILE_COLUMNS: Record<string, string> = { tenantId: "fi.tenant_id", createdBy: "fi.created_by", inTeamKnowledgeBase: IN_TEAM_KNOWLEDGE_BASE };

/**
 * The file manager's files and folders that a user made (a folder is work too: someone organised it), not the
 * tenant's root folder; their activity is their last change. Sharing a file is through a team knowledge base, so
 * my space offers no "share" for it.
 */
export function fileWorks(files: FileService): WorkSource {
  return {
    kind: WorkKind.file,
    renamable: true,
    mayShare: () => false,
    select(principal, search, bind) {
      return `SELECT '${WorkKind.file}' AS kind, fi.id, fi.name, NULL::text AS description, fi.kind::text AS variant, fi.parent_id,
          CASE WHEN fi.kind = 'file' THEN json_build_object('bytes', fi.size) ELSE json_build_object('items', (SELECT count(*) FROM file child WHERE child.parent_id = fi.id AND child.binned_in IS NULL)) END AS counts,
          fi.updated_at AS activity_at,
          ${IN_TEAM_KNOWLEDGE_BASE} AS team_shared, fi.created_by,
          jsonb_build_object('tenantId', fi.tenant_id, 'createdBy', fi.created_by, 'inTeamKnowledgeBase', ${IN_TEAM_KNOWLEDGE_BASE}) AS resource
        FROM file fi
        WHERE fi.parent_id IS NOT NULL AND fi.binned_in IS NULL AND ${readableWhere(principal, "file", (field) => FILE_COLUMNS[field], bind)}${search ? ` AND fi.name ILIKE ${bind(`%${escapeLike(search)}%`)}` : ""}`;
    },
    resource: (row: WorkRow): FileResource => ({ kind: "file", ...(row.resource as Omit<FileResource, "kind">) }),
    async preview(principal, id) {
      // A file's slide shows its content through filePreview, which checks the file itself; this only checks it may be read.
      await files.entry(principal, id);
      return emptyPreview();
    },
  };
}
