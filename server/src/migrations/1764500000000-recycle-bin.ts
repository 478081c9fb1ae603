import type { MigrationInterface, QueryRunner } from "typeorm";

/** The six tables whose rows a delete from the web app moves into the recycle bin. */
const BINNABLE_TABLES = ["knowledge_base", "document", "chat_assistant", "chat_conversation", "flow", "file"];

/**
 * The recycle bin (issue 19): deleting a knowledge base, document, assistant, conversation, flow or file from the web app
 * marks its rows with the bin entry that holds them (`binned_in`; NULL = live) instead of destroying them, so that a
 * restore brings them back exactly. Names are unique among live rows only, so a binned item does not block its name.
 */
export class RecycleBin1764500000000 implements MigrationInterface {
  name = "RecycleBin1764500000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bin_entry (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      kind varchar(16) NOT NULL,
      item_id varchar(32) NOT NULL,
      name varchar(255) NOT NULL,
      binned_by varchar(32) NOT NULL,
      binned_at timestamptz NOT NULL DEFAULT now(),
      purge_at timestamptz NOT NULL,
      detail jsonb NOT NULL DEFAULT '{}'
    )`);
    await q.query(`CREATE INDEX bin_entry_tenant_idx ON bin_entry (tenant_id, binned_at)`);
    await q.query(`CREATE INDEX bin_entry_purge_idx ON bin_entry (purge_at)`);
    for (const table of BINNABLE_TABLES) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN binned_in varchar(32)`);
      // Restoring and purging find an entry's rows; binned rows are few, so the index holds only them.
      await q.query(`CREATE INDEX ${table}_binned_idx ON ${table} (binned_in) WHERE binned_in IS NOT NULL`);
    }
    // Retrieval leaves out binned documents of the knowledge bases it searches (retrieval/retrievable.ts).
    await q.query(`CREATE INDEX document_binned_kb_idx ON document (knowledge_base_id) WHERE binned_in IS NOT NULL`);

    await q.query(`DROP INDEX knowledge_base_name_key`);
    await q.query(`CREATE UNIQUE INDEX knowledge_base_name_key ON knowledge_base (tenant_id, lower(name)) WHERE binned_in IS NULL`);
    await q.query(`DROP INDEX document_name_key`);
    await q.query(`CREATE UNIQUE INDEX document_name_key ON document (knowledge_base_id, name) WHERE binned_in IS NULL`);
    await q.query(`DROP INDEX chat_assistant_name_key`);
    await q.query(`CREATE UNIQUE INDEX chat_assistant_name_key ON chat_assistant (tenant_id, lower(name)) WHERE status = '1' AND binned_in IS NULL`);
    await q.query(`DROP INDEX flow_title_key`);
    await q.query(`CREATE UNIQUE INDEX flow_title_key ON flow (tenant_id, lower(title)) WHERE binned_in IS NULL`);
    await q.query(`DROP INDEX file_sibling_name_key`);
    await q.query(`CREATE UNIQUE INDEX file_sibling_name_key ON file (parent_id, lower(name)) WHERE binned_in IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Binned rows would collide with live names once the indexes are whole again: they go with the bin.
    for (const table of ["document", "chat_conversation", "chat_assistant", "flow", "file", "knowledge_base"]) {
      await q.query(`DELETE FROM ${table} WHERE binned_in IS NOT NULL`);
    }
    await q.query(`DROP INDEX knowledge_base_name_key`);
    await q.query(`CREATE UNIQUE INDEX knowledge_base_name_key ON knowledge_base (tenant_id, lower(name))`);
    await q.query(`DROP INDEX document_name_key`);
    await q.query(`CREATE UNIQUE INDEX document_name_key ON document (knowledge_base_id, name)`);
    await q.query(`DROP INDEX chat_assistant_name_key`);
    await q.query(`CREATE UNIQUE INDEX chat_assistant_name_key ON chat_assistant (tenant_id, lower(name)) WHERE status = '1'`);
    await q.query(`DROP INDEX flow_title_key`);
    await q.query(`CREATE UNIQUE INDEX flow_title_key ON flow (tenant_id, lower(title))`);
    await q.query(`DROP INDEX file_sibling_name_key`);
    await q.query(`CREATE UNIQUE INDEX file_sibling_name_key ON file (parent_id, lower(name))`);
    // Dropping the column drops the partial indexes over it.
    for (const table of BINNABLE_TABLES) await q.query(`ALTER TABLE ${table} DROP COLUMN binned_in`);
    await q.query(`DROP TABLE bin_entry`);
  }
}
