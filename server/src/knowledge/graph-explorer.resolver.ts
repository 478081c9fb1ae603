import { Arg, Ctx, Field, Float, ID, InputType, Int, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import type { EntityDetail, ExplorerGraph, ExplorerNode, GraphKnowledgeBaseSummary } from "./graph-explorer";

@ObjectType({ description: "A knowledge base the user may read, with the size of its knowledge graph (0 entities: none built yet)." })
class GraphKnowledgeBase implements GraphKnowledgeBaseSummary {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  avatar: string | null;

  @Field()
  chunkMethod: string;

  @Field(() => Int)
  entityCount: number;

  @Field(() => Int)
  relationCount: number;
}

@ObjectType({ description: "An entity of a knowledge graph: the pair (knowledge base, name)." })
class GraphExplorerNode implements ExplorerNode {
  @Field(() => ID, { description: "<knowledge base id>:<entity name>" })
  id: string;

  @Field(() => ID)
  knowledgeBaseId: string;

  @Field()
  name: string;

  @Field()
  type: string;

  @Field(() => Int, { description: "Relations that touch it, self-loops left out." })
  degree: number;
}

@ObjectType()
class GraphExplorerEdge {
  @Field(() => ID)
  source: string;

  @Field(() => ID)
  target: string;

  @Field(() => Float)
  weight: number;

  @Field({ description: "At most 300 characters; the entity's relations give it whole." })
  description: string;
}

@ObjectType({ description: "A capped view of one or more knowledge graphs, side by side (never merged across knowledge bases)." })
class GraphExplorerView implements ExplorerGraph {
  @Field(() => [GraphExplorerNode])
  nodes: ExplorerNode[];

  @Field(() => [GraphExplorerEdge])
  edges: GraphExplorerEdge[];

  @Field(() => Int, { description: "Entities of the chosen knowledge bases in all, shown or not." })
  entityCount: number;

  @Field(() => Int, { description: "Relations of the chosen knowledge bases in all, shown or not." })
  relationCount: number;
}

@InputType()
class GraphEntityRef {
  @Field(() => ID)
  knowledgeBaseId: string;

  @Field()
  name: string;
}

@ObjectType()
class GraphEntityRelation {
  @Field(() => GraphExplorerNode)
  other: ExplorerNode;

  @Field({ description: "out: this entity is the relation's source; in: its target." })
  direction: string;

  @Field()
  description: string;

  @Field(() => [String])
  keywords: string[];

  @Field(() => Float)
  weight: number;
}

@ObjectType()
class GraphEntityChunk {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  documentId: string;

  @Field()
  documentName: string;

  @Field()
  content: string;

  @Field(() => Int, { nullable: true })
  page: number | null;
}

@ObjectType()
class GraphEntityDocument {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;
}

@ObjectType()
class GraphEntityDetail {
  @Field(() => GraphExplorerNode)
  node: ExplorerNode;

  @Field()
  knowledgeBaseName: string;

  @Field()
  description: string;

  @Field(() => [GraphEntityRelation], { description: "Strongest first, at most 100." })
  relations: GraphEntityRelation[];

  @Field(() => [GraphEntityChunk], { description: "Chunks of its documents that name it, in document order, at most 20." })
  chunks: GraphEntityChunk[];

  @Field(() => [GraphEntityDocument], { description: "The documents it was found in." })
  documents: GraphEntityDocument[];
}

/** The /force explorer: thin over GraphExplorerService, which checks every knowledge base against the policies. */
@Resolver()
export class GraphExplorerResolver {
  @Query(() => [GraphKnowledgeBase], { description: "The knowledge bases the user may read, with their knowledge graphs' sizes, largest first (at most 200)." })
  graphKnowledgeBases(@Ctx() context: GraphQLContext): Promise<GraphKnowledgeBaseSummary[]> {
    return context.services.graphExplorer.knowledgeBasesWithGraphs(signedIn(context));
  }

  @Query(() => GraphExplorerView, { description: "The most connected entities of the chosen knowledge bases (at most `limit`, 1–500) and the strongest relations between them; `focus` adds that entity and its neighbours." })
  graphExplorer(
    @Ctx() context: GraphQLContext,
    @Arg("knowledgeBaseIds", () => [ID]) knowledgeBaseIds: string[],
    @Arg("limit", () => Int, { nullable: true }) limit?: number,
    @Arg("focus", () => GraphEntityRef, { nullable: true }) focus?: GraphEntityRef,
  ): Promise<ExplorerGraph> {
    return context.services.graphExplorer.graph(signedIn(context), knowledgeBaseIds, { limit: limit ?? undefined, focus: focus ?? undefined });
  }

  @Query(() => [GraphExplorerNode], { description: "Entities whose name contains the text: exact names first, then prefixes, then the most connected." })
  searchGraphEntities(
    @Ctx() context: GraphQLContext,
    @Arg("knowledgeBaseIds", () => [ID]) knowledgeBaseIds: string[],
    @Arg("text") text: string,
    @Arg("limit", () => Int, { nullable: true }) limit?: number,
  ): Promise<ExplorerNode[]> {
    return context.services.graphExplorer.searchEntities(signedIn(context), knowledgeBaseIds, text, limit ?? undefined);
  }

  @Query(() => GraphEntityDetail, { description: "One entity: its description, relations and the chunks that mention it." })
  graphEntity(@Ctx() context: GraphQLContext, @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string, @Arg("name") name: string): Promise<EntityDetail> {
    return context.services.graphExplorer.entity(signedIn(context), knowledgeBaseId, name);
  }
}
