import { GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, FieldResolver, Float, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import type { AnswerEvent as StreamEvent } from "../chat/answer-stream";
import { AnswerEvent, ChatReference, referencesOf } from "../chat/conversation.resolver";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { DocumentAggregateType, RetrievalHitType } from "../retrieval/retrieval.resolver";
import { SearchRecord, type StoredMindMap } from "./search-record.entity";

/** The search page over GraphQL; thin: SearchService decides everything. */

@InputType({ description: "A search: the question and the knowledge bases (and, optionally, documents) it looks in." })
class SearchInput {
  @Field()
  question: string;

  @Field(() => [ID])
  knowledgeBaseIds: string[];

  @Field(() => [ID], { nullable: true, description: "Only these documents." })
  documentIds?: string[] | null;
}

@InputType({ description: "A page of a search's matching chunks." })
class SearchChunksInput extends SearchInput {
  @Field(() => Int, { nullable: true, description: "From 1; default 1." })
  page?: number;

  @Field(() => Int, { nullable: true, description: "1..100; default 10." })
  pageSize?: number;
}

@ObjectType({ description: "A matching chunk as retrieval testing shows it, with its knowledge base named for the filters." })
class SearchHit extends RetrievalHitType {
  @Field()
  knowledgeBaseName: string;
}

@ObjectType({ description: "How many matching chunks a document or knowledge base holds: a filter's choice." })
class SearchFacet {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => ID, { nullable: true, description: "The document's knowledge base (documents only)." })
  knowledgeBaseId?: string | null;

  @Field(() => Int)
  count: number;
}

@ObjectType()
class SearchChunksResult {
  @Field(() => Int, { description: "Matching chunks over all pages." })
  total: number;

  @Field(() => [SearchHit])
  hits: SearchHit[];

  @Field(() => [SearchFacet], { description: "Matches per document, most first." })
  documents: SearchFacet[];

  @Field(() => [SearchFacet], { description: "Matches per knowledge base, most first." })
  knowledgeBases: SearchFacet[];

  @Field(() => Float)
  retrievalMs: number;
}

@ObjectType({ description: "A mind map: the question at the root, then what the answer is about." })
class SearchMindMap {
  @Field({ description: "model (the chat model drew it from the answer) or extractive (built from the retrieved chunks: documents and their key phrases)." })
  source: string;

  @Field(() => GraphQLJSONObject, { description: "{id, label, children: [...]}" })
  root: Record<string, unknown>;
}

@ObjectType()
class SearchHistoryPage {
  @Field(() => [SearchRecord])
  items: SearchRecord[];

  @Field(() => Int)
  total: number;
}

const presentMindMap = (map: StoredMindMap): SearchMindMap => ({ source: map.source, root: map.root as unknown as Record<string, unknown> });

@Resolver(() => SearchRecord)
export class SearchResolver {
  @FieldResolver(() => [ChatReference], { description: "The chunks the answer may cite as [ID:n]." })
  references(@Root() record: SearchRecord): ChatReference[] {
    return referencesOf(record.reference);
  }

  @FieldResolver(() => [DocumentAggregateType], { description: "The documents the answer cites, with how many of its chunks." })
  documents(@Root() record: SearchRecord): DocumentAggregateType[] {
    return (record.reference?.doc_aggs ?? []).map((d) => ({ documentId: d.doc_id, documentName: d.doc_name, count: d.count }));
  }

  @FieldResolver(() => [String], { nullable: true, description: "As kept; null until searchRelatedQuestions made them." })
  relatedQuestions(@Root() record: SearchRecord): string[] | null {
    return record.relatedQuestions;
  }

  @FieldResolver(() => SearchMindMap, { nullable: true, description: "As kept; null until searchMindMap made it." })
  mindMap(@Root() record: SearchRecord): SearchMindMap | null {
    return record.mindMap ? presentMindMap(record.mindMap) : null;
  }

  @Query(() => SearchChunksResult, { description: "A page of the chunks matching a search, with highlights and the filters' counts; retrieval only (no model call)." })
  searchChunks(@Arg("input") input: SearchChunksInput, @Ctx() context: GraphQLContext): Promise<SearchChunksResult> {
    return context.services.search.chunks(signedIn(context), input);
  }

  @Mutation(() => SearchRecord, { description: "Keeps the search in the history and starts its summary answer (status 'searching'); follow it with searchAnswerStream." })
  startSearch(@Arg("input") input: SearchInput, @Ctx() context: GraphQLContext): Promise<SearchRecord> {
    return context.services.search.start(signedIn(context), input);
  }

  @Subscription(() => AnswerEvent, {
    description: "A search's summary answer as it streams, as a chat answer does: a snapshot, then each new piece; resumable.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { recordId: string }, GraphQLContext>) => context.services.search.answerStream(signedIn(context), args.recordId),
  })
  searchAnswerStream(@Root() event: StreamEvent, @Arg("recordId", () => ID) _recordId: string): AnswerEvent {
    return {
      messageId: event.messageId,
      seq: event.seq,
      status: event.status,
      delta: event.delta ?? null,
      content: event.content ?? null,
      references: event.reference ? referencesOf(event.reference) : null,
      error: event.error ?? null,
    };
  }

  @Query(() => [String], { description: "Related questions (the service of /api/v1/sessions/related_questions), made once and kept with the search." })
  searchRelatedQuestions(@Arg("recordId", () => ID) recordId: string, @Ctx() context: GraphQLContext): Promise<string[]> {
    return context.services.search.relatedQuestions(signedIn(context), recordId);
  }

  @Query(() => SearchMindMap, { description: "The mind map of a finished answer, made once and kept with the search." })
  async searchMindMap(@Arg("recordId", () => ID) recordId: string, @Ctx() context: GraphQLContext): Promise<SearchMindMap> {
    return presentMindMap(await context.services.search.mindMap(signedIn(context), recordId));
  }

  @Query(() => SearchHistoryPage, { description: "The user's searches, newest first." })
  searchHistory(
    @Arg("search", () => String, { nullable: true }) search: string | null,
    @Arg("page", () => Int, { nullable: true }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize: number | null,
    @Ctx() context: GraphQLContext,
  ): Promise<SearchHistoryPage> {
    return context.services.search.history(signedIn(context), { search: search ?? undefined, page: page ?? undefined, pageSize: pageSize ?? undefined });
  }

  @Query(() => SearchRecord, { description: "A kept search, as it was stored (answer, citations, related questions, mind map)." })
  searchRecord(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<SearchRecord> {
    return context.services.search.record(signedIn(context), id);
  }

  @Mutation(() => Boolean, { description: "Removes searches from the history." })
  async deleteSearchRecords(@Arg("ids", () => [ID]) ids: string[], @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.search.delete(signedIn(context), ids);
    return true;
  }
}
