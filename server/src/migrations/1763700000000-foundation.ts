import type { MigrationInterface, QueryRunner } from "typeorm";

export class Foundation1763700000000 implements MigrationInterface {
  name = "Foundation1763700000000";

  async up(q: QueryRunner): Promise<void> {
    // pgvector serves the knowledge-base chunks; created here so that a fresh PostgreSQL needs no manual step.
    await q.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    await q.query(`CREATE TABLE tenant (
      id varchar(32) PRIMARY KEY,
      name varchar(128) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE app_user (
      id varchar(32) PRIMARY KEY,
      email varchar(255) NOT NULL,
      nickname varchar(100) NOT NULL,
      password_hash varchar(255) NOT NULL,
      avatar text,
      language varchar(32) NOT NULL DEFAULT 'en',
      color_schema varchar(16) NOT NULL DEFAULT 'Bright',
      timezone varchar(64) NOT NULL DEFAULT 'UTC',
      is_active boolean NOT NULL DEFAULT true,
      last_login_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX app_user_email_key ON app_user (lower(email))`);
    await q.query(`CREATE TABLE tenant_member (
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      user_id varchar(32) NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      role varchar(16) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, user_id)
    )`);
    await q.query(`CREATE INDEX tenant_member_user_idx ON tenant_member (user_id)`);
    await q.query(`CREATE TABLE auth_session (
      id varchar(32) PRIMARY KEY,
      user_id varchar(32) NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      token_hash char(64) NOT NULL UNIQUE,
      remember boolean NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX auth_session_user_idx ON auth_session (user_id)`);
    await q.query(`CREATE TABLE sign_in_throttle (
      email_key varchar(255) PRIMARY KEY,
      failures integer NOT NULL,
      locked_until timestamptz
    )`);
    await q.query(`CREATE TABLE api_token (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      token_hash char(64) NOT NULL UNIQUE,
      hint varchar(32) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    )`);
    await q.query(`CREATE INDEX api_token_tenant_idx ON api_token (tenant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ["api_token", "sign_in_throttle", "auth_session", "tenant_member", "app_user", "tenant"]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
