import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Chunk merges (/search/merge): each merge of chosen chunks into one chunk or a new document, with a copy of every
 * source chunk's text and document as they were then (the sources may change or go later). A record outlives its
 * merged chunk; it goes with its target document or knowledge base.
 */
export class ChunkMerge1764500000002 implements MigrationInterface {
  name = "ChunkMerge1764500000002";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE chunk_merge (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      target varchar(16) NOT NULL,
      target_knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      target_document_id varchar(32) NOT NULL REFERENCES document(id) ON DELETE CASCADE,
      target_chunk_id varchar(32),
      source_action varchar(16) NOT NULL,
      sources jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX chunk_merge_target_document_idx ON chunk_merge (target_document_id)`);
    await q.query(`CREATE INDEX chunk_merge_target_chunk_idx ON chunk_merge (target_chunk_id) WHERE target_chunk_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS chunk_merge`);
  }
}
