import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import { ParseLogLine } from "../document.entity";

/** The knowledge-base tasks of RAGFlow v0.24 (`run_raptor`, `run_graphrag`): over all documents of a knowledge base, started by the user. */
export enum KbTaskKind {
  RAPTOR = "raptor",
  GRAPHRAG = "graphrag",
}
registerEnumType(KbTaskKind, { name: "KnowledgeBaseTaskKind", description: "raptor: cluster summaries; graphrag: the knowledge graph." });

export enum KbTaskStatus {
  QUEUED = "queued",
  RUNNING = "running",
  DONE = "done",
  FAILED = "failed",
  CANCELLED = "cancelled",
}
registerEnumType(KbTaskStatus, { name: "KnowledgeBaseTaskStatus" });

/** Statuses of a task that has not ended: at most one such task per kind and knowledge base (a partial unique index). */
export const ACTIVE_STATUSES = [KbTaskStatus.QUEUED, KbTaskStatus.RUNNING];

/** One run of RAPTOR or GraphRAG over a knowledge base: its progress and log, what it covered and what it made. */
@ObjectType("KnowledgeBaseTask")
@Entity("kb_task")
export class KbTask {
  @Field(() => ID, { description: "32 hex digits, as RAGFlow's task ids." })
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  knowledgeBaseId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field(() => KbTaskKind)
  @Column({ type: "varchar", length: 16 })
  kind: KbTaskKind;

  @Field(() => KbTaskStatus)
  @Column({ type: "varchar", length: 16 })
  status: KbTaskStatus;

  @Field(() => Float, { description: "0..1 while it runs; 1 when done; -1 when it failed or was cancelled (RAGFlow's convention)." })
  @Column({ type: "real" })
  progress: number;

  @Field({ description: "The task's log in English, one line per step; the last line says how it ended." })
  @Column({ type: "text" })
  progressMsg: string;

  @Field(() => [ParseLogLine], { description: "The same log as message keys, for the reader's language; empty for logs written before it existed (progressMsg has them)." })
  @Column({ type: "jsonb", default: () => "'[]'" })
  progressLog: ParseLogLine[];

  @Field(() => [ID], { description: "The documents of the knowledge base when the task was started." })
  @Column({ type: "jsonb" })
  documentIds: string[];

  @Field(() => Int, { nullable: true, description: "RAPTOR: the summary chunks it made (once done)." })
  @Column({ type: "integer", nullable: true })
  chunkCount: number | null;

  @Field(() => Int, { nullable: true, description: "GraphRAG: the entities of the graph it made (once done)." })
  @Column({ type: "integer", nullable: true })
  entityCount: number | null;

  @Field(() => Int, { nullable: true, description: "GraphRAG: the relations of the graph it made (once done)." })
  @Column({ type: "integer", nullable: true })
  relationCount: number | null;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  beginAt: Date | null;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  finishedAt: Date | null;

  @Field(() => Float, { description: "Seconds from its start to its end (or to now while it runs)." })
  @Column({ type: "real", default: 0 })
  processDuration: number;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
