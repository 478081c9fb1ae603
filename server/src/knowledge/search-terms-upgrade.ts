import type { DataSource, EntityManager } from "typeorm";
import { indexText } from "./search-terms";

/**
 * The version of the text analysis (models/builtin/text-analysis.ts, through indexText) that made the terms
 * stored with chunks. Raise it when the analysis changes what a text's terms are: every chunk is then analysed
 * again, once, at the next start. Version 2: Chinese folded to Simplified script, with its character bigrams.
 */
export const SEARCH_TERMS_VERSION = 2;

/** Chunks analysed per round trip. */
const BATCH = 500;
// Any fixed number: the advisory lock that lets one server process at a time upgrade a shared database.
const UPGRADE_LOCK = 7_335_103;

/**
 * Analyses again the chunks whose stored terms an older analysis made (search_terms_analysis records which),
 * and returns how many changed. The postings trigger is off meanwhile and the postings rebuilt once at the end,
 * in one statement: following each changed chunk through the trigger costs ten times as much.
 */
export function upgradeSearchTerms(db: DataSource): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [UPGRADE_LOCK]);
    const [{ version }]: { version: number }[] = await tx.query(`SELECT version FROM search_terms_analysis`);
    if (version >= SEARCH_TERMS_VERSION) return 0;
    const changed = await reanalyseChunks(tx);
    await tx.query(`UPDATE search_terms_analysis SET version = $1`, [SEARCH_TERMS_VERSION]);
    return changed;
  });
}

async function reanalyseChunks(tx: EntityManager): Promise<number> {
  await tx.query(`ALTER TABLE chunk DISABLE TRIGGER chunk_postings_update`);
  let after = "";
  let total = 0;
  for (;;) {
    const rows: { id: string; title: string; keywords: string[]; questions: string[]; content: string; terms: Record<string, number>; term_count: number }[] =
      await tx.query(`SELECT id, title, keywords, questions, content, terms, term_count FROM chunk WHERE id > $1 ORDER BY id LIMIT ${BATCH}`, [after]);
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    const changed = rows.flatMap((row) => {
      const indexed = indexText({ title: row.title, keywords: row.keywords, questions: row.questions, content: row.content });
      const same = indexed.termCount === row.term_count && sameTerms(indexed.terms, row.terms);
      return same ? [] : [{ id: row.id, terms: JSON.stringify(indexed.terms), termCount: indexed.termCount }];
    });
    if (changed.length === 0) continue;
    total += changed.length;
    await tx.query(
      `UPDATE chunk c SET terms = t.terms::jsonb, term_count = t.term_count
       FROM unnest($1::text[], $2::text[], $3::int[]) AS t(id, terms, term_count) WHERE c.id = t.id`,
      [changed.map((c) => c.id), changed.map((c) => c.terms), changed.map((c) => c.termCount)],
    );
  }
  await tx.query(`ALTER TABLE chunk ENABLE TRIGGER chunk_postings_update`);
  if (total > 0) await rebuildPostings(tx);
  return total;
}

async function rebuildPostings(tx: EntityManager): Promise<void> {
  // The chunks changed here are not recorded as changes since their packs (the postings trigger is off, so their
  // version stays the packs'): the packs go, and are built again from the new postings.
  await tx.query(`DELETE FROM chunk_term_pack`);
  await tx.query(`DELETE FROM chunk_term_pack_build`); // a build under way elsewhere finds its claim gone, and stops
  await tx.query(`TRUNCATE chunk_term_packed, chunk_term`);
  await tx.query(`INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
    SELECT c.knowledge_base_id, t.key, c.id, c.document_id, t.value::text::real, c.term_count FROM chunk c, jsonb_each(c.terms) t`);
  await tx.query(`UPDATE chunk_term_stats s SET chunks = c.chunks, length = c.length
    FROM (SELECT knowledge_base_id, count(*) AS chunks, coalesce(sum(term_count), 0) AS length FROM chunk GROUP BY knowledge_base_id) c
    WHERE s.knowledge_base_id = c.knowledge_base_id`);
}

function sameTerms(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
