import { freeName, type BinKind } from "../bin/bin-kind";
import { binDocuments, destroyBinnedDocuments, restoreDocuments } from "../knowledge/bin-kinds";
import type { DocumentService } from "../knowledge/document.service";
import type { StoredBytes } from "../knowledge/stored-bytes";
import { Conflict, NotFound } from "../platform/errors";

/** A file or folder and the live rows below it, as SQL over `$1` (the top's id). */
const SUBTREE = `WITH RECURSIVE tree(id) AS (SELECT id FROM file WHERE id = $1 UNION SELECT f.id FROM file f JOIN tree ON f.parent_id = tree.id WHERE f.binned_in IS NULL)`;

/**
 * A file goes into the bin with the documents it was linked as; a folder with everything below it and their documents
 * (as deleting them for good would take). It comes back into its folder, which must be live: a folder deleted for good
 * takes the rows below it along (the foreign key cascades), so a row still here always has its folder.
 */
export function fileBinKind(documents: DocumentService, storedBytes: StoredBytes): BinKind {
  return {
    async bin(manager, item, entryId) {
      const [{ marked }]: { marked: number }[] = await manager.query(`${SUBTREE}, marked AS (UPDATE file SET binned_in = $2 WHERE id IN (SELECT id FROM tree) RETURNING 1) SELECT count(*)::int AS marked FROM marked`, [item.id, entryId]);
      const linked = await binDocuments(manager, item.related ?? [], entryId);
      return { ...(marked > 1 ? { file: marked - 1 } : {}), ...(linked > 0 ? { document: linked } : {}) };
    },
    async restore(manager, entry) {
      const [file]: { parent_id: string | null; tenant_id: string }[] = await manager.query(`SELECT parent_id, tenant_id FROM file WHERE id = $1`, [entry.itemId]);
      if (!file) throw NotFound("errors.bin.itemGone", { name: entry.name });
      const [parent]: { binned_in: string | null }[] = file.parent_id ? await manager.query(`SELECT binned_in FROM file WHERE id = $1`, [file.parent_id]) : [];
      if (parent?.binned_in) throw Conflict("errors.bin.folderInBin", { name: entry.detail.parentName ?? "" });
      const name = await freeName(entry.name, async (candidate) => (await manager.query(`SELECT 1 FROM file WHERE parent_id = $1 AND binned_in IS NULL AND lower(name) = lower($2)`, [file.parent_id, candidate])).length > 0, { keepExtension: true, maxLength: 255 });
      // Renamed while still binned, so that the sibling-name index never sees two live rows of one name.
      await manager.query(`UPDATE file SET name = $2 WHERE id = $1`, [entry.itemId, name]);
      await manager.query(`UPDATE file SET binned_in = NULL WHERE binned_in = $1`, [entry.id]);
      await restoreDocuments(manager, entry.id);
      return name;
    },
    async destroy(manager, entry) {
      const keys: { storage_key: string }[] = await manager.query(
        `WITH RECURSIVE tree(id) AS (SELECT id FROM file WHERE id = $1 UNION SELECT f.id FROM file f JOIN tree ON f.parent_id = tree.id) SELECT storage_key FROM file WHERE id IN (SELECT id FROM tree) AND storage_key IS NOT NULL`,
        [entry.itemId],
      );
      const releaseDocuments = await destroyBinnedDocuments(manager, documents, entry.id);
      await manager.query(`DELETE FROM file WHERE id = $1`, [entry.itemId]);
      return async () => {
        await releaseDocuments();
        await storedBytes.release(keys.map((k) => k.storage_key));
      };
    },
  };
}
