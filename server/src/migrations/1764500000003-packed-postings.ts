import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Packed postings (knowledge/packed-postings.ts): a knowledge base's postings copied into one row per term, the
 * chunks as positions in the knowledge base's list of chunks, which keyword search scores in the server instead
 * of aggregating row by row in SQL. A pack holds for one version of the knowledge base's postings:
 * `chunk_term_stats.version` takes a new value from a sequence whenever its row changes, which the postings
 * triggers do in the same statement as every change to `chunk_term`; a pack whose version is not the current one
 * is not read.
 */
export class PackedPostings1764500000003 implements MigrationInterface {
  name = "PackedPostings1764500000003";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE chunk_term_version`);
    await q.query(`ALTER TABLE chunk_term_stats ADD COLUMN version bigint NOT NULL DEFAULT nextval('chunk_term_version')`);
    await q.query(`CREATE FUNCTION chunk_term_stats_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.version := nextval('chunk_term_version');
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER chunk_term_stats_version BEFORE UPDATE ON chunk_term_stats FOR EACH ROW EXECUTE FUNCTION chunk_term_stats_version()`);

    await q.query(`CREATE TABLE chunk_term_pack (
      knowledge_base_id varchar(32) PRIMARY KEY REFERENCES knowledge_base(id) ON DELETE CASCADE,
      version bigint NOT NULL,
      chunk_ids varchar(32)[] NOT NULL,
      document_ids varchar(32)[] NOT NULL,
      lengths bytea NOT NULL,
      packed_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE chunk_term_packed (
      knowledge_base_id varchar(32) NOT NULL REFERENCES chunk_term_pack(knowledge_base_id) ON DELETE CASCADE,
      term text NOT NULL,
      positions bytea NOT NULL,
      tfs bytea NOT NULL,
      PRIMARY KEY (knowledge_base_id, term)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chunk_term_packed`);
    await q.query(`DROP TABLE chunk_term_pack`);
    await q.query(`DROP TRIGGER chunk_term_stats_version ON chunk_term_stats`);
    await q.query(`DROP FUNCTION chunk_term_stats_version()`);
    await q.query(`ALTER TABLE chunk_term_stats DROP COLUMN version`);
    await q.query(`DROP SEQUENCE chunk_term_version`);
  }
}
