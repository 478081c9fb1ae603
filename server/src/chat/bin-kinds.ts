import { freeName, type BinKind } from "../bin/bin-kind";
import { Conflict, NotFound } from "../platform/errors";

/**
 * An assistant goes into the bin alone: its conversations are unreachable through it until it is back. Deleting it for
 * good is RAGFlow's delete (status '0'), so that the statistics keep their assistant as after a REST delete.
 */
export const assistantBinKind: BinKind = {
  async bin(manager, { id: itemId }, entryId) {
    await manager.query(`UPDATE chat_assistant SET binned_in = $2 WHERE id = $1`, [itemId, entryId]);
  },
  async restore(manager, entry) {
    const name = await freeName(entry.name, async (candidate) => (await manager.query(`SELECT 1 FROM chat_assistant WHERE tenant_id = $1 AND status = '1' AND binned_in IS NULL AND lower(name) = lower($2)`, [entry.tenantId, candidate])).length > 0, { maxLength: 255 });
    await manager.query(`UPDATE chat_assistant SET binned_in = NULL, name = $2 WHERE id = $1`, [entry.itemId, name]);
    return name;
  },
  async destroy(manager, entry) {
    await manager.query(`UPDATE chat_assistant SET binned_in = NULL, status = '0', updated_at = now() WHERE id = $1`, [entry.itemId]);
  },
};

/** A conversation goes into the bin with its messages; it comes back only to a live assistant. */
export const conversationBinKind: BinKind = {
  async bin(manager, { id: itemId }, entryId) {
    await manager.query(`UPDATE chat_conversation SET binned_in = $2 WHERE id = $1`, [itemId, entryId]);
  },
  async restore(manager, entry) {
    const [row]: { live: boolean }[] = await manager.query(
      `SELECT a.status = '1' AND a.binned_in IS NULL AS live FROM chat_conversation c JOIN chat_assistant a ON a.id = c.assistant_id WHERE c.id = $1`,
      [entry.itemId],
    );
    if (!row) throw NotFound("errors.bin.itemGone", { name: entry.name });
    if (!row.live) throw Conflict("errors.bin.assistantInBin", { name: entry.detail.parentName ?? "" });
    await manager.query(`UPDATE chat_conversation SET binned_in = NULL WHERE id = $1`, [entry.itemId]);
    return entry.name;
  },
  async destroy(manager, entry) {
    await manager.query(`DELETE FROM chat_conversation WHERE id = $1`, [entry.itemId]);
  },
};
