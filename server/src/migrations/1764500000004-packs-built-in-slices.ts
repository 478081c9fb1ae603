import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Packs built slice by slice (knowledge/packed-postings.ts), so that on the embedded database, where every other
 * statement waits while one runs, no single statement builds a large knowledge base's whole pack. A pack's term rows
 * carry the version they were built for, so that a new pack's rows are written beside the pack in use and take its
 * place in one statement, and `chunk_term_pack_build` holds the chunk list a pack is being built on, the claim of the
 * process building it, and when that process last worked on it. Packs are derived data: those built before are
 * dropped, and built again by the packer within seconds; until then keyword search reads the postings in SQL.
 * The knowledge base's index of chunks also holds what a chunk list is made of (id, document, length), so that a build
 * reads its list from the index instead of the chunks' wide rows: 1.07 s at 46,288 chunks, while nothing else ran.
 */
export class PacksBuiltInSlices1764500000004 implements MigrationInterface {
  name = "PacksBuiltInSlices1764500000004";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chunk_term_packed`);
    await q.query(`DELETE FROM chunk_term_pack`);
    await q.query(`CREATE TABLE chunk_term_packed (
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      term text NOT NULL,
      version bigint NOT NULL,
      positions bytea NOT NULL,
      tfs bytea NOT NULL,
      PRIMARY KEY (knowledge_base_id, term, version)
    )`);
    await q.query(`CREATE TABLE chunk_term_pack_build (
      knowledge_base_id varchar(32) PRIMARY KEY REFERENCES knowledge_base(id) ON DELETE CASCADE,
      version bigint NOT NULL,
      chunk_ids varchar(32)[] NOT NULL,
      document_ids varchar(32)[] NOT NULL,
      lengths bytea NOT NULL,
      touched_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`DROP INDEX chunk_kb_idx`);
    await q.query(`CREATE INDEX chunk_kb_idx ON chunk (knowledge_base_id, id) INCLUDE (document_id, term_count)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX chunk_kb_idx`);
    await q.query(`CREATE INDEX chunk_kb_idx ON chunk (knowledge_base_id)`);
    await q.query(`DROP TABLE chunk_term_pack_build`);
    await q.query(`DROP TABLE chunk_term_packed`);
    await q.query(`DELETE FROM chunk_term_pack`);
    await q.query(`CREATE TABLE chunk_term_packed (
      knowledge_base_id varchar(32) NOT NULL REFERENCES chunk_term_pack(knowledge_base_id) ON DELETE CASCADE,
      term text NOT NULL,
      positions bytea NOT NULL,
      tfs bytea NOT NULL,
      PRIMARY KEY (knowledge_base_id, term)
    )`);
  }
}
