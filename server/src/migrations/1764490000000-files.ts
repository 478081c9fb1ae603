import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The file manager (spec §2, §3): a folder tree per tenant, files whose bytes are in the object store, links that made
 * a file a document of a knowledge base (sharing its bytes), and imports from S3 buckets with their progress.
 */
export class Files1764490000000 implements MigrationInterface {
  name = "Files1764490000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE file (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      parent_id varchar(32) REFERENCES file(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL,
      name varchar(255) NOT NULL,
      kind varchar(8) NOT NULL,
      suffix varchar(32) NOT NULL DEFAULT '',
      type varchar(16) NOT NULL,
      size bigint NOT NULL DEFAULT 0,
      storage_key varchar(200),
      source_type varchar(16) NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    // One root per tenant; names unique among siblings whatever their case, as documents' names in a knowledge base.
    await q.query(`CREATE UNIQUE INDEX file_root_key ON file (tenant_id) WHERE parent_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX file_sibling_name_key ON file (parent_id, lower(name))`);
    await q.query(`CREATE INDEX file_storage_key_idx ON file (storage_key)`);
    await q.query(`CREATE TABLE file_document (
      id varchar(32) PRIMARY KEY,
      file_id varchar(32) NOT NULL REFERENCES file(id) ON DELETE CASCADE,
      document_id varchar(32) NOT NULL REFERENCES document(id) ON DELETE CASCADE,
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX file_document_file_kb_key ON file_document (file_id, knowledge_base_id)`);
    await q.query(`CREATE INDEX file_document_document_idx ON file_document (document_id)`);
    await q.query(`CREATE TABLE file_import (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      parent_id varchar(32) NOT NULL REFERENCES file(id) ON DELETE CASCADE,
      status varchar(8) NOT NULL,
      total integer NOT NULL,
      done integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      errors jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS file_import`);
    await q.query(`DROP TABLE IF EXISTS file_document`);
    await q.query(`DROP TABLE IF EXISTS file`);
  }
}
