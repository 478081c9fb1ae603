import { GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, Float, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { presentParamSpec, ParamSpecType } from "../graphql/param-spec.type";
import { chunkMethods } from "../ingestion/chunkers/registry";
import type { Preview } from "../ingestion/preview";
import { PreviewType } from "../ingestion/preview/preview.type";
import { Chunk } from "./chunk.entity";
import { CHUNK_ORIGINS } from "./chunk.service";
import { Document, DocumentFailure, ParseLogLine, RUN, type RunStatus } from "./document.entity";
import type { DocumentProgressEvent } from "./document-events";
import { progressWithPlaces } from "./parse-queue";
import { KnowledgeBase } from "./knowledge-base.entity";
import { KNOWLEDGE_BASE_LANGUAGES } from "./knowledge-base.service";
import { readGraph } from "./knowledge-graph";
import { RETRIEVAL_PARAMS } from "./retrieval-params";

@InputType({ description: "Settings of a knowledge base; on update only the fields given change." })
class KnowledgeBaseInput {
  @Field({ nullable: true })
  name?: string;

  @Field(() => String, { nullable: true })
  avatar?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field({ nullable: true })
  language?: string;

  @Field({ nullable: true })
  permission?: string;

  @Field(() => String, { nullable: true })
  embeddingModel?: string | null;

  @Field(() => String, { nullable: true, description: "\"\" removes the rerank model." })
  rerankModel?: string | null;

  @Field({ nullable: true })
  chunkMethod?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "Merged into the stored parser settings." })
  parserConfig?: Record<string, unknown> | null;

  @Field(() => Int, { nullable: true })
  pagerank?: number;

  @Field(() => Float, { nullable: true })
  similarityThreshold?: number;

  @Field(() => Float, { nullable: true })
  vectorSimilarityWeight?: number;

  @Field(() => Int, { nullable: true })
  topK?: number;
}

@ObjectType()
class KnowledgeBasePage {
  @Field(() => Int)
  total: number;

  @Field(() => [KnowledgeBase])
  items: KnowledgeBase[];
}

@ObjectType()
class DocumentPage {
  @Field(() => Int)
  total: number;

  @Field(() => [Document])
  items: Document[];
}

@ObjectType()
class ChunkPosition {
  @Field(() => Int)
  page: number;

  @Field(() => Float)
  x0: number;

  @Field(() => Float)
  x1: number;

  @Field(() => Float)
  top: number;

  @Field(() => Float)
  bottom: number;
}

@ObjectType()
class ChunkPage {
  @Field(() => Int)
  total: number;

  @Field(() => [Chunk])
  items: Chunk[];

  @Field(() => Document)
  document: Document;
}

@ObjectType({ description: "A chunk method: the labels, descriptions and examples are `chunkMethods.<name>` in locales." })
class ChunkMethodInfo {
  @Field()
  name: string;

  @Field(() => [String], { description: "Extensions it is meant for." })
  fileTypes: string[];

  @Field(() => [ParamSpecType], { description: "The parser settings it reads, in the order the settings form shows them." })
  params: ParamSpecType[];
}

@ObjectType({ description: "A change in a document's parsing, as it happens." })
class DocumentProgress {
  @Field(() => ID)
  documentId: string;

  @Field(() => ID)
  knowledgeBaseId: string;

  @Field()
  run: string;

  @Field(() => Float)
  progress: number;

  @Field()
  progressMsg: string;

  @Field(() => [ParseLogLine])
  progressLog: ParseLogLine[];

  @Field(() => Int)
  chunkCount: number;

  @Field(() => Float)
  tokenCount: number;

  @Field(() => Date, { nullable: true })
  processBeginAt: Date | null;

  @Field(() => Float)
  processDuration: number;

  @Field(() => Int, { nullable: true })
  pageCount: number | null;

  @Field(() => DocumentFailure, { nullable: true })
  failure: DocumentFailure | null;

