import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** What a merge made: one chunk in an existing document, or a new document parsed like an upload. */
export enum MergeTarget {
  chunk = "chunk",
  document = "document",
}
registerEnumType(MergeTarget, { name: "MergeTarget" });

/** What became of the chosen chunks once merged. */
export enum MergeSourceAction {
  keep = "keep",
  disable = "disable",
  remove = "remove",
}
registerEnumType(MergeSourceAction, { name: "MergeSourceAction", description: "keep: left as they were; disable: never retrieved again; remove: deleted." });

/** A chunk that went into a merge, as it was then: the chunk may change or go later, its copy here does not. */
@ObjectType()
export class ChunkMergeSource {
  @Field(() => ID)
  chunkId: string;

  @Field(() => ID)
  documentId: string;

  @Field({ description: "The document's name at merge time." })
  documentName: string;

  @Field(() => ID)
  knowledgeBaseId: string;

  @Field({ description: "The chunk's text at merge time." })
  content: string;
}

/** A merge of chosen chunks into one chunk or a new document: who made it, when, from what, into what. */
@ObjectType()
@Entity()
export class ChunkMerge {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Field(() => ID, { description: "The user who merged." })
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field(() => MergeTarget)
  @Column({ type: "varchar", length: 16 })
  target: MergeTarget;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  targetKnowledgeBaseId: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  targetDocumentId: string;

  @Field(() => ID, { nullable: true, description: "The merged chunk; null when the merge made a document." })
  @Column({ type: "varchar", length: 32, nullable: true })
  targetChunkId: string | null;

  @Field(() => MergeSourceAction)
  @Column({ type: "varchar", length: 16 })
  sourceAction: MergeSourceAction;

  @Field(() => [ChunkMergeSource], { description: "In the order they were merged." })
  @Column({ type: "jsonb" })
  sources: ChunkMergeSource[];

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
