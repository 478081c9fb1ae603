import type { RestRoute } from "../api/rest/rest-route";
import { chunkRestRoutes } from "./rest/chunks.rest";
import { datasetRestRoutes } from "./rest/datasets.rest";
import { documentRestRoutes } from "./rest/documents.rest";
import { kbTaskRestRoutes } from "./rest/kb-tasks.rest";
import { knowledgeWebRoutes } from "./rest/web.rest";

/** The REST facade of knowledge bases: RAGFlow's datasets, documents, chunks and knowledge-base tasks (contract §2–§4), and the web routes for files. */
export const knowledgeRestRoutes: RestRoute[] = [...datasetRestRoutes, ...documentRestRoutes, ...chunkRestRoutes, ...kbTaskRestRoutes, ...knowledgeWebRoutes];
