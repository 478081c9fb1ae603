import type { MigrationInterface, QueryRunner } from "typeorm";
import { indexText } from "../../knowledge/search-terms";

/**
 * Text analysis changed (models/builtin/text-analysis.ts): a lone Greek letter is spelt out ("TNF-α"
 * also finds "TNF-alpha"), a hyphenated compound also counts as one word ("IL-6" finds "IL6"), and the
 * single letters "s" and "t" are no longer stop words ("T cells"). Chunks indexed before keep
 * their old terms, which questions analysed the new way would miss: every chunk's terms are analysed
 * again, a batch at a time; the postings follow through their triggers.
 */
export class ReanalyseSearchTerms1764200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    const BATCH = 500;
    let after = "";
    for (;;) {
      const rows: { id: string; title: string; keywords: string[]; questions: string[]; content: string }[] = await q.query(
        `SELECT id, title, keywords, questions, content FROM chunk WHERE id > $1 ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length === 0) return;
      const indexed = rows.map((r) => indexText({ title: r.title, keywords: r.keywords, questions: r.questions, content: r.content }));
      await q.query(
        `UPDATE chunk c SET terms = t.terms::jsonb, term_count = t.term_count
         FROM unnest($1::text[], $2::text[], $3::int[]) AS t(id, terms, term_count) WHERE c.id = t.id`,
        [rows.map((r) => r.id), indexed.map((i) => JSON.stringify(i.terms)), indexed.map((i) => i.termCount)],
      );
      after = rows[rows.length - 1].id;
    }
  }

  async down(): Promise<void> {
    // The old analysis is gone with the old code; the terms stay as they are.
  }
}
