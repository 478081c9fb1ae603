import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The record of which text analysis made the chunks' stored terms, for databases that re-analysed their chunks
 * in the first form of ReanalyseSearchTerms1764200000000 (their terms are those of version 1). Elsewhere the
 * record exists already and stays as it is.
 */
export class SearchTermsVersion1764460000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS search_terms_analysis (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      version integer NOT NULL
    )`);
    await q.query(`INSERT INTO search_terms_analysis (version) VALUES (1) ON CONFLICT (id) DO NOTHING`);
  }

  async down(): Promise<void> {
    // The table may predate this migration (ReanalyseSearchTerms1764200000000 makes it): it stays.
  }
}
