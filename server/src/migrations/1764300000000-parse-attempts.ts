import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Parsing attempts are counted in the database, before each starts, so that a file whose parse takes its
 * process down is failed after its last attempt instead of being resumed at every start; and a failed
 * document keeps its reason as a message key, which the client translates.
 */
export class ParseAttempts1764300000000 implements MigrationInterface {
  name = "ParseAttempts1764300000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE document ADD COLUMN parse_attempts integer NOT NULL DEFAULT 0, ADD COLUMN failure jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE document DROP COLUMN parse_attempts, DROP COLUMN failure`);
  }
}
