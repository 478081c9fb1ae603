import path from "node:path";
import type { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import { ApiTokenResolver } from "./auth/api-token.resolver";
import { AuthResolver, UserFieldsResolver } from "./auth/auth.resolver";
import { IdentityResolver } from "./auth/identity/identity.resolver";
import { TeamResolver } from "./auth/team.resolver";
import { AssistantResolver } from "./chat/assistant.resolver";
import { ChatMessageFieldsResolver, ConversationResolver } from "./chat/conversation.resolver";
import { ChunkFieldsResolver, DocumentFieldsResolver, KnowledgeResolver } from "./knowledge/knowledge.resolver";
import { ChunkMergeResolver } from "./knowledge/chunk-merge.resolver";
import { KbTaskResolver } from "./knowledge/kb-tasks/kb-task.resolver";
import { GraphExplorerResolver } from "./knowledge/graph-explorer.resolver";
import { ContactResolver } from "./system/contact.resolver";
import { ModelsResolver } from "./models/models.resolver";
import { RetrievalResolver } from "./retrieval/retrieval.resolver";
import { FlowResolver, FlowVersionResolver } from "./flows/flow.resolver";
import { FlowRunResolver, FlowSessionResolver } from "./flows/flow-run.resolver";
import { FlowShareResolver } from "./flows/flow-share.resolver";
import { FileResolver } from "./files/file.resolver";
import { BinResolver } from "./bin/bin.resolver";
import { DemoResolver } from "./demo/demo.resolver";
import { SearchResolver } from "./search/search.resolver";
import { WorksResolver } from "./works/works.resolver";
import { createMemoryPubSub, type PubSub } from "./platform/pubsub";

/** Every resolver class; a domain adds its own here. */
const resolvers = [AuthResolver, UserFieldsResolver, IdentityResolver, ApiTokenResolver, TeamResolver, ModelsResolver, KnowledgeResolver, ChunkFieldsResolver, DocumentFieldsResolver, KbTaskResolver, RetrievalResolver, AssistantResolver, ConversationResolver, ChatMessageFieldsResolver, FlowResolver, FlowVersionResolver, FlowSessionResolver, FlowRunResolver, FlowShareResolver, FileResolver, BinResolver, DemoResolver, SearchResolver, ChunkMergeResolver, GraphExplorerResolver, ContactResolver, WorksResolver] as const;

/** The committed SDL at the top of the repository, which client code generation reads. */
export const SCHEMA_FILE = path.resolve(__dirname, "../../schema.graphql");

/** TypeGraphQL needs a pub/sub as soon as a subscription exists; printing the schema needs none, so a memory one stands in. */
export function createSchema(pubSub: PubSub = createMemoryPubSub()): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    validate: { forbidUnknownValues: false },
    pubSub,
  });
}
