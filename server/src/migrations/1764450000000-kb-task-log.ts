import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A RAPTOR or GraphRAG task's log is also kept as message keys with their parameters, as a document's parse log is,
 * so that the client says each line in the reader's language; `progress_msg` keeps the English text that
 * `trace_raptor` / `trace_graphrag` answer.
 */
export class KbTaskLog1764450000000 implements MigrationInterface {
  name = "KbTaskLog1764450000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE kb_task ADD COLUMN progress_log jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE kb_task DROP COLUMN progress_log`);
  }
}
