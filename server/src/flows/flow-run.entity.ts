import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";
import type { MessageReference } from "../chat/message.entity";
import type { ComponentOutput, ResolvedInput } from "./component";

/** queued → running → waiting (at an Answer, for the user) | finished | failed | cancelled. */
export type FlowRunStatus = "queued" | "running" | "waiting" | "finished" | "failed" | "cancelled";
export const FINAL_RUN_STATUSES: readonly FlowRunStatus[] = ["waiting", "finished", "failed", "cancelled"];

/** One turn of a session: from the user's message (or the start) to the next Answer, or to the flow's end. */
@ObjectType()
@Entity("flow_run")
export class FlowRun {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  flowId: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  sessionId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  /** Who started it: their principal runs it (what retrieval may read, the model defaults). */
  @Field()
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field(() => String, { description: "queued, running, waiting, finished, failed or cancelled." })
  @Column({ type: "varchar", length: 16 })
  status: FlowRunStatus;

  @Field(() => String, { nullable: true, description: "The user's message of this turn." })
  @Column({ type: "text", nullable: true })
  message: string | null;

  @Field(() => GraphQLJSONObject, { description: "Begin's input values by key." })
  @Column({ type: "jsonb", default: {} })
  inputs: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: "A re-run from this component (debugging)." })
  @Column({ type: "varchar", length: 255, nullable: true })
  fromComponent: string | null;

  @Field({ description: "What the user was told this turn." })
  @Column({ type: "text", default: "" })
  answer: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The citations of the answer (chunks and doc_aggs, as chat answers have them)." })
  @Column({ type: "jsonb", nullable: true })
  reference: MessageReference | null;

  @Field(() => String, { nullable: true, description: "Why it failed, in the language of who ran it." })
  @Column({ type: "text", nullable: true })
  error: string | null;

  @Field(() => [String], { description: "What the user should know of the run (a model substituted), translated." })
  @Column({ type: "jsonb", default: [] })
  notes: string[];

  @Field(() => Int, { description: "Model tokens the turn used." })
  @Column({ type: "integer", default: 0 })
  tokens: number;

  /** The language the run speaks (its errors and notes). */
  @Column({ type: "varchar", length: 16 })
  language: string;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  startedAt: Date | null;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  finishedAt: Date | null;
}

/** What one component did in a run, in order (the editor's node popovers, the REST `node_finished`). */
@ObjectType()
@Entity("flow_run_step")
export class FlowRunStep {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  runId: string;

  @Field(() => Int, { description: "1 for the first component that finished in the run." })
  @PrimaryColumn({ type: "integer" })
  seq: number;

  @Field()
  @Column({ type: "varchar", length: 255 })
  componentId: string;

  @Field()
  @Column({ type: "varchar", length: 64 })
  componentName: string;

  @Field(() => GraphQLJSON, { description: "What it read: [{component_id, content}]." })
  @Column({ type: "jsonb", default: [] })
  inputs: ResolvedInput[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: "What it gave: content, items, values, reference, notes." })
  @Column({ type: "jsonb", nullable: true })
  output: ComponentOutput | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  error: string | null;

  @Field(() => Int)
  @Column({ type: "integer", default: 0 })
  elapsedMs: number;

  @Field(() => Int)
  @Column({ type: "integer", default: 0 })
  tokens: number;
}

/**
 * A run's events as stored, the store a late subscriber reads (platform/runs/event-stream.ts). Message deltas
 * are written in batches (one row for several), every other event as one row.
 */
@Entity("flow_run_event")
export class FlowRunEventRow {
  @PrimaryColumn({ type: "varchar", length: 32 })
  runId: string;

  /** The seq of the last event the row holds. */
  @PrimaryColumn({ type: "integer" })
  seq: number;

  /** The events, in order (one, or a batch of message deltas). */
  @Column({ type: "jsonb" })
  events: unknown[];

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
