import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { Chunk } from "./chunk.entity";
import { ChunkMerge, MergeSourceAction, MergeTarget } from "./chunk-merge.entity";
import type { MergeSource } from "./chunk-merge.service";
import { Document } from "./document.entity";
import { KnowledgeBase } from "./knowledge-base.entity";

@ObjectType({ description: "A chunk chosen for a merge, with its document and knowledge base." })
class MergeSourceChunk implements MergeSource {
  @Field(() => Chunk)
  chunk: Chunk;

  @Field(() => Document)
  document: Document;

  @Field(() => KnowledgeBase)
  knowledgeBase: KnowledgeBase;
}

@InputType({ description: "Chosen chunks merged into one chunk of a document, or into a new document of a knowledge base." })
class MergeChunksInput {
  @Field(() => [ID], { description: "In the order their texts are joined; two at least." })
  chunkIds: string[];

  @Field({ description: "The merged text, as edited." })
  content: string;

  @Field(() => MergeTarget)
  target: MergeTarget;

  @Field(() => ID, { nullable: true, description: "target chunk: the document the merged chunk goes into." })
  documentId?: string;

  @Field(() => ID, { nullable: true, description: "target document: the knowledge base of the new document." })
  knowledgeBaseId?: string;

  @Field({ nullable: true, description: "target document: its name (\".txt\" is added unless it ends in .txt or .md)." })
  documentName?: string;

  @Field(() => [String], { nullable: true, description: "target chunk: its keywords; the sources' together when not given." })
  keywords?: string[];

  @Field(() => [String], { nullable: true, description: "target chunk: its questions; the sources' together when not given." })
  questions?: string[];

  @Field(() => MergeSourceAction, { nullable: true, description: "What becomes of the chosen chunks; keep when not given." })
  sourceAction?: MergeSourceAction;
}

@ObjectType()
class MergeChunksResult {
  @Field(() => ChunkMerge)
  merge: ChunkMerge;

  @Field(() => Chunk, { nullable: true, description: "The merged chunk (target chunk)." })
  chunk: Chunk | null;

  @Field(() => Document, { description: "The document holding the result: the merged chunk's, or the new one, being parsed." })
  document: Document;
}

@ObjectType()
class MergeTextSize {
  @Field(() => Int, { description: "Tokens, counted as chunk sizes are." })
  tokens: number;

  @Field(() => Int, { description: "The most a merged chunk may hold; longer text can be merged into a new document." })
  maxChunkTokens: number;
}

@Resolver()
export class ChunkMergeResolver {
  @Query(() => [MergeSourceChunk], { description: "Chunks chosen for a merge, in the order given; \"chunk not found\" for any the caller may not read." })
  mergeSources(@Ctx() context: GraphQLContext, @Arg("chunkIds", () => [ID]) chunkIds: string[]): Promise<MergeSource[]> {
    return context.services.chunkMerges.sources(signedIn(context), chunkIds);
  }

  @Query(() => MergeTextSize, { description: "The size of a merged text as it is being edited." })
  mergeTextSize(@Ctx() context: GraphQLContext, @Arg("text") text: string): MergeTextSize {
    signedIn(context);
    return context.services.chunkMerges.textSize(text);
  }

  @Query(() => [ChunkMerge], { description: "The merges that made chunks of this document, or the document itself, oldest first: their sources as they were." })
  chunkMerges(@Ctx() context: GraphQLContext, @Arg("documentId", () => ID) documentId: string): Promise<ChunkMerge[]> {
    return context.services.chunkMerges.ofDocument(signedIn(context), documentId);
  }

  @Mutation(() => MergeChunksResult, { description: "Merges chosen chunks into one chunk or a new document; the sources are recorded as they were." })
  mergeChunks(@Ctx() context: GraphQLContext, @Arg("input") input: MergeChunksInput): Promise<MergeChunksResult> {
    return context.services.chunkMerges.merge(signedIn(context), input);
  }
}
