import { freeName, type BinKind } from "../bin/bin-kind";

/** A flow goes into the bin alone: its versions, sessions and runs stay attached to it, untouched. */
export const flowBinKind: BinKind = {
  async bin(manager, { id: itemId }, entryId) {
    await manager.query(`UPDATE flow SET binned_in = $2 WHERE id = $1`, [itemId, entryId]);
  },
  async restore(manager, entry) {
    const title = await freeName(entry.name, async (candidate) => (await manager.query(`SELECT 1 FROM flow WHERE tenant_id = $1 AND binned_in IS NULL AND lower(title) = lower($2)`, [entry.tenantId, candidate])).length > 0, { maxLength: 255 });
    await manager.query(`UPDATE flow SET binned_in = NULL, title = $2 WHERE id = $1`, [entry.itemId, title]);
    return title;
  },
  async destroy(manager, entry) {
    // Versions, sessions and runs go by cascade, as with the REST API's delete.
    await manager.query(`DELETE FROM flow WHERE id = $1`, [entry.itemId]);
  },
};
