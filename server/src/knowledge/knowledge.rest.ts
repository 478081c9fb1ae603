import type { RestRoute } from "../api/rest/rest-route";
import { chunkRestRoutes } from "./rest/chunks.rest";
import { datasetRestRoutes } from "./rest/datasets.rest";
import { documentRestRoutes } from "./rest/documents.rest";
import { metadataRestRoutes } from "./rest/metadata.rest";
import { knowledgeWebRoutes } from "./rest/web.rest";

/** The REST facade of knowledge bases: RAGFlow's datasets, documents and chunks (contract §2–§4, document metadata §2.8), and the web routes for files. */
export const knowledgeRestRoutes: RestRoute[] = [...datasetRestRoutes, ...documentRestRoutes, ...chunkRestRoutes, ...metadataRestRoutes, ...knowledgeWebRoutes];
