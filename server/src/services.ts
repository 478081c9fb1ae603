import { ApiTokenService } from "./auth/api-token.service";
import { AuthService } from "./auth/auth.service";
import { AssistantService } from "./chat/assistant.service";
import { ShareService } from "./chat/share.service";
import { ConversationService } from "./chat/conversation.service";
import { ANONYMOUS, bearerToken, type Principal } from "./policies/principal";
import { ChunkService } from "./knowledge/chunk.service";
import { DocumentService } from "./knowledge/document.service";
import { KnowledgeBaseService } from "./knowledge/knowledge-base.service";
import { KbTaskService } from "./knowledge/kb-tasks/kb-task.service";
import { ModelsService } from "./models/models.service";
import { RetrievalService } from "./retrieval/retrieval.service";
import { ParserSandbox } from "./ingestion/sandbox/parser-sandbox";
import type { Platform } from "./platform";

/** Every domain service, built once per process over the platform ports. Resolvers, REST routes and jobs call these. */
export interface Services {
  platform: Platform;
  auth: AuthService;
  apiTokens: ApiTokenService;
  models: ModelsService;
  knowledgeBases: KnowledgeBaseService;
  documents: DocumentService;
  chunks: ChunkService;
  /** RAPTOR and GraphRAG runs over a whole knowledge base. */
  kbTasks: KbTaskService;
  retrieval: RetrievalService;
  assistants: AssistantService;
  shares: ShareService;
  conversations: ConversationService;
  /** Where files are parsed: processes apart from this one, with limits (ingestion/sandbox). */
  parsers: ParserSandbox;
  /** Writes what services keep in memory for a moment (the model usage log); called before the platform closes. */
  close(): Promise<void>;
  /** Who sent a request, from its Authorization header: a session token, an API token or a share token. */
  principalFor(authorization: string | undefined | null): Promise<Principal>;
}

export function createServices(platform: Platform): Services {
  const apiTokens = new ApiTokenService(platform);
  const auth = new AuthService(platform, apiTokens);
  const models = new ModelsService(platform);
  const knowledgeBases = new KnowledgeBaseService(platform, models);
  const documents = new DocumentService(platform, knowledgeBases);
  const assistants = new AssistantService(platform, knowledgeBases, models);
  const shares = new ShareService(platform, assistants, apiTokens);
  const retrieval = new RetrievalService(platform, knowledgeBases, models);
  const conversations = new ConversationService(platform, { models, retrieval, assistants });
  const { timeoutSeconds, stepTimeoutSeconds, memoryMb } = platform.config.parsing;
  const parsers = new ParserSandbox({ documentMs: timeoutSeconds * 1000, stepMs: stepTimeoutSeconds * 1000, memoryBytes: memoryMb * 1024 * 1024 });
  return {
    platform,
    auth,
    apiTokens,
    models,
    knowledgeBases,
    documents,
    chunks: new ChunkService(platform, documents, models),
    kbTasks: new KbTaskService(platform, knowledgeBases),
    retrieval,
    assistants,
    shares,
    conversations,
    parsers,
    close: async () => {
      await parsers.close();
      await conversations.close();
      await models.flushUsage();
    },
    async principalFor(authorization) {
      const token = bearerToken(authorization);
      if (!token) return ANONYMOUS;
      return (await apiTokens.authenticate(token)) ?? (await auth.authenticateSession(token)) ?? (await shares.authenticate(token)) ?? ANONYMOUS;
    },
  };
}
