import type { MigrationInterface, QueryRunner } from "typeorm";

/** Team invitations by e-mail (spec §3, §4): to an account, or waiting for its address to sign up. */
export class Teams1764490000001 implements MigrationInterface {
  name = "Teams1764490000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE team_invitation (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      email varchar(255) NOT NULL,
      user_id varchar(32) REFERENCES app_user(id) ON DELETE CASCADE,
      invited_by varchar(32) NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      mail varchar(8) NOT NULL,
      mail_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX team_invitation_address_key ON team_invitation (tenant_id, lower(email))`);
    await q.query(`CREATE INDEX team_invitation_email_idx ON team_invitation (lower(email))`);
    await q.query(`CREATE INDEX team_invitation_user_idx ON team_invitation (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS team_invitation`);
  }
}
