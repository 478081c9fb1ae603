import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";
import type { BlockPosition } from "../ingestion/types";

/**
 * A retrievable piece of a document. Its vector, search terms and term count are written and read
 * only through SQL in chunk-store.ts (their types depend on the embedding model), so they are not mapped here.
 */
@ObjectType()
@Entity()
export class Chunk {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  knowledgeBaseId: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  documentId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Field(() => Int, { description: "Order within its document." })
  @Column({ type: "integer" })
  ordinal: number;

  @Field({ description: "text (from parsing), manual (added by a user), raptor (a cluster summary)." })
  @Column({ type: "varchar", length: 16 })
  kind: string;

  @Field()
  @Column({ type: "text" })
  content: string;

  @Field({ description: "Section path, slide title or column names: boosted in keyword search." })
  @Column({ type: "text" })
  title: string;

  @Field(() => [String])
  @Column({ type: "jsonb" })
  keywords: string[];

  @Field(() => [String])
  @Column({ type: "jsonb" })
  questions: string[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: "Typed fields (resume, table rows)." })
  @Column({ type: "jsonb", nullable: true })
  fields: Record<string, string> | null;

  @Column({ type: "jsonb" })
  positions: BlockPosition[];

  @Field(() => Int, { nullable: true, description: "First page (PDF) or slide it comes from." })
  @Column({ type: "integer", nullable: true })
  page: number | null;

  @Column({ type: "real", nullable: true })
  top: number | null;

  @Column({ type: "varchar", length: 200, nullable: true })
  imageKey: string | null;

  @Field({ description: "A disabled chunk is never retrieved." })
  @Column({ type: "boolean" })
  available: boolean;

  @Field(() => Int)
  @Column({ type: "integer" })
  tokenCount: number;

  @Field(() => GraphQLJSONObject, { description: "What produced generated parts: {keywords, questions, summary, graph} → model id." })
  @Column({ type: "jsonb" })
  producedBy: Record<string, string>;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
