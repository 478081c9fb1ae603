import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * RAPTOR and GraphRAG run as knowledge-base tasks the user starts (RAGFlow v0.24), not inside each
 * parse: one row per run. The partial unique index keeps one unfinished task per kind and knowledge
 * base, also when two requests start one at the same moment.
 */
export class KbTasks1764340000000 implements MigrationInterface {
  name = "KbTasks1764340000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE kb_task (
      id varchar(32) PRIMARY KEY,
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      kind varchar(16) NOT NULL,
      status varchar(16) NOT NULL,
      progress real NOT NULL DEFAULT 0,
      progress_msg text NOT NULL DEFAULT '',
      document_ids jsonb NOT NULL DEFAULT '[]',
      chunk_count integer,
      entity_count integer,
      relation_count integer,
      begin_at timestamptz,
      finished_at timestamptz,
      process_duration real NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX kb_task_latest_idx ON kb_task (knowledge_base_id, kind, created_at)`);
    await q.query(`CREATE UNIQUE INDEX kb_task_one_active_idx ON kb_task (knowledge_base_id, kind) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE kb_task`);
  }
}
