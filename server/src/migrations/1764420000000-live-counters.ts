import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The counters of documents and knowledge bases (chunks, tokens, documents) follow their rows through
 * statement-level triggers, as the search postings do: whatever writes chunks or documents (ingestion,
 * the chunk editor, an upsert that replaces a chunk, a cascaded delete), the counters move in the same
 * statement, so lists and pages never show a count the rows disagree with. Counters kept by hand before
 * are recounted once here. A knowledge base whose counts move is updated (`updated_at`), as RAGFlow's
 * `update_time` moves with its `doc_num` and `chunk_num`.
 */
export class LiveCounters1764420000000 implements MigrationInterface {
  name = "LiveCounters1764420000000";

  async up(q: QueryRunner): Promise<void> {
    // `delta` has one row per changed chunk: (document_id, knowledge_base_id, chunks, tokens).
    const apply = (delta: string) => `
      UPDATE document d SET chunk_count = d.chunk_count + x.chunks, token_count = d.token_count + x.tokens
        FROM (SELECT document_id, sum(chunks) AS chunks, sum(tokens) AS tokens FROM (${delta}) c GROUP BY document_id) x
        WHERE d.id = x.document_id AND (x.chunks <> 0 OR x.tokens <> 0);
      UPDATE knowledge_base k SET chunk_count = k.chunk_count + x.chunks, token_count = k.token_count + x.tokens, updated_at = now()
        FROM (SELECT knowledge_base_id, sum(chunks) AS chunks, sum(tokens) AS tokens FROM (${delta}) c GROUP BY knowledge_base_id) x
        WHERE k.id = x.knowledge_base_id AND (x.chunks <> 0 OR x.tokens <> 0);`;
    const added = `SELECT document_id, knowledge_base_id, 1 AS chunks, token_count::bigint AS tokens FROM new_rows`;
    const removed = `SELECT document_id, knowledge_base_id, -1 AS chunks, -token_count::bigint AS tokens FROM old_rows`;
    await q.query(`CREATE FUNCTION chunk_counters_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(added)} RETURN NULL; END $$`);
    await q.query(`CREATE FUNCTION chunk_counters_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(removed)} RETURN NULL; END $$`);
    // An update moves counters only when a chunk's token count or its place changes (an upsert that replaces a chunk, an edit).
    await q.query(`CREATE FUNCTION chunk_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(`${removed} UNION ALL ${added}`)} RETURN NULL; END $$`);
    await q.query(`CREATE TRIGGER chunk_counters_insert AFTER INSERT ON chunk REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_counters_insert()`);
    await q.query(`CREATE TRIGGER chunk_counters_delete AFTER DELETE ON chunk REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_counters_delete()`);
    await q.query(`CREATE TRIGGER chunk_counters_update AFTER UPDATE ON chunk REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION chunk_counters_update()`);

    const documents = (rows: string, sign: string) => `
      UPDATE knowledge_base k SET document_count = k.document_count ${sign} x.documents, updated_at = now()
        FROM (SELECT knowledge_base_id, count(*) AS documents FROM ${rows} GROUP BY knowledge_base_id) x WHERE k.id = x.knowledge_base_id;`;
    await q.query(`CREATE FUNCTION document_counters_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${documents("new_rows", "+")} RETURN NULL; END $$`);
    await q.query(`CREATE FUNCTION document_counters_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${documents("old_rows", "-")} RETURN NULL; END $$`);
    await q.query(`CREATE TRIGGER document_counters_insert AFTER INSERT ON document REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION document_counters_insert()`);
    await q.query(`CREATE TRIGGER document_counters_delete AFTER DELETE ON document REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION document_counters_delete()`);

    await q.query(`UPDATE document d SET chunk_count = x.chunks, token_count = x.tokens
      FROM (SELECT d2.id, count(c.id) AS chunks, coalesce(sum(c.token_count), 0) AS tokens FROM document d2 LEFT JOIN chunk c ON c.document_id = d2.id GROUP BY d2.id) x
      WHERE d.id = x.id AND (d.chunk_count <> x.chunks OR d.token_count <> x.tokens)`);
    await q.query(`UPDATE knowledge_base k SET
        document_count = (SELECT count(*) FROM document WHERE knowledge_base_id = k.id),
        chunk_count = (SELECT count(*) FROM chunk WHERE knowledge_base_id = k.id),
        token_count = (SELECT coalesce(sum(token_count), 0) FROM chunk WHERE knowledge_base_id = k.id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER document_counters_delete ON document`);
    await q.query(`DROP TRIGGER document_counters_insert ON document`);
    await q.query(`DROP TRIGGER chunk_counters_update ON chunk`);
    await q.query(`DROP TRIGGER chunk_counters_delete ON chunk`);
    await q.query(`DROP TRIGGER chunk_counters_insert ON chunk`);
    await q.query(`DROP FUNCTION document_counters_delete()`);
    await q.query(`DROP FUNCTION document_counters_insert()`);
    await q.query(`DROP FUNCTION chunk_counters_update()`);
    await q.query(`DROP FUNCTION chunk_counters_delete()`);
    await q.query(`DROP FUNCTION chunk_counters_insert()`);
  }
}
