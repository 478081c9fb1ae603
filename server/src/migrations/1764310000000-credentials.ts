import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * API keys may expire; failed sign-ins and sign-ups are counted per key of throttle_counter ("signin:address:…",
 * "signin:network:…", "signin:account:…|…", "signup:…": auth/throttle.ts) instead of per e-mail address only, so
 * sign_in_throttle goes (its counts only slowed a stranger for a few minutes; nothing is lost by starting afresh).
 */
export class Credentials1764310000000 implements MigrationInterface {
  name = "Credentials1764310000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_token ADD COLUMN expires_at timestamptz`);
    await q.query(`DROP TABLE sign_in_throttle`);
    await q.query(`CREATE TABLE throttle_counter (
      key varchar(400) PRIMARY KEY,
      events integer NOT NULL,
      last_event_at timestamptz NOT NULL,
      locked_until timestamptz
    )`);
    // Counters that have gone quiet are swept by their age.
    await q.query(`CREATE INDEX throttle_counter_last_event_idx ON throttle_counter (last_event_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE throttle_counter`);
    await q.query(`CREATE TABLE sign_in_throttle (
      email_key varchar(255) PRIMARY KEY,
      failures integer NOT NULL,
      locked_until timestamptz
    )`);
    await q.query(`ALTER TABLE api_token DROP COLUMN expires_at`);
  }
}
