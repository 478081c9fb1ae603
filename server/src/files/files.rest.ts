import type { RestRoute } from "../rest/rest-route";
import { fileRestRoutes } from "./rest/files.rest";
import { fileTransferRoutes } from "./rest/transfer.rest";

/** The file manager over HTTP: RAGFlow's `/api/v1/file/*` (contract §12) and the web page's upload and download. */
export const filesRestRoutes: RestRoute[] = [...fileRestRoutes, ...fileTransferRoutes];
