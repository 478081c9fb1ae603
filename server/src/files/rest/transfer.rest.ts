import type { Response } from "express";
import { receiveUpload } from "../../knowledge/rest/multipart";
import { sendStoredFile } from "../../knowledge/rest/stored-file";
import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { DomainError } from "../../platform/errors";

/**
 * The file manager's bytes over HTTP for the /file page (server/src/files/README.md): `POST /v1/files/upload` streams
 * files (or a whole folder, by relative paths) into a folder, `GET /v1/files/{id}/download` streams a file back.
 * Refusals answer with their HTTP status and the message key, for the page to say them in the user's language.
 */

function refuse(res: Response, error: DomainError): undefined {
  res.status(error.httpStatus).json({ code: error.httpStatus, message: error.message, messageKey: error.messageKey, params: error.params });
  return undefined;
}

/** Runs a handler, answering a DomainError with its status; anything else is the router's (an unexpected failure). */
function answered(handle: (context: AuthenticatedRestContext) => Promise<unknown>) {
  return async (context: AuthenticatedRestContext) => {
    try {
      return await handle(context);
    } catch (error) {
      if (error instanceof DomainError && !context.res.headersSent) return refuse(context.res, error);
      throw error;
    }
  };
}

export const fileTransferRoutes: RestRoute[] = [
  {
    ...authenticatedRoute(
      "POST",
      "/v1/files/upload",
      "login",
      answered(async ({ services, principal, req, res }) => {
        const { upload } = await receiveUpload(req, res, { preservePath: true, open: (fields) => services.files.startUpload(principal, fields.parentId || null) });
        if (!upload) return refuse(res, new DomainError("BAD_REQUEST", "errors.file.noFiles"));
        const made = await upload.finish();
        return jsonResult(RETURN_CODES.SUCCESS, "success", await Promise.all(made.map((file) => services.files.entry(principal, file.id))));
      }),
    ),
    rawBody: true,
  },

  authenticatedRoute(
    "GET",
    "/v1/files/:id/download",
    "login",
    answered(async ({ services, principal, params, query, res }) => {
      const { name, size, body } = await services.files.download(principal, params.id);
      await sendStoredFile(res, name, body, query.inline === "1" ? "inline" : "attachment", size);
      return undefined;
    }),
  ),
];
