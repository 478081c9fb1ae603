import type { EntityManager } from "typeorm";
import type { BinEntry } from "../bin/bin-entry.entity";
import { freeName, type BinKind } from "../bin/bin-kind";
import { Conflict, NotFound } from "../platform/errors";
import { deleteChunks } from "./chunk-store";
import { RUN } from "./document.entity";
import type { DocumentService } from "./document.service";
import type { KnowledgeBaseService } from "./knowledge-base.service";
import { NAME_MAX_LENGTH } from "./knowledge-base.service";

/**
 * Stops the parsing of these documents as cancelling does (the job sees its run id gone and writes nothing more), so
 * that nothing writes into what is in the bin; their partial chunks go.
 */
async function stopParsing(manager: EntityManager, condition: string, params: unknown[]): Promise<void> {
  const parsing: { id: string }[] = await manager.query(`UPDATE document SET run = '${RUN.cancelled}', run_id = NULL, progress = 0 WHERE ${condition} AND run = '${RUN.running}' RETURNING id`, params).then(rowsOf);
  for (const { id } of parsing) await deleteChunks(manager, id);
}

/** TypeORM answers an UPDATE … RETURNING as [rows, count]. */
const rowsOf = (result: unknown): { id: string }[] => (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : (result as { id: string }[]));

/**
 * The counters of a knowledge base follow its live documents: a document going into the bin takes its chunks and
 * tokens out of them, and brings them back when restored (`sign` -1 or +1). The documents' own counters stay.
 */
export async function moveDocumentCounters(manager: EntityManager, documentIds: string[], sign: 1 | -1): Promise<void> {
  await manager.query(
    `UPDATE knowledge_base k SET document_count = k.document_count + $2 * x.documents, chunk_count = k.chunk_count + $2 * x.chunks, token_count = k.token_count + $2 * x.tokens
       FROM (SELECT knowledge_base_id, count(*) AS documents, sum(chunk_count) AS chunks, sum(token_count) AS tokens FROM document WHERE id = ANY($1) GROUP BY knowledge_base_id) x
       WHERE k.id = x.knowledge_base_id`,
    [documentIds, sign],
  );
}

/** Marks live documents with a bin entry (they leave their knowledge base's counts and stop parsing); answers how many. */
export async function binDocuments(manager: EntityManager, documentIds: string[], entryId: string): Promise<number> {
  if (documentIds.length === 0) return 0;
  await stopParsing(manager, "id = ANY($1) AND binned_in IS NULL", [documentIds]);
  const marked = rowsOf(await manager.query(`UPDATE document SET binned_in = $2 WHERE id = ANY($1) AND binned_in IS NULL RETURNING id`, [documentIds, entryId]));
  await moveDocumentCounters(manager, marked.map((d) => d.id), -1);
  return marked.length;
}

/**
 * Brings back the documents an entry holds, into their knowledge bases' counts, each under a free name there (a
 * document uploaded meanwhile may have taken it); answers the new names by id for those renamed.
 */
export async function restoreDocuments(manager: EntityManager, entryId: string): Promise<Map<string, string>> {
  const documents: { id: string; name: string; knowledge_base_id: string }[] = await manager.query(`SELECT id, name, knowledge_base_id FROM document WHERE binned_in = $1`, [entryId]);
  const renamed = new Map<string, string>();
  for (const document of documents) {
    const name = await freeName(document.name, async (candidate) => (await manager.query(`SELECT 1 FROM document WHERE knowledge_base_id = $1 AND binned_in IS NULL AND name = $2`, [document.knowledge_base_id, candidate])).length > 0, { keepExtension: true });
    if (name !== document.name) renamed.set(document.id, name);
    await manager.query(`UPDATE document SET binned_in = NULL, name = $2 WHERE id = $1`, [document.id, name]);
  }
  await moveDocumentCounters(manager, documents.map((d) => d.id), 1);
  return renamed;
}

/** Destroys the documents an entry holds (their counters were taken out when they were binned: they go back first, for the delete triggers to take them out once). */
export async function destroyBinnedDocuments(manager: EntityManager, documents: DocumentService, entryId: string): Promise<() => Promise<void>> {
  const ids = (await manager.query(`SELECT id FROM document WHERE binned_in = $1`, [entryId]) as { id: string }[]).map((d) => d.id);
  await moveDocumentCounters(manager, ids, 1);
  return documents.destroyRows(manager, ids);
}

async function knowledgeBaseLive(manager: EntityManager, id: string): Promise<boolean> {
  return (await manager.query(`SELECT 1 FROM knowledge_base WHERE id = $1 AND binned_in IS NULL`, [id])).length > 0;
}

/** A knowledge base goes into the bin alone: its documents, chunks and graph are unreachable through it until it is back. */
export function knowledgeBaseBinKind(knowledgeBases: KnowledgeBaseService): BinKind {
  return {
    async bin(manager, { id: itemId }, entryId) {
      await stopParsing(manager, "knowledge_base_id = $1", [itemId]);
      await manager.query(`UPDATE knowledge_base SET binned_in = $2 WHERE id = $1`, [itemId, entryId]);
      const [{ documents }]: { documents: number }[] = await manager.query(`SELECT count(*)::int AS documents FROM document WHERE knowledge_base_id = $1 AND binned_in IS NULL`, [itemId]);
      return documents > 0 ? { document: documents } : undefined;
    },
    async restore(manager, entry) {
      const [kb]: { tenant_id: string }[] = await manager.query(`SELECT tenant_id FROM knowledge_base WHERE id = $1`, [entry.itemId]);
      const name = await freeName(entry.name, async (candidate) => (await manager.query(`SELECT 1 FROM knowledge_base WHERE tenant_id = $1 AND binned_in IS NULL AND lower(name) = lower($2)`, [kb.tenant_id, candidate])).length > 0, { maxLength: NAME_MAX_LENGTH });
      await manager.query(`UPDATE knowledge_base SET binned_in = NULL, name = $2 WHERE id = $1`, [entry.itemId, name]);
      return name;
    },
    destroy: (manager, entry: BinEntry) => knowledgeBases.destroyRows(manager, [entry.itemId]),
  };
}

/** A document goes into the bin with its chunks and vectors; it comes back only into a live knowledge base. */
export function documentBinKind(documents: DocumentService): BinKind {
  return {
    async bin(manager, { id: itemId }, entryId) {
      await binDocuments(manager, [itemId], entryId);
    },
    async restore(manager, entry) {
      const [document]: { knowledge_base_id: string }[] = await manager.query(`SELECT knowledge_base_id FROM document WHERE id = $1`, [entry.itemId]);
      // Its knowledge base was deleted for good meanwhile, and the document with it.
      if (!document) throw NotFound("errors.bin.itemGone", { name: entry.name });
      if (!(await knowledgeBaseLive(manager, document.knowledge_base_id))) throw Conflict("errors.bin.knowledgeBaseInBin", { name: entry.detail.parentName ?? "" });
      return (await restoreDocuments(manager, entry.id)).get(entry.itemId) ?? entry.name;
    },
    destroy: (manager, entry) => destroyBinnedDocuments(manager, documents, entry.id),
  };
}
