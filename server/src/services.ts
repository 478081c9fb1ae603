import { ApiTokenService } from "./auth/api-token.service";
import { AuthService } from "./auth/auth.service";
import { TeamService } from "./auth/team.service";
import { AssistantService } from "./chat/assistant.service";
import { ShareService } from "./chat/share.service";
import { ConversationService } from "./chat/conversation.service";
import { FlowService } from "./flows/flow.service";
import { FlowRunService } from "./flows/flow-run.service";
import { FlowShareService } from "./flows/flow-share.service";
import { runTurn } from "./flows/engine";
import { ANONYMOUS, bearerToken } from "./policies/principal";
import { ChunkService } from "./knowledge/chunk.service";
import { DocumentService } from "./knowledge/document.service";
import { KnowledgeBaseService } from "./knowledge/knowledge-base.service";
import { KbTaskService } from "./knowledge/kb-tasks/kb-task.service";
import { ModelsService } from "./models/models.service";
import { RetrievalService } from "./retrieval/retrieval.service";
import { ParserSandbox } from "./ingestion/sandbox/parser-sandbox";
import type { Platform } from "./platform";
import type { Services } from "./platform/services";
// Each domain's entries of the services registry: their `services.ts` declare them.
import "./auth/services";
import "./models/services";
import "./ingestion/services";
import "./knowledge/services";
import "./retrieval/services";
import "./chat/services";
import "./flows/services";

export type { Services };

/** Every domain service, built once per process over the platform ports. Resolvers, REST routes and jobs call these. */
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
  const flows = new FlowService(platform);
  const flowShares = new FlowShareService(platform, flows, apiTokens);
  const flowRuns = new FlowRunService(platform, { platform, models, retrieval, flows, runTurn, runnerOf: (visitor) => flowShares.runnerOf(visitor) });
  const { timeoutSeconds, stepTimeoutSeconds, memoryMb } = platform.config.parsing;
  const parsers = new ParserSandbox({ documentMs: timeoutSeconds * 1000, stepMs: stepTimeoutSeconds * 1000, memoryBytes: memoryMb * 1024 * 1024 });
  return {
    platform,
    auth,
    apiTokens,
    teams: new TeamService(platform, auth),
    models,
    knowledgeBases,
    documents,
    chunks: new ChunkService(platform, documents, models),
    kbTasks: new KbTaskService(platform, knowledgeBases),
    retrieval,
    assistants,
    shares,
    conversations,
    flows,
    flowRuns,
    flowShares,
    parsers,
    close: async () => {
      await parsers.close();
      await conversations.close();
      await flowRuns.close();
      await models.flushUsage();
    },
    async principalFor(authorization) {
      const token = bearerToken(authorization);
      if (!token) return ANONYMOUS;
      return (await apiTokens.authenticate(token)) ?? (await auth.authenticateSession(token)) ?? (await shares.authenticate(token)) ?? (await flowShares.authenticate(token)) ?? ANONYMOUS;
    },
  };
}
