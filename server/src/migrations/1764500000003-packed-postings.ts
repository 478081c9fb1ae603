import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Packed postings (knowledge/packed-postings.ts): a knowledge base's postings copied into one row per term, the
 * chunks as positions in the knowledge base's list of chunks, which keyword search scores in the server instead
 * of aggregating row by row in SQL. A pack holds for one version of the knowledge base's postings:
 * `chunk_term_stats.version` takes a new value from a sequence whenever its row changes, which the postings
 * triggers do in the same statement as every change to `chunk_term`. `chunk_term_change` records which chunks each
 * version changed (added, edited or deleted), so that a search can read a stale pack with the current postings of
 * the few chunks changed since. Both tables of a pack go with it; the packer deletes the change records its pack covers.
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
      lengths bytea NOT NULL
    )`);
    await q.query(`CREATE TABLE chunk_term_packed (
      knowledge_base_id varchar(32) NOT NULL REFERENCES chunk_term_pack(knowledge_base_id) ON DELETE CASCADE,
      term text NOT NULL,
      positions bytea NOT NULL,
      tfs bytea NOT NULL,
      PRIMARY KEY (knowledge_base_id, term)
    )`);

    // Not tied to the knowledge base by a foreign key: a knowledge base's deletion cascades to its chunks, whose
    // trigger may record them after the knowledge base is gone. The packer deletes records left without statistics.
    await q.query(`CREATE TABLE chunk_term_change (
      knowledge_base_id varchar(32) NOT NULL,
      version bigint NOT NULL,
      chunk_id varchar(32) NOT NULL,
      PRIMARY KEY (knowledge_base_id, version, chunk_id)
    )`);
    // Named to run after the postings triggers of the same event (triggers run in name order), once the
    // statistics carry the change's version.
    const record = (rows: string) => `INSERT INTO chunk_term_change (knowledge_base_id, version, chunk_id)
      SELECT r.knowledge_base_id, s.version, r.id FROM (${rows}) r JOIN chunk_term_stats s USING (knowledge_base_id)
      ON CONFLICT DO NOTHING`;
    // The chunks whose postings the update trigger changed, as it decides.
    const changed = `old_rows o JOIN new_rows n ON n.id = o.id AND (o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
      OR o.knowledge_base_id <> n.knowledge_base_id OR o.document_id <> n.document_id)`;
    const functions = {
      insert: record(`SELECT knowledge_base_id, id FROM new_rows`),
      delete: record(`SELECT knowledge_base_id, id FROM old_rows`),
      update: record(`SELECT o.knowledge_base_id, o.id FROM ${changed} UNION SELECT n.knowledge_base_id, n.id FROM ${changed}`),
    };
    for (const [event, statement] of Object.entries(functions)) {
      await q.query(`CREATE FUNCTION chunk_term_changes_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${statement};
          RETURN NULL;
        END $$`);
    }
    await q.query(`CREATE TRIGGER chunk_term_changes_insert AFTER INSERT ON chunk REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_term_changes_insert()`);
    await q.query(`CREATE TRIGGER chunk_term_changes_delete AFTER DELETE ON chunk REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_term_changes_delete()`);
    await q.query(`CREATE TRIGGER chunk_term_changes_update AFTER UPDATE ON chunk REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_term_changes_update()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const event of ["insert", "delete", "update"]) {
      await q.query(`DROP TRIGGER chunk_term_changes_${event} ON chunk`);
      await q.query(`DROP FUNCTION chunk_term_changes_${event}()`);
    }
    await q.query(`DROP TABLE chunk_term_change`);
    await q.query(`DROP TABLE chunk_term_packed`);
    await q.query(`DROP TABLE chunk_term_pack`);
    await q.query(`DROP TRIGGER chunk_term_stats_version ON chunk_term_stats`);
    await q.query(`DROP FUNCTION chunk_term_stats_version()`);
    await q.query(`ALTER TABLE chunk_term_stats DROP COLUMN version`);
    await q.query(`DROP SEQUENCE chunk_term_version`);
  }
}
