import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import type { FailureReason, ParserConfig } from "../ingestion/types";
import { bigintAsNumber } from "../platform/sql";
import type { ParseLogEntry } from "../ingestion/parse-log";

/** Parsing status (§4): 0 unstarted → 1 parsing → 3 success | 4 failed; 2 cancelled. */
export const RUN = { unstarted: "0", running: "1", cancelled: "2", done: "3", failed: "4" } as const;
export type RunStatus = (typeof RUN)[keyof typeof RUN];

@ObjectType({ description: "Why a document failed, as a message key of the locales and its parameters." })
export class DocumentFailure implements FailureReason {
  @Field()
  messageKey: string;

  @Field(() => GraphQLJSONObject)
  params: Record<string, unknown>;
}

@ObjectType({ description: "A line of the parse log: a message key of the locales with its parameters (a parameter may itself be {messageKey, params})." })
export class ParseLogLine implements ParseLogEntry {
  @Field({ description: "HH:MM:SS, UTC." })
  at: string;

  @Field()
  messageKey: string;

  @Field(() => GraphQLJSONObject)
  params: Record<string, unknown>;
}

/** A file in a knowledge base; its bytes are in the object store under `storageKey`. */
@ObjectType()
@Entity()
export class Document {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  knowledgeBaseId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @Column({ type: "varchar", length: 255 })
  name: string;

  @Field({ description: "pdf, doc, visual, aural or virtual (by extension)." })
  @Column({ type: "varchar", length: 16 })
  type: string;

  @Field({ description: "Lower-case extension without the dot." })
  @Column({ type: "varchar", length: 32 })
  suffix: string;

  @Field({ description: "local (uploaded), empty (created empty) or web (crawled)." })
  @Column({ type: "varchar", length: 16 })
  sourceType: string;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  sourceUrl: string | null;

  @Column({ type: "varchar", length: 200 })
  storageKey: string;

  @Field(() => Float, { description: "Bytes." })
  @Column({ type: "bigint", transformer: bigintAsNumber })
  size: number;

  @Field()
  @Column({ type: "varchar", length: 32 })
  chunkMethod: string;

  @Field(() => GraphQLJSONObject)
  @Column({ type: "jsonb" })
  parserConfig: ParserConfig;

  @Field({ description: "A disabled document's chunks are never retrieved." })
  @Column({ type: "boolean" })
  enabled: boolean;

  @Field(() => String, { description: "0 unstarted, 1 parsing, 2 cancelled, 3 success, 4 failed." })
  @Column({ type: "varchar", length: 2 })
  run: RunStatus;

  /** Identifies the current parse; a job whose run id is no longer the document's stops (cancelled or superseded). */
  @Column({ type: "varchar", length: 32, nullable: true })
  runId: string | null;

  @Field(() => Float, { description: "0..1 while parsing; 1 when done; -1 on failure." })
  @Column({ type: "real" })
  progress: number;

  @Field({ description: "The parse log in English, one line per step; the last line says how it ended." })
  @Column({ type: "text" })
  progressMsg: string;

  @Field(() => [ParseLogLine], { description: "The same log as message keys, for the reader's language; empty for logs written before it existed (progressMsg has them)." })
  @Column({ type: "jsonb", default: () => "'[]'" })
  progressLog: ParseLogLine[];

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  processBeginAt: Date | null;

  @Field(() => Float, { description: "Seconds the last parse took." })
  @Column({ type: "real" })
  processDuration: number;

  @Field(() => Int)
  @Column({ type: "integer" })
  chunkCount: number;

  @Field(() => Float)
  @Column({ type: "bigint", transformer: bigintAsNumber })
  tokenCount: number;

  @Field(() => Int, { nullable: true })
  @Column({ type: "integer", nullable: true })
  pageCount: number | null;

  @Field(() => GraphQLJSONObject)
  @Column({ type: "jsonb" })
  metaFields: Record<string, unknown>;

  /** Attempts the current run has started: counted before each, so that a file that kills its process is not tried for ever. */
  @Column({ type: "integer", default: 0 })
  parseAttempts: number;

  @Field(() => DocumentFailure, { nullable: true, description: "Why the last parse failed, for the client to say in the reader's language; null when the reason has no message key (the log says it)." })
  @Column({ type: "jsonb", nullable: true })
  failure: DocumentFailure | null;

  /** The recycle-bin entry that holds this row (bin/), or null while it is live. */
  @Column({ type: "varchar", length: 32, nullable: true })
  binnedIn: string | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}
