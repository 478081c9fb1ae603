import type { MigrationInterface, QueryRunner } from "typeorm";

/** Shared flows (spec §2, API publishing): one share token per flow, as chat_share is per assistant. */
export class FlowShares1764480000000 implements MigrationInterface {
  name = "FlowShares1764480000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE flow_share (
      id varchar(64) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      flow_id varchar(32) NOT NULL REFERENCES flow(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX flow_share_flow_key ON flow_share (flow_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS flow_share`);
  }
}
