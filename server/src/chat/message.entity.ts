import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

export type MessageRole = "user" | "assistant";
/** searching → streaming → done | stopped | failed; a question and an opener are 'done' from the start. */
export type MessageStatus = "searching" | "streaming" | "done" | "stopped" | "failed";
export const FINAL_STATUSES: readonly MessageStatus[] = ["done", "stopped", "failed"];

/** A cited chunk as RAGFlow's `reference.chunks[i]` carries it (API contract §8.2). */
export interface ReferenceChunk {
  id: string;
  content: string;
  document_id: string;
  document_name: string;
  dataset_id: string;
  image_id: string;
  positions: number[][];
  url: string | null;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  doc_type: string;
  /** Page of the chunk's first position, for the document viewer. */
  page?: number | null;
}

export interface MessageReference {
  total: number;
  chunks: ReferenceChunk[];
  doc_aggs: { doc_name: string; doc_id: string; count: number }[];
}

/** A prompt variable's value as a request gives it (objects are kept as their JSON text). */
export type VariableValue = string | number | boolean | null;

export interface AskOptions {
  variables?: Record<string, VariableValue>;
  documentIds?: string[];
  quote?: boolean;
}

export interface MessageFeedback {
  thumb: "up" | "down";
  comment?: string | null;
}

/** One turn of a conversation. An answer's content is written as it streams (chat/answer-stream.ts). */
@ObjectType("ChatMessage")
@Entity("chat_message")
export class Message {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  conversationId: string;

  /** Order in the conversation, from 0. */
  @Column({ type: "integer" })
  position: number;

  @Field(() => String, { description: "user or assistant." })
  @Column({ type: "varchar", length: 16 })
  role: MessageRole;

  @Field({ description: "The text so far; it grows while the answer streams." })
  @Column({ type: "text", default: "" })
  content: string;

  @Field(() => String, { description: "searching, streaming, done, stopped or failed." })
  @Column({ type: "varchar", length: 16 })
  status: MessageStatus;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  error: string | null;

  @Column({ type: "jsonb", nullable: true })
  reference: MessageReference | null;

  /** How many stream events the persisted content holds. */
  @Column({ type: "integer", default: 0 })
  seq: number;

  /** The debug prompt (system prompt, query, timings, usage), as RAGFlow's `prompt` of §8.2. */
  @Column({ type: "text", nullable: true })
  prompt: string | null;

  @Column({ type: "integer", default: 0 })
  promptTokens: number;

  @Column({ type: "integer", default: 0 })
  completionTokens: number;

  @Column({ type: "integer", nullable: true })
  firstTokenMs: number | null;

  @Column({ type: "integer", nullable: true })
  durationMs: number | null;

  @Column({ type: "jsonb", nullable: true })
  feedback: MessageFeedback | null;

  /** On a question: what it was asked with (prompt variables, document filter, quote), for regenerating its answer. */
  @Column({ type: "jsonb", nullable: true })
  variables: AskOptions | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
