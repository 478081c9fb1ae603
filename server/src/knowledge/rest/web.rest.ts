import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { authenticatedRoute, type RestRoute } from "../../rest/rest-route";
import { chunkMethods } from "../../ingestion/chunkers/registry";
import { DomainError, type ErrorKind } from "../../platform/errors";
import { englishMessage } from "../../platform/messages";
import { tenantInfoModels } from "../../models/models.rest";
import { documentBytes } from "./documents.rest";
import { receiveUpload } from "./multipart";
import { presentDocument } from "./presenters";
import { sendStoredFile } from "./stored-file";

/**
 * The RAGFlow web-API routes (`/v1/document/...`, session login, `{code, message, data}`) the browser
 * uses for files: upload, the bytes for the document viewer, and a chunk's image.
 */

/** RAGFlow's tenant_info `parser_ids`: "naive:General,qa:Q&A,…" from the chunk-method registry. */
function parserIds(): string {
  return chunkMethods.map((method) => `${method.name}:${englishMessage(`chunkMethods.${method.name}.label`)}`).join(",");
}

/** PNG or JPEG, by their signatures (the only kinds of image chunks keep). */
function imageType(bytes: Buffer): string {
  return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ? "image/png" : "image/jpeg";
}

/** The browser's uploader sends kb_id before the files; a file that comes first has no knowledge base to go to. */
class MissingKnowledgeBase extends Error {}

const missingKnowledgeBase = () => jsonResult(RETURN_CODES.ARGUMENT_ERROR, "required argument are missing: kb_id; ");

/** Refusals of a whole upload: too large (413), too many at once (429), a full quota (507). */
const ANSWERED_WITH_STATUS: ErrorKind[] = ["PAYLOAD_TOO_LARGE", "TOO_MANY_REQUESTS", "INSUFFICIENT_STORAGE"];

export const knowledgeWebRoutes: RestRoute[] = [
  // The tenant's defaults as RAGFlow's web API reports them, with the chunk methods this product offers.
  authenticatedRoute("GET", "/v1/user/tenant_info", "login", async ({ services, principal }) => {
    const tenant = await services.auth.tenantOf(principal);
    return jsonResult(RETURN_CODES.SUCCESS, "success", {
      tenant_id: tenant.id,
      name: tenant.name,
      ...tenantInfoModels(await services.models.defaults(tenant.id)),
      parser_ids: parserIds(),
      role: "owner",
    });
  }),

  {
    ...authenticatedRoute("POST", "/v1/document/upload", "login", async ({ services, principal, req, res }) => {
      try {
        const { fields, upload } = await receiveUpload(req, res, {
          open: async (fields) => {
            if (!("kb_id" in fields)) throw new MissingKnowledgeBase();
            return services.documents.startUpload(principal, fields.kb_id);
          },
        });
        if (!("kb_id" in fields)) return missingKnowledgeBase();
        if (!upload) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, "No file part!", false);
        const { documents } = await upload.finish();
        return jsonResult(RETURN_CODES.SUCCESS, "success", documents.map((d) => presentDocument(d)));
      } catch (error) {
        if (error instanceof MissingKnowledgeBase) return missingKnowledgeBase();
        // With the HTTP status, which the browser shows as the error catalogue's text in the user's language.
        if (error instanceof DomainError && ANSWERED_WITH_STATUS.includes(error.kind)) {
          res.status(error.httpStatus).json(jsonResult(error.httpStatus, error.message));
          return undefined;
        }
        throw error;
      }
    }),
    rawBody: true,
  },

  authenticatedRoute("GET", "/v1/document/get/:documentId", "login", async ({ services, principal, params, res }) => {
    const document = await services.documents.accessible(principal, params.documentId);
    const bytes = (await documentBytes(services, principal, document)) ?? Buffer.alloc(0);
    await sendStoredFile(res, document.name, bytes, "inline");
    return undefined;
  }),

  authenticatedRoute("GET", "/v1/document/image/:chunkId", "login", async ({ services, principal, params, res }) => {
    const image = await services.chunks.image(principal, params.chunkId).catch((error: unknown) => {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") return null;
      throw error;
    });
    if (!image) {
      res.status(404).json(jsonResult(RETURN_CODES.NOT_FOUND, englishMessage("httpStatus.404")));
      return undefined;
    }
    res.setHeader("Content-Type", imageType(image));
    res.send(image);
    return undefined;
  }),
];
