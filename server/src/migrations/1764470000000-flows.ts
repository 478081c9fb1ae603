import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Agent flows: the flow, the versions its saves keep, its sessions (each with its own state and copy of the flow),
 * and every run with its steps and its events. A title is unique in its tenant whatever its case (spec §5).
 */
export class Flows1764470000000 implements MigrationInterface {
  name = "Flows1764470000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE flow (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      title varchar(255) NOT NULL,
      description text,
      avatar text,
      permission varchar(8) NOT NULL DEFAULT 'me',
      dsl jsonb NOT NULL,
      last_run_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX flow_title_key ON flow (tenant_id, lower(title))`);
    await q.query(`CREATE TABLE flow_version (
      id varchar(32) PRIMARY KEY,
      flow_id varchar(32) NOT NULL REFERENCES flow(id) ON DELETE CASCADE,
      title varchar(255) NOT NULL,
      dsl jsonb NOT NULL,
      created_by varchar(32) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX flow_version_flow_idx ON flow_version (flow_id, created_at)`);
    await q.query(`CREATE TABLE flow_session (
      id varchar(32) PRIMARY KEY,
      flow_id varchar(32) NOT NULL REFERENCES flow(id) ON DELETE CASCADE,
      tenant_id varchar(32) NOT NULL,
      user_id varchar(255) NOT NULL,
      source varchar(8) NOT NULL,
      dsl jsonb NOT NULL,
      state jsonb NOT NULL,
      messages jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX flow_session_flow_idx ON flow_session (flow_id, updated_at)`);
    await q.query(`CREATE TABLE flow_run (
      id varchar(32) PRIMARY KEY,
      flow_id varchar(32) NOT NULL REFERENCES flow(id) ON DELETE CASCADE,
      session_id varchar(32) NOT NULL REFERENCES flow_session(id) ON DELETE CASCADE,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      status varchar(16) NOT NULL,
      message text,
      inputs jsonb NOT NULL DEFAULT '{}',
      from_component varchar(255),
      answer text NOT NULL DEFAULT '',
      reference jsonb,
      error text,
      notes jsonb NOT NULL DEFAULT '[]',
      tokens integer NOT NULL DEFAULT 0,
      language varchar(16) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
    await q.query(`CREATE INDEX flow_run_flow_idx ON flow_run (flow_id, created_at)`);
    await q.query(`CREATE INDEX flow_run_session_idx ON flow_run (session_id, created_at)`);
    // One turn at a time in a session: its state is the previous turn's.
    await q.query(`CREATE UNIQUE INDEX flow_run_one_active_idx ON flow_run (session_id) WHERE status IN ('queued', 'running')`);
    await q.query(`CREATE TABLE flow_run_step (
      run_id varchar(32) NOT NULL REFERENCES flow_run(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      component_id varchar(255) NOT NULL,
      component_name varchar(64) NOT NULL,
      inputs jsonb NOT NULL DEFAULT '[]',
      output jsonb,
      error text,
      elapsed_ms integer NOT NULL DEFAULT 0,
      tokens integer NOT NULL DEFAULT 0,
      PRIMARY KEY (run_id, seq)
    )`);
    await q.query(`CREATE TABLE flow_run_event (
      run_id varchar(32) NOT NULL REFERENCES flow_run(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      events jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (run_id, seq)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE flow_run_event`);
    await q.query(`DROP TABLE flow_run_step`);
    await q.query(`DROP TABLE flow_run`);
    await q.query(`DROP TABLE flow_session`);
    await q.query(`DROP TABLE flow_version`);
    await q.query(`DROP TABLE flow`);
  }
}
