import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A document's parse log is also kept as message keys with their parameters, so that the client says each line in
 * the reader's language; `progress_msg` keeps the English text that RAGFlow's API clients read.
 */
export class ParseLog1764320000000 implements MigrationInterface {
  name = "ParseLog1764320000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE document ADD COLUMN progress_log jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE document DROP COLUMN progress_log`);
  }
}
