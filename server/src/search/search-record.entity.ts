import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import type { MessageReference, MessageStatus } from "../chat/message.entity";
import type { MindMapNode } from "../knowledge/knowledge-graph";

/** How a mind map was made: by the chat model (JSON-schema output), or built from the retrieved chunks without one. */
export type MindMapSource = "model" | "extractive";

export interface StoredMindMap {
  source: MindMapSource;
  root: MindMapNode;
}

/**
 * One search a user ran on the search page, kept in its history (migrations/1764500000001-search.ts). The
 * summary answer is written as it streams, in the same columns and by the same writer as a chat answer
 * (`content` is the answer's text, `reference` its citations); related questions and the mind map are kept
 * once made, so that reopening a search asks no model again.
 */
@ObjectType("SearchRecord")
@Entity("search_record")
export class SearchRecord {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @Column({ type: "text" })
  question: string;

  @Field(() => [ID])
  @Column({ type: "jsonb", default: () => "'[]'" })
  knowledgeBaseIds: string[];

  /** Only these documents; null: every document of the knowledge bases. */
  @Field(() => [ID], { nullable: true })
  @Column({ type: "jsonb", nullable: true })
  documentIds: string[] | null;

  @Field({ name: "answer", description: "The summary answer with [ID:n] citations; it grows while the answer streams." })
  @Column({ type: "text", default: "" })
  content: string;

  @Field(() => String, { description: "The answer's status: searching, streaming, done, stopped or failed." })
  @Column({ type: "varchar", length: 16, default: "searching" })
  status: MessageStatus;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  error: string | null;

  @Column({ type: "jsonb", nullable: true })
  reference: MessageReference | null;

  /** How many stream events the persisted content holds (chat/answer-stream.ts). */
  @Column({ type: "integer", default: 0 })
  seq: number;

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

  /** Null until they were asked for once. */
  @Column({ type: "jsonb", nullable: true })
  relatedQuestions: string[] | null;

  /** Null until it was asked for once (after the answer is done). */
  @Column({ type: "jsonb", nullable: true })
  mindMap: StoredMindMap | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
