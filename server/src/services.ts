import { ApiTokenService } from "./auth/api-token.service";
import { BinService } from "./bin/bin.service";
import { WorkKind } from "./bin/work-kind";
import { assistantBinKind, conversationBinKind } from "./chat/bin-kinds";
import { fileBinKind } from "./files/bin-kinds";
import { flowBinKind } from "./flows/bin-kinds";
import { documentBinKind, knowledgeBaseBinKind } from "./knowledge/bin-kinds";
import { AuthService } from "./auth/auth.service";
import { IdentitySignInService } from "./auth/identity/identity-sign-in";
import { TeamService } from "./auth/team.service";
import { AssistantService } from "./chat/assistant.service";
import { ShareService } from "./chat/share.service";
import { ConversationService } from "./chat/conversation.service";
import { FlowService } from "./flows/flow.service";
import { FlowRunService } from "./flows/flow-run.service";
import { FlowShareService } from "./flows/flow-share.service";
import { FileService, fileObjectHolders } from "./files/file.service";
import { S3ImportService } from "./files/s3-import";
import { DemoService } from "./demo/demo.service";
import { SearchService } from "./search/search.service";
import { runTurn } from "./flows/engine";
import { ANONYMOUS, bearerToken } from "./policies/principal";
import { ChunkService } from "./knowledge/chunk.service";
import { ChunkMergeService } from "./knowledge/chunk-merge.service";
import { DocumentService } from "./knowledge/document.service";
import { KnowledgeBaseService } from "./knowledge/knowledge-base.service";
import { KbTaskService } from "./knowledge/kb-tasks/kb-task.service";
import { GraphExplorerService } from "./knowledge/graph-explorer";
import { PostingsPacker } from "./knowledge/packed-postings";
import { StoredBytes } from "./knowledge/stored-bytes";
import { ModelsService } from "./models/models.service";
import { RetrievalService } from "./retrieval/retrieval.service";
import { ParserSandbox } from "./ingestion/sandbox/parser-sandbox";
import { Previews } from "./ingestion/preview/previews";
import { workSources } from "./works/sources";
import { WorksService } from "./works/works.service";
import type { Platform } from "./platform";
import type { Services } from "./platform/services";
// Each domain's entries of the services registry: their `services.ts` declare them.
import "./auth/services";
import "./bin/services";
import "./models/services";
import "./ingestion/services";
import "./knowledge/services";
import "./retrieval/services";
import "./chat/services";
import "./flows/services";
import "./files/services";
import "./demo/services";
import "./search/services";
import "./works/services";

export type { Services };

/** Every domain service, built once per process over the platform ports. Resolvers, REST routes and jobs call these. */
export function createServices(platform: Platform): Services {
  const apiTokens = new ApiTokenService(platform);
  const auth = new AuthService(platform, apiTokens);
  const models = new ModelsService(platform);
  const bin = new BinService(platform);
  // A linked file and its documents share bytes: whoever deletes them asks the file manager too.
  const storedBytes = new StoredBytes(platform, fileObjectHolders(platform));
  const knowledgeBases = new KnowledgeBaseService(platform, models, storedBytes, bin);
  const documents = new DocumentService(platform, knowledgeBases, storedBytes, bin);
  const assistants = new AssistantService(platform, knowledgeBases, models, bin);
  const shares = new ShareService(platform, assistants, apiTokens);
  const chunks = new ChunkService(platform, documents, models);
  const postingsPacker = new PostingsPacker(platform.db);
  const retrieval = new RetrievalService(platform, knowledgeBases, models);
  const conversations = new ConversationService(platform, { models, retrieval, assistants, bin });
  const flows = new FlowService(platform, bin);
  const flowShares = new FlowShareService(platform, flows, apiTokens);
  const flowRuns = new FlowRunService(platform, { platform, models, retrieval, flows, runTurn, runnerOf: (visitor) => flowShares.runnerOf(visitor) });
  const { timeoutSeconds, stepTimeoutSeconds, memoryMb, processes } = platform.config.parsing;
  const parsers = new ParserSandbox({ documentMs: timeoutSeconds * 1000, stepMs: stepTimeoutSeconds * 1000, memoryBytes: memoryMb * 1024 * 1024 }, processes);
  const previews = new Previews((bytes, fileName) => parsers.preview(bytes, fileName));
  const files = new FileService(platform, { knowledgeBases, documents, storedBytes, previews, bin });
  // What each kind of deleted item takes into the recycle bin, and how it comes back or goes for good.
  bin.register(WorkKind.knowledgeBase, knowledgeBaseBinKind(knowledgeBases));
  bin.register(WorkKind.document, documentBinKind(documents));
  bin.register(WorkKind.assistant, assistantBinKind);
  bin.register(WorkKind.conversation, conversationBinKind);
  bin.register(WorkKind.flow, flowBinKind);
  bin.register(WorkKind.file, fileBinKind(documents, storedBytes));
  const fileImports = new S3ImportService(platform, files);
  const search = new SearchService(platform, { models, knowledgeBases, retrieval, assistants });
  const works = new WorksService(platform, workSources({ documents, assistants, conversations, flows, files, searches: search }));
  return {
    platform,
    auth,
    apiTokens,
    identitySignIn: new IdentitySignInService(platform, auth),
    teams: new TeamService(platform, auth),
    models,
    knowledgeBases,
    documents,
    chunks,
    postingsPacker,
    chunkMerges: new ChunkMergeService(platform, knowledgeBases, documents, chunks),
    kbTasks: new KbTaskService(platform, knowledgeBases),
    graphExplorer: new GraphExplorerService(platform, knowledgeBases),
    retrieval,
    assistants,
    shares,
    conversations,
    flows,
    flowRuns,
    flowShares,
    files,
    fileImports,
    bin,
    demo: new DemoService({ knowledgeBases, documents, assistants, flows }),
    search,
    works,
    parsers,
    previews,
    close: async () => {
      await bin.stopPurging();
      await postingsPacker.stop();
      await parsers.close();
      await conversations.close();
      await search.close();
      await flowRuns.close();
      await fileImports.close();
      await models.close();
    },
    async principalFor(authorization) {
      const token = bearerToken(authorization);
      if (!token) return ANONYMOUS;
      return (await apiTokens.authenticate(token)) ?? (await auth.authenticateSession(token)) ?? (await shares.authenticate(token)) ?? (await flowShares.authenticate(token)) ?? ANONYMOUS;
    },
  };
}
