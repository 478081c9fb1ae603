import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Conversations with chat assistants and their messages. An answer's row is written while it streams
 * (content and the number of stream events it holds, `seq`), so a subscriber that arrives late or
 * reconnects reads what it missed from here (chat/answer-stream.ts). No foreign key to chat_assistant:
 * assistants are soft-deleted, and their conversations stay for the statistics.
 */
export class ChatConversations1764000000001 implements MigrationInterface {
  name = "ChatConversations1764000000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE chat_conversation (
      id varchar(32) PRIMARY KEY,
      assistant_id varchar(32) NOT NULL,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      user_id varchar(255) NOT NULL DEFAULT '',
      source varchar(8) NOT NULL DEFAULT 'web',
      name varchar(255) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX chat_conversation_assistant_idx ON chat_conversation (assistant_id, user_id, updated_at)`);
    await q.query(`CREATE INDEX chat_conversation_tenant_idx ON chat_conversation (tenant_id, created_at)`);

    await q.query(`CREATE TABLE chat_message (
      id varchar(32) PRIMARY KEY,
      conversation_id varchar(32) NOT NULL REFERENCES chat_conversation(id) ON DELETE CASCADE,
      position integer NOT NULL,
      role varchar(16) NOT NULL,
      content text NOT NULL DEFAULT '',
      status varchar(16) NOT NULL DEFAULT 'done',
      error text,
      reference jsonb,
      seq integer NOT NULL DEFAULT 0,
      prompt text,
      prompt_tokens integer NOT NULL DEFAULT 0,
      completion_tokens integer NOT NULL DEFAULT 0,
      first_token_ms integer,
      duration_ms integer,
      feedback jsonb,
      variables jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX chat_message_position_key ON chat_message (conversation_id, position)`);
    await q.query(`CREATE INDEX chat_message_created_idx ON chat_message (created_at)`);
    // Answers a server was writing when it stopped; found at start-up and closed (conversation.service.ts).
    await q.query(`CREATE INDEX chat_message_open_idx ON chat_message (status) WHERE status IN ('searching', 'streaming')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_message`);
    await q.query(`DROP TABLE chat_conversation`);
  }
}
