import { authRestRoutes } from "../../auth/auth.rest";
import { chatRestRoutes } from "../../chat/rest/chats.rest";
import { knowledgeRestRoutes } from "../../knowledge/knowledge.rest";
import { modelsRestRoutes } from "../../models/models.rest";
import { retrievalRestRoutes } from "../../retrieval/retrieval.rest";
import type { RestRoute } from "./rest-route";

/** Every REST endpoint, by domain. Later domains add their route lists here. */
export const restRoutes: RestRoute[] = [...authRestRoutes, ...modelsRestRoutes, ...knowledgeRestRoutes, ...retrievalRestRoutes, ...chatRestRoutes];
