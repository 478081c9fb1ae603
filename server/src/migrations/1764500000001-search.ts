import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The search page's history (issue 19): every search a user ran, with its summary answer and citations once
 * written, its related questions and its mind map, so that a kept search is shown again without asking a
 * model again. The answer's columns (content … duration_ms) mirror chat_message's: the chat's one answer
 * writer (chat/answer/answer-writer.ts) streams into either table.
 */
export class Search1764500000001 implements MigrationInterface {
  name = "Search1764500000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE search_record (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      question text NOT NULL,
      knowledge_base_ids jsonb NOT NULL DEFAULT '[]',
      document_ids jsonb,
      content text NOT NULL DEFAULT '',
      status varchar(16) NOT NULL DEFAULT 'searching',
      error text,
      reference jsonb,
      seq integer NOT NULL DEFAULT 0,
      prompt text,
      prompt_tokens integer NOT NULL DEFAULT 0,
      completion_tokens integer NOT NULL DEFAULT 0,
      first_token_ms integer,
      duration_ms integer,
      related_questions jsonb,
      mind_map jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX search_record_owner_idx ON search_record (tenant_id, created_by, created_at DESC)`);
    // Answers a server was writing when it stopped; found at start-up and closed (search.service.ts).
    await q.query(`CREATE INDEX search_record_open_idx ON search_record (status) WHERE status IN ('searching', 'streaming')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE search_record`);
  }
}
