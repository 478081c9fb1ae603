import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * PostgreSQL fires a table's statement-level UPDATE triggers for every INSERT … ON CONFLICT DO UPDATE, also when no
 * row conflicted: each parse completion (knowledge/chunk-store.ts stores chunks so) ran the three UPDATE triggers of
 * `chunk` — postings, counters, change records — over empty transition tables, seven statements planned and run for
 * nothing (0.7 ms a document of the embedded database's thread on SciFact, against 0.2 ms with this check).
 * Each now returns at once when the statement updated no row; what it does otherwise is unchanged.
 */

const NO_ROW_UPDATED = `IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;`;

/** The chunks whose terms or placement changed, as SearchPostings and PackedPostings define them. */
const changed = `old_rows o JOIN new_rows n ON n.id = o.id AND (o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
      OR o.knowledge_base_id <> n.knowledge_base_id OR o.document_id <> n.document_id)`;

const postings = `
        DELETE FROM chunk_term p USING ${changed}, jsonb_object_keys(o.terms) k
          WHERE p.knowledge_base_id = o.knowledge_base_id AND p.term = k AND p.chunk_id = o.id;
        INSERT INTO chunk_term (knowledge_base_id, term, chunk_id, document_id, tf, length)
          SELECT n.knowledge_base_id, t.key, n.id, n.document_id, t.value::text::real, n.term_count FROM ${changed}, jsonb_each(n.terms) t;
        UPDATE chunk_term_stats s SET chunks = s.chunks + d.chunks, length = s.length + d.length
          FROM (SELECT kb, sum(chunks) AS chunks, sum(length) AS length FROM (
                  SELECT o.knowledge_base_id AS kb, -1 AS chunks, -o.term_count AS length FROM ${changed}
                  UNION ALL SELECT n.knowledge_base_id, 1, n.term_count FROM ${changed}) x GROUP BY kb) d
          WHERE s.knowledge_base_id = d.kb;`;

const counted = `SELECT document_id, knowledge_base_id, -1 AS chunks, -token_count::bigint AS tokens FROM old_rows
  UNION ALL SELECT document_id, knowledge_base_id, 1 AS chunks, token_count::bigint AS tokens FROM new_rows`;
const counters = `
      UPDATE document d SET chunk_count = d.chunk_count + x.chunks, token_count = d.token_count + x.tokens
        FROM (SELECT document_id, sum(chunks) AS chunks, sum(tokens) AS tokens FROM (${counted}) c GROUP BY document_id) x
        WHERE d.id = x.document_id AND (x.chunks <> 0 OR x.tokens <> 0);
      UPDATE knowledge_base k SET chunk_count = k.chunk_count + x.chunks, token_count = k.token_count + x.tokens, updated_at = now()
        FROM (SELECT knowledge_base_id, sum(chunks) AS chunks, sum(tokens) AS tokens FROM (${counted}) c GROUP BY knowledge_base_id) x
        WHERE k.id = x.knowledge_base_id AND (x.chunks <> 0 OR x.tokens <> 0);`;

const changeRecords = `
      INSERT INTO chunk_term_change (knowledge_base_id, version, chunk_id)
        SELECT r.knowledge_base_id, s.version, r.id FROM (SELECT o.knowledge_base_id, o.id FROM ${changed} UNION SELECT n.knowledge_base_id, n.id FROM ${changed}) r
          JOIN chunk_term_stats s USING (knowledge_base_id)
        ON CONFLICT DO NOTHING;`;

const BODIES = { chunk_postings_update: postings, chunk_counters_update: counters, chunk_term_changes_update: changeRecords };

async function define(q: QueryRunner, guard: string): Promise<void> {
  for (const [name, body] of Object.entries(BODIES)) {
    await q.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${guard}
        ${body}
        RETURN NULL;
      END $$`);
  }
}

export class UpdateTriggersSkipNoRows1764500000005 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await define(q, NO_ROW_UPDATED);
  }

  async down(q: QueryRunner): Promise<void> {
    await define(q, "");
  }
}
