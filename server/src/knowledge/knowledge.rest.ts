import type { RestRoute } from "../rest/rest-route";
import { chunkRestRoutes } from "./rest/chunks.rest";
import { datasetRestRoutes } from "./rest/datasets.rest";
import { documentRestRoutes } from "./rest/documents.rest";
import { kbTaskRestRoutes } from "./rest/kb-tasks.rest";
import { metadataRestRoutes } from "./rest/metadata.rest";
import { knowledgeWebRoutes } from "./rest/web.rest";

/**
 * The REST facade of knowledge bases: RAGFlow's datasets, documents, chunks, knowledge-base tasks and document
 * metadata (contract §2–§4), and the web routes for files.
 */
export const knowledgeRestRoutes: RestRoute[] = [...datasetRestRoutes, ...documentRestRoutes, ...chunkRestRoutes, ...kbTaskRestRoutes, ...metadataRestRoutes, ...knowledgeWebRoutes];
