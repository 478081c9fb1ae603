import type { MigrationInterface, QueryRunner } from "typeorm";

export class ChatAssistants1764000000000 implements MigrationInterface {
  name = "ChatAssistants1764000000000";

  async up(q: QueryRunner): Promise<void> {
    // RAGFlow's "dialog", with its internal column names where the REST facade returns them verbatim.
    await q.query(`CREATE TABLE chat_assistant (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL,
      name varchar(255) NOT NULL,
      description text,
      icon text,
      language varchar(32) NOT NULL DEFAULT 'English',
      kb_ids jsonb NOT NULL DEFAULT '[]',
      llm_id varchar(330) NOT NULL DEFAULT '',
      llm_setting jsonb NOT NULL DEFAULT '{}',
      prompt_config jsonb NOT NULL DEFAULT '{}',
      similarity_threshold real NOT NULL DEFAULT 0.2,
      vector_similarity_weight real NOT NULL DEFAULT 0.3,
      top_n integer NOT NULL DEFAULT 6,
      top_k integer NOT NULL DEFAULT 1024,
      rerank_id varchar(330) NOT NULL DEFAULT '',
      do_refer varchar(1) NOT NULL DEFAULT '1',
      meta_data_filter jsonb NOT NULL DEFAULT '{}',
      status varchar(1) NOT NULL DEFAULT '1',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    // Names are unique per tenant among live assistants, whatever their case; a deleted one frees its name.
    await q.query(`CREATE UNIQUE INDEX chat_assistant_name_key ON chat_assistant (tenant_id, lower(name)) WHERE status = '1'`);
    await q.query(`CREATE INDEX chat_assistant_tenant_idx ON chat_assistant (tenant_id, created_at)`);

    await q.query(`CREATE TABLE chat_share (
      id varchar(64) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      assistant_id varchar(32) NOT NULL REFERENCES chat_assistant(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX chat_share_assistant_key ON chat_share (assistant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS chat_share`);
    await q.query(`DROP TABLE IF EXISTS chat_assistant`);
  }
}