  @Field(() => Int, { nullable: true, description: "While the document waits for a worker: its place in the parse queue (1 = next). Null when it is not waiting." })
  queuePosition: number | null;
}

@ObjectType()
class KnowledgeGraph {
  @Field(() => [GraphQLJSONObject], { description: "{id, entityName, entityType, description, pagerank, sourceIds}" })
  nodes: Record<string, unknown>[];

  @Field(() => [GraphQLJSONObject], { description: "{source, target, description, keywords, weight, sourceIds}" })
  edges: Record<string, unknown>[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: "{id, label, children: [...]}" })
  mindMap: Record<string, unknown> | null;
}

const RUN_STATUSES = ["0", "1", "2", "3", "4"];

@Resolver(() => Chunk)
export class ChunkFieldsResolver {
  @FieldResolver(() => [ChunkPosition], { description: "Boxes in PDF points on 1-based pages: where the viewer highlights it." })
  positions(@Root() chunk: Chunk): ChunkPosition[] {
    return chunk.positions;
  }

  @FieldResolver(() => String, { nullable: true, description: "The text with matched search terms in <em>…</em>, HTML-escaped; null without a search." })
  highlighted(@Root() chunk: Chunk & { highlighted?: string | null }): string | null {
    return chunk.highlighted ?? null;
  }
}

/** The documents of one request whose places in line are asked for, answered by one call to the queue. */
const pendingPlaces = new WeakMap<GraphQLContext, { documents: Document[]; places: Promise<Map<string, number>> }>();

@Resolver(() => Document)
export class DocumentFieldsResolver {
  @FieldResolver(() => Int, { nullable: true, description: "While the document waits for a worker: its place in the parse queue (1 = next). Null when it is not waiting." })
  async queuePosition(@Root() document: Document, @Ctx() context: GraphQLContext): Promise<number | null> {
    if (document.run !== RUN.running) return null;
    let batch = pendingPlaces.get(context);
    if (!batch) {
      const documents: Document[] = [];
      // The rows of a list resolve this field in one pass; the queue is asked once they have all joined.
      const places = Promise.resolve().then(() => {
        pendingPlaces.delete(context);
        return context.services.documents.queuePositions(documents);
      });
      batch = { documents, places };
      pendingPlaces.set(context, batch);
    }
    batch.documents.push(document);
    return (await batch.places).get(document.id) ?? null;
  }
}

@Resolver()
export class KnowledgeResolver {
  @Query(() => KnowledgeBasePage)
  async knowledgeBases(
    @Ctx() context: GraphQLContext,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("page", () => Int, { nullable: true }) page?: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize?: number | null,
  ): Promise<KnowledgeBasePage> {
    return context.services.knowledgeBases.list(signedIn(context), { search: search ?? undefined, page: page ?? undefined, pageSize: pageSize ?? undefined });
  }

