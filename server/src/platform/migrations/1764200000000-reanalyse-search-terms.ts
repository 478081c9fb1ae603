import type { MigrationInterface, QueryRunner } from "typeorm";
import { indexText } from "../../knowledge/search-terms";

/** Chunks analysed per round trip. */
const BATCH = 500;

/**
 * Text analysis changed (models/builtin/text-analysis.ts): a lone Greek letter is spelt out ("TNF-α"
 * also finds "TNF-alpha"), a hyphenated compound also counts as one word ("IL-6" finds "IL6"), and the
 * single letters "s" and "t" are no longer stop words ("T cells"). Chunks indexed before keep their old
 * terms, which questions analysed the new way would miss: every chunk's terms are analysed again, a batch
 * at a time. The postings triggers are off meanwhile and the postings rebuilt once at the end, in one
 * statement: following each changed chunk through the triggers costs ten times as much.
 */
export class ReanalyseSearchTerms1764200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chunk DISABLE TRIGGER chunk_postings_update`);
    let after = "";
    for (;;) {
      const rows: { id: string; title: string; keywords: string[]; questions: string[]; content: string; terms: Record<string, number>; term_count: number }[] =
        await q.query(`SELECT id, title, keywords, questions, content, terms, term_count FROM chunk WHERE id > $1 ORDER BY id LIMIT ${BATCH}`, [after]);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const changed = rows.flatMap((row) => {
        const indexed = indexText({ title: row.title, keywords: row.keywords, questions: row.questions, content: row.content });
        const same = indexed.termCount === row.term_count && sameTerms(indexed.terms, row.terms);
        return same ? [] : [{ id: row.id, terms: JSON.stringify(indexed.terms), termCount: indexed.termCount }];
      });
      if (changed.length === 0) continue;
      await q.query(
        `UPDATE chunk c SET terms = t.terms::jsonb, term_count = t.term_count
         FROM unnest($1::text[], $2::text[], $3::int[]) AS t(id, terms, term_count) WHERE c.id = t.id`,
        [changed.map((c) => c.id), changed.map((c) => c.terms), changed.map((c) => c.termCount)],
      );
    }
    await q.query(`ALTER TABLE chunk ENABLE TRIGGER chunk_postings_update`);
    await q.query(`TRUNCATE chunk_term`);
    await q.query(`INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
      SELECT c.knowledge_base_id, t.key, c.id, c.document_id, t.value::text::real, c.term_count FROM chunk c, jsonb_each(c.terms) t`);
    await q.query(`UPDATE chunk_term_stats s SET chunks = c.chunks, length = c.length
      FROM (SELECT knowledge_base_id, count(*) AS chunks, coalesce(sum(term_count), 0) AS length FROM chunk GROUP BY knowledge_base_id) c
      WHERE s.knowledge_base_id = c.knowledge_base_id`);
  }

  async down(): Promise<void> {
    // The old analysis is gone with the old code; the terms stay as they are.
  }
}

function sameTerms(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
