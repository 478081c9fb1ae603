import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Text analysis changed (a lone Greek letter spelt out, hyphenated compounds also as one word, "s" and "t" no
 * longer stop words), so chunks indexed before keep terms that questions analysed the new way would miss. This
 * migration once re-analysed them with the live analysis code; a migration must not run code that keeps changing,
 * so it now records that the stored terms are stale (version 0), and the knowledge domain analyses them again at
 * the next start (knowledge/search-terms-upgrade.ts). Databases that ran the old form get the record from
 * SearchTermsVersion1764460000000, already up to date.
 */
export class ReanalyseSearchTerms1764200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE search_terms_analysis (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      version integer NOT NULL
    )`);
    await q.query(`INSERT INTO search_terms_analysis (version) VALUES (0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE search_terms_analysis`);
  }
}