  @Query(() => KnowledgeBase)
  knowledgeBase(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<KnowledgeBase> {
    return context.services.knowledgeBases.accessible(signedIn(context), id);
  }

  @Query(() => [String], { description: "The languages a knowledge base can be set to." })
  knowledgeBaseLanguages(): string[] {
    return KNOWLEDGE_BASE_LANGUAGES;
  }

  @Query(() => [ChunkMethodInfo])
  chunkMethods(): ChunkMethodInfo[] {
    return chunkMethods.map((m) => ({ name: m.name, fileTypes: m.fileTypes, params: m.params.map(presentParamSpec) }));
  }

  @Query(() => [ParamSpecType], { description: "Retrieval settings shared by knowledge bases, assistants and retrieval tests (top-K), with their limits." })
  retrievalParams(): ParamSpecType[] {
    return RETRIEVAL_PARAMS.map(presentParamSpec);
  }

  @Mutation(() => KnowledgeBase)
  createKnowledgeBase(@Ctx() context: GraphQLContext, @Arg("input") input: KnowledgeBaseInput): Promise<KnowledgeBase> {
    return context.services.knowledgeBases.create(signedIn(context), input);
  }

  @Mutation(() => KnowledgeBase)
  updateKnowledgeBase(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string, @Arg("input") input: KnowledgeBaseInput): Promise<KnowledgeBase> {
    return context.services.knowledgeBases.update(signedIn(context), id, input);
  }

  @Mutation(() => Boolean)
  async deleteKnowledgeBase(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<boolean> {
    await context.services.knowledgeBases.delete(signedIn(context), [id]);
    return true;
  }

  @Query(() => DocumentPage)
  documents(
    @Ctx() context: GraphQLContext,
    @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("runs", () => [String], { nullable: true, description: "Parsing statuses to keep: 0–4." }) runs?: string[] | null,
    @Arg("page", () => Int, { nullable: true }) page?: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize?: number | null,
  ): Promise<DocumentPage> {
    return context.services.documents.list(signedIn(context), knowledgeBaseId, {
      search: search ?? undefined,
      runs: (runs ?? []).filter((r): r is RunStatus => RUN_STATUSES.includes(r)),
      page: page ?? undefined,
      pageSize: pageSize ?? undefined,
    });
  }

  @Query(() => Document)
  document(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<Document> {
    return context.services.documents.accessible(signedIn(context), id);
  }

  @Query(() => PreviewType, { description: "The document's file rendered for reading (see PreviewKind)." })
  async documentPreview(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<Preview> {
    const document = await context.services.documents.accessible(signedIn(context), id);
    return context.services.previews.of(document.storageKey, document.name, () => context.services.documents.fileBytes(document));
  }

  @Mutation(() => Document, { description: "A new empty document, to add chunks to by hand." })
  createEmptyDocument(@Ctx() context: GraphQLContext, @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string, @Arg("name") name: string): Promise<Document> {
    return context.services.documents.createEmpty(signedIn(context), knowledgeBaseId, name);
  }

  @Mutation(() => Document, { description: "Fetches a web page into the knowledge base." })
  crawlWebPage(
    @Ctx() context: GraphQLContext,
    @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string,
    @Arg("url") url: string,
    @Arg("name", () => String, { nullable: true }) name?: string | null,
  ): Promise<Document> {
    return context.services.documents.crawl(signedIn(context), knowledgeBaseId, url, name ?? undefined);
  }

  @Mutation(() => Document)
  renameDocument(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string, @Arg("name") name: string): Promise<Document> {
    return context.services.documents.rename(signedIn(context), id, name);
  }

  @Mutation(() => Document, { description: "Changes the chunk method and parser settings; the document must be parsed again." })
  changeDocumentParser(
    @Ctx() context: GraphQLContext,
    @Arg("id", () => ID) id: string,
    @Arg("chunkMethod") chunkMethod: string,
    @Arg("parserConfig", () => GraphQLJSONObject, { nullable: true }) parserConfig?: Record<string, unknown> | null,
  ): Promise<Document> {
    return context.services.documents.changeParser(signedIn(context), id, chunkMethod, parserConfig);
  }

  @Mutation(() => [Document])
  setDocumentsEnabled(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[], @Arg("enabled") enabled: boolean): Promise<Document[]> {
    return context.services.documents.setEnabled(signedIn(context), ids, enabled);
  }

  @Mutation(() => Int, { description: "How many were deleted." })
  deleteDocuments(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<number> {
    return context.services.documents.delete(signedIn(context), ids);
  }

  @Mutation(() => [Document], { description: "Queues parsing (again); old chunks are removed." })
  runParsing(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<Document[]> {
    return context.services.documents.runParsing(signedIn(context), ids);
  }

  @Mutation(() => [Document])
  cancelParsing(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<Document[]> {
    return context.services.documents.cancelParsing(signedIn(context), ids);
  }

  @Query(() => ChunkPage)
  chunks(
    @Ctx() context: GraphQLContext,
    @Arg("documentId", () => ID) documentId: string,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("available", () => Boolean, { nullable: true, description: "true: enabled only; false: disabled only." }) available?: boolean | null,
    @Arg("page", () => Int, { nullable: true }) page?: number | null,
    @Arg("pageSize", () => Int, { nullable: true, description: "0 = all." }) pageSize?: number | null,
    @Arg("origin", () => String, { nullable: true, description: "original: parsed or added by hand; raptor: RAPTOR summaries; all when null." }) origin?: string | null,
  ): Promise<ChunkPage> {
    return context.services.chunks.list(signedIn(context), documentId, {
      search: search ?? undefined,
      available: available ?? undefined,
      origin: CHUNK_ORIGINS.find((o) => o === origin),
      page: page ?? undefined,
      pageSize: pageSize ?? undefined,
    });
  }

  @Query(() => Chunk, { description: "One chunk, e.g. the one a chat citation points at." })
  chunk(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<Chunk> {
    return context.services.chunks.get(signedIn(context), id);
  }

  @Mutation(() => Chunk)
  addChunk(
    @Ctx() context: GraphQLContext,
    @Arg("documentId", () => ID) documentId: string,
    @Arg("content") content: string,
    @Arg("keywords", () => [String], { nullable: true }) keywords?: string[] | null,
    @Arg("questions", () => [String], { nullable: true }) questions?: string[] | null,
  ): Promise<Chunk> {
    return context.services.chunks.add(signedIn(context), documentId, { content, keywords: keywords ?? undefined, questions: questions ?? undefined });
  }

  @Mutation(() => Chunk)
  updateChunk(
    @Ctx() context: GraphQLContext,
    @Arg("id", () => ID) id: string,
    @Arg("content", () => String, { nullable: true }) content?: string | null,
    @Arg("keywords", () => [String], { nullable: true }) keywords?: string[] | null,
    @Arg("questions", () => [String], { nullable: true }) questions?: string[] | null,
    @Arg("available", () => Boolean, { nullable: true }) available?: boolean | null,
  ): Promise<Chunk> {
    return context.services.chunks.update(signedIn(context), id, {
      content: content ?? undefined,
      keywords: keywords ?? undefined,
      questions: questions ?? undefined,
      available: available ?? undefined,
    });
  }

  @Mutation(() => Int, { description: "Enables or disables chunks; \"please select chunk\" when none is given." })
  setChunksAvailable(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[], @Arg("available") available: boolean): Promise<number> {
    return context.services.chunks.setAvailable(signedIn(context), ids, available);
  }

  @Mutation(() => Int)
  deleteChunks(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<number> {
    return context.services.chunks.delete(signedIn(context), ids);
  }

  @Query(() => KnowledgeGraph)
  async knowledgeGraph(@Ctx() context: GraphQLContext, @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string): Promise<KnowledgeGraph> {
    const kb = await context.services.knowledgeBases.accessible(signedIn(context), knowledgeBaseId);
    const graph = await readGraph(context.services.platform.db, kb.id, kb.name);
    return { nodes: graph.nodes as never, edges: graph.edges as never, mindMap: graph.mindMap as never };
  }

  @Subscription(() => DocumentProgress, {
    description: "Parsing progress of a knowledge base's documents: first the documents being parsed as they are now, then every change, and the new places of waiting documents as the parse queue moves.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { knowledgeBaseId: string }, GraphQLContext>) => {
      const kb = await context.services.knowledgeBases.accessible(signedIn(context), args.knowledgeBaseId);
      const { platform } = context.services;
      return progressWithPlaces(platform, kb.id, () => platform.db.getRepository(Document).findBy({ knowledgeBaseId: kb.id, run: RUN.running }));
    },
  })
  documentProgress(@Root() event: DocumentProgressEvent, @Arg("knowledgeBaseId", () => ID) _knowledgeBaseId: string): DocumentProgress {
    return { ...event, processBeginAt: event.processBeginAt ? new Date(event.processBeginAt) : null };
  }
}
