import type { MigrationInterface, QueryRunner } from "typeorm";

export class Models1763800000000 implements MigrationInterface {
  name = "Models1763800000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE model_entry (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      provider varchar(64) NOT NULL,
      model_name varchar(255) NOT NULL,
      model_type varchar(16) NOT NULL,
      settings jsonb NOT NULL DEFAULT '{}',
      sealed_secrets text NOT NULL,
      max_tokens integer,
      vision boolean NOT NULL DEFAULT false,
      used_tokens bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX model_entry_identity ON model_entry (tenant_id, provider, model_name, model_type)`);
    // One row per model call: what chat statistics and usage pages add up.
    await q.query(`CREATE TABLE model_usage (
      id bigserial PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      model_id varchar(330) NOT NULL,
      model_type varchar(16) NOT NULL,
      prompt_tokens integer NOT NULL,
      completion_tokens integer NOT NULL,
      total_tokens integer NOT NULL,
      duration_ms integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX model_usage_tenant_time ON model_usage (tenant_id, created_at)`);
    // The tenant's default model of each type, as "name@Provider" ids; NULL means the built-in one.
    for (const column of ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"]) {
      await q.query(`ALTER TABLE tenant ADD COLUMN default_${column}_model varchar(330)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"]) {
      await q.query(`ALTER TABLE tenant DROP COLUMN default_${column}_model`);
    }
    await q.query(`DROP TABLE model_usage`);
    await q.query(`DROP TABLE model_entry`);
  }
}
