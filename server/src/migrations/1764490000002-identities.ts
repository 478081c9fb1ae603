import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Sign-in with identity providers: the provider accounts linked to each user. An account made by a provider has no
 * password, so the password hash may be null (password sign-in then always fails, as for an unknown address).
 */
export class Identities1764490000002 implements MigrationInterface {
  name = "Identities1764490000002";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE user_identity (
      id varchar(32) PRIMARY KEY,
      provider varchar(32) NOT NULL,
      subject varchar(255) NOT NULL,
      user_id varchar(32) NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      email varchar(255),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX user_identity_subject_key ON user_identity (provider, subject)`);
    await q.query(`CREATE INDEX user_identity_user_idx ON user_identity (user_id)`);
    await q.query(`ALTER TABLE app_user ALTER COLUMN password_hash DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS user_identity`);
    await q.query(`ALTER TABLE app_user ALTER COLUMN password_hash SET NOT NULL`);
  }
}
