import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Keyword search reads postings instead of every chunk's term map. `chunk_term` holds one row per
 * (knowledge base, term, chunk) with the term's field-weighted frequency and the chunk's length, keyed so
 * that the postings of a query's terms are one index range each, holding every column BM25 reads (so
 * index-only scans once the table is vacuumed: platform/embedded-housekeeping.ts does that in embedded
 * mode); `chunk_term_stats` holds each knowledge base's chunk count and total length (BM25's N and average length). Both follow `chunk.terms` through
 * statement-level triggers, whatever writes chunks (ingestion, the chunk editor, cascaded deletes), so
 * they are always what the chunk table says. The GIN index on `chunk.terms` is no longer needed.
 *
 * Vectors are kept inside the chunk row (storage MAIN) rather than TOASTed: scoring the candidates of a
 * query then reads one heap page per chunk instead of three TOAST chunks through the TOAST index.
 */
export class SearchPostings1764100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE chunk_term (
      knowledge_base_id varchar(32) NOT NULL,
      term text NOT NULL,
      chunk_id varchar(32) NOT NULL,
      document_id varchar(32) NOT NULL,
      tf real NOT NULL,
      length integer NOT NULL,
      PRIMARY KEY (knowledge_base_id, term, chunk_id) INCLUDE (document_id, tf, length)
    )`);
    await q.query(`CREATE TABLE chunk_term_stats (
      knowledge_base_id varchar(32) PRIMARY KEY REFERENCES knowledge_base(id) ON DELETE CASCADE,
      chunks integer NOT NULL,
      length bigint NOT NULL
    )`);

    await q.query(`CREATE FUNCTION chunk_postings_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
          SELECT n.knowledge_base_id, t.key, n.id, n.document_id, t.value::text::real, n.term_count
          FROM new_rows n, jsonb_each(n.terms) t;
        INSERT INTO chunk_term_stats AS s (knowledge_base_id, chunks, length)
          SELECT knowledge_base_id, count(*), sum(term_count) FROM new_rows GROUP BY knowledge_base_id
          ON CONFLICT (knowledge_base_id) DO UPDATE SET chunks = s.chunks + excluded.chunks, length = s.length + excluded.length;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE FUNCTION chunk_postings_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM chunk_term p USING old_rows o, jsonb_object_keys(o.terms) k
          WHERE p.knowledge_base_id = o.knowledge_base_id AND p.term = k AND p.chunk_id = o.id;
        UPDATE chunk_term_stats s SET chunks = s.chunks - o.chunks, length = s.length - o.length
          FROM (SELECT knowledge_base_id, count(*) AS chunks, sum(term_count) AS length FROM old_rows GROUP BY knowledge_base_id) o
          WHERE s.knowledge_base_id = o.knowledge_base_id;
        RETURN NULL;
      END $$`);
    // An update re-indexes only the chunks whose terms (or placement) changed; enabling or disabling one does not.
    const changed = `old_rows o JOIN new_rows n ON n.id = o.id AND (o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
      OR o.knowledge_base_id <> n.knowledge_base_id OR o.document_id <> n.document_id)`;
    await q.query(`CREATE FUNCTION chunk_postings_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM chunk_term p USING ${changed}, jsonb_object_keys(o.terms) k
          WHERE p.knowledge_base_id = o.knowledge_base_id AND p.term = k AND p.chunk_id = o.id;
        INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
          SELECT n.knowledge_base_id, t.key, n.id, n.document_id, t.value::text::real, n.term_count FROM ${changed}, jsonb_each(n.terms) t;
        UPDATE chunk_term_stats s SET chunks = s.chunks + d.chunks, length = s.length + d.length
          FROM (SELECT kb, sum(chunks) AS chunks, sum(length) AS length FROM (
                  SELECT o.knowledge_base_id AS kb, -1 AS chunks, -o.term_count AS length FROM ${changed}
                  UNION ALL SELECT n.knowledge_base_id, 1, n.term_count FROM ${changed}) x GROUP BY kb) d
          WHERE s.knowledge_base_id = d.kb;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER chunk_postings_insert AFTER INSERT ON chunk REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_postings_insert()`);
    await q.query(`CREATE TRIGGER chunk_postings_delete AFTER DELETE ON chunk REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_postings_delete()`);
    await q.query(`CREATE TRIGGER chunk_postings_update AFTER UPDATE ON chunk REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_postings_update()`);

    await q.query(`INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
      SELECT c.knowledge_base_id, t.key, c.id, c.document_id, t.value::text::real, c.term_count FROM chunk c, jsonb_each(c.terms) t`);
    await q.query(`INSERT INTO chunk_term_stats (knowledge_base_id, chunks, length)
      SELECT knowledge_base_id, count(*), sum(term_count) FROM chunk GROUP BY knowledge_base_id`);
    await q.query(`DROP INDEX chunk_terms_idx`);

    // What retrieval must leave out is rare; these keep finding it cheap (retrieval/retrievable.ts).
    await q.query(`CREATE INDEX chunk_unavailable_idx ON chunk (knowledge_base_id) WHERE NOT available`);
    await q.query(`CREATE INDEX document_disabled_idx ON document (knowledge_base_id) WHERE NOT enabled`);

    await q.query(`ALTER TABLE chunk ALTER COLUMN embedding SET STORAGE MAIN`);
    // Existing vectors move inline when their rows are written again.
    await q.query(`UPDATE chunk SET embedding = embedding::text::vector`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chunk ALTER COLUMN embedding SET STORAGE EXTENDED`);
    await q.query(`DROP INDEX document_disabled_idx`);
    await q.query(`DROP INDEX chunk_unavailable_idx`);
    await q.query(`CREATE INDEX chunk_terms_idx ON chunk USING gin (terms)`);
    await q.query(`DROP TRIGGER chunk_postings_update ON chunk`);
    await q.query(`DROP TRIGGER chunk_postings_delete ON chunk`);
    await q.query(`DROP TRIGGER chunk_postings_insert ON chunk`);
    await q.query(`DROP FUNCTION chunk_postings_update()`);
    await q.query(`DROP FUNCTION chunk_postings_delete()`);
    await q.query(`DROP FUNCTION chunk_postings_insert()`);
    await q.query(`DROP TABLE chunk_term_stats`);
    await q.query(`DROP TABLE chunk_term`);
  }
}
