import { epochMillis, rfc1123 } from "../../rest/presenters";
import type { FileEntry } from "../file.types";

/** What RAGFlow's file manager API shows of files and folders (contract §12): its `file` rows. */

export function presentFileRow(entry: FileEntry): Record<string, unknown> {
  return {
    id: entry.id,
    // RAGFlow's root folder is its own parent.
    parent_id: entry.parentId ?? entry.id,
    tenant_id: entry.tenantId,
    created_by: entry.createdBy,
    name: entry.name,
    location: entry.kind === "file" ? entry.name : "",
    size: entry.size,
    type: entry.type,
    source_type: entry.sourceType,
    create_time: epochMillis(entry.createdAt),
    create_date: rfc1123(entry.createdAt),
    update_time: epochMillis(entry.updatedAt),
    update_date: rfc1123(entry.updatedAt),
  };
}

/** A row of `GET /file/list`: folders say whether they hold folders; files name the knowledge bases they are linked to. */
export function presentListedFile(entry: FileEntry): Record<string, unknown> {
  const row = presentFileRow(entry);
  if (entry.kind === "folder") return { ...row, kbs_info: [], has_child_folder: entry.hasChildFolders };
  return { ...row, kbs_info: entry.knowledgeBases.map((kb) => ({ kb_id: kb.id, kb_name: kb.name })) };
}

/** RAGFlow's file2document rows, as `POST /file/convert` answers them. */
export function presentLinks(entries: FileEntry[], knowledgeBaseIds: string[]): Record<string, unknown>[] {
  return entries.flatMap((entry) =>
    entry.knowledgeBases
      .filter((kb) => knowledgeBaseIds.includes(kb.id))
      .map((kb) => ({
        id: kb.linkId,
        file_id: entry.id,
        document_id: kb.documentId,
        create_time: epochMillis(kb.linkedAt),
        create_date: rfc1123(kb.linkedAt),
        update_time: epochMillis(kb.linkedAt),
        update_date: rfc1123(kb.linkedAt),
      })),
  );
}
