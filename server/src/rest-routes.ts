import { authRestRoutes } from "./auth/auth.rest";
import { askRestRoutes } from "./chat/rest/ask.rest";
import { chatRestRoutes } from "./chat/rest/chats.rest";
import { completionRestRoutes } from "./chat/rest/completions.rest";
import { openAiRestRoutes } from "./chat/rest/openai.rest";
import { relatedQuestionRestRoutes } from "./chat/rest/related-questions.rest";
import { sessionRestRoutes } from "./chat/rest/sessions.rest";
import { speechRestRoutes } from "./chat/rest/speech.rest";
import { ttsRestRoutes } from "./chat/rest/tts.rest";
import { filesRestRoutes } from "./files/files.rest";
import { flowRestRoutes } from "./flows/rest";
import { knowledgeRestRoutes } from "./knowledge/knowledge.rest";
import { modelsRestRoutes } from "./models/models.rest";
import { retrievalRestRoutes } from "./retrieval/retrieval.rest";
import type { RestRoute } from "./rest/rest-route";

/** Every REST endpoint, by domain. Later domains add their route lists here. */
export const restRoutes: RestRoute[] = [...authRestRoutes, ...modelsRestRoutes, ...knowledgeRestRoutes, ...retrievalRestRoutes, ...chatRestRoutes, ...sessionRestRoutes, ...completionRestRoutes, ...openAiRestRoutes, ...relatedQuestionRestRoutes, ...askRestRoutes, ...speechRestRoutes, ...ttsRestRoutes, ...flowRestRoutes, ...filesRestRoutes];
