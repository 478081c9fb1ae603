import type { RestRoute } from "../../rest/rest-route";
import { agentCompletionRestRoutes } from "./agent-completions.rest";
import { agentRestRoutes } from "./agents.rest";
import { agentOpenAiRestRoutes } from "./agents-openai.rest";

/** RAGFlow's agents API (contract §10). */
export const flowRestRoutes: RestRoute[] = [...agentRestRoutes, ...agentCompletionRestRoutes, ...agentOpenAiRestRoutes];
