import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import type { ParserConfig } from "../ingestion/types";
import { bigintAsNumber } from "../platform/sql";

/** A knowledge base (RAGFlow's "dataset"): documents parsed into chunks with one embedding model. */
@ObjectType()
@Entity()
export class KnowledgeBase {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Field({ description: "The user who created it." })
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @Column({ type: "varchar", length: 128 })
  name: string;

  @Field(() => String, { nullable: true, description: "A data URL (image/png or image/jpeg)." })
  @Column({ type: "text", nullable: true })
  avatar: string | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  description: string | null;

  @Field({ description: "English, Chinese, … — the language of its documents." })
  @Column({ type: "varchar", length: 32 })
  language: string;

  @Field({ description: "me (only the creator's tenant) or team (every member of the tenant's team)." })
  @Column({ type: "varchar", length: 8 })
  permission: string;

  @Field({ description: "name@Provider; cannot change once the knowledge base has chunks." })
  @Column({ type: "varchar", length: 330 })
  embeddingModel: string;

  @Field(() => String, { nullable: true, description: "name@Provider of the rerank model retrieval uses, or none." })
  @Column({ type: "varchar", length: 330, nullable: true })
  rerankModel: string | null;

  @Field({ description: "The chunk method new documents get (naive = General)." })
  @Column({ type: "varchar", length: 32 })
  chunkMethod: string;

  @Field(() => GraphQLJSONObject, { description: "Parser settings in RAGFlow's parser_config names." })
  @Column({ type: "jsonb" })
  parserConfig: ParserConfig;

  @Field(() => Int)
  @Column({ type: "integer", default: 0 })
  pagerank: number;

  @Field(() => Float)
  @Column({ type: "real" })
  similarityThreshold: number;

  @Field(() => Float, { description: "Weight of vector similarity in hybrid search; keyword similarity weighs 1 − this." })
  @Column({ type: "real" })
  vectorSimilarityWeight: number;

  @Field(() => Int)
  @Column({ type: "integer" })
  topK: number;

  @Field(() => Int)
  @Column({ type: "integer", default: 0 })
  documentCount: number;

  @Field(() => Int)
  @Column({ type: "integer", default: 0 })
  chunkCount: number;

  @Field(() => Float)
  @Column({ type: "bigint", default: 0, transformer: bigintAsNumber })
  tokenCount: number;

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
