import { pipeline } from "node:stream/promises";
import { fileExtension } from "../../ingestion/file-types";
import { pythonInt, pythonTruthy } from "../../knowledge/rest/scope";
import { receiveUpload } from "../../knowledge/rest/multipart";
import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import type { RestErrorTable } from "../../rest/error-table";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { API_POLICY } from "../../rest/security-headers";
import { contentDisposition } from "../../knowledge/rest/stored-file";
import { DomainError, NotFound } from "../../platform/errors";
import { FileSort } from "../file.types";
import { viewIdOf } from "../knowledge-base-views";
import { presentFileRow, presentLinks, presentListedFile } from "./presenters";
import { DEFAULT_PAGE_SIZE } from "../file.service";

/**
 * RAGFlow v0.24.0's file manager API (contract §12): `/api/v1/file/*` with an API key, the `json_result` envelope
 * (code, message and data always) and RAGFlow's codes 400/404/409 inside an HTTP 200. Thin over FileService.
 */

const success = (data: unknown) => jsonResult(RETURN_CODES.SUCCESS, "success", data);
const BAD_REQUEST = 400;
const NOT_FOUND = 404;
const CONFLICT = 409;
/** RAGFlow v0.24's answer when a file's team permission check fails. */
const NO_AUTHORIZATION = { code: RETURN_CODES.AUTHENTICATION_ERROR, text: () => "No authorization." };

const worded = (code: number, text: string) => ({ code, text: () => text });

/** RAGFlow's words for one refusal of every route: the rest are the route's own. */
const COMMON: RestErrorTable = { "errors.file.forbidden": NO_AUTHORIZATION };

/** The route's own text for a request field: the loose body (JSON or form) as RAGFlow reads it. */
const text = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : [String(value)]);

/** RAGFlow's `orderby` column as a sort of the service; any other column sorts by creation, its default. */
const SORTS: Record<string, FileSort> = { create_time: FileSort.createdAt, update_time: FileSort.updatedAt, name: FileSort.name, size: FileSort.size };

function fileRoute(method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>, errors: RestErrorTable = {}, rawBody = false): RestRoute {
  return { ...authenticatedRoute(method, path, "apiKey", handle, { ...COMMON, ...errors }), jsonResultErrors: true, rawBody };
}

/** A file part with no name: RAGFlow's "No selected file!". */
class NoSelectedFile extends Error {}

export const fileRestRoutes: RestRoute[] = [
  fileRoute(
    "POST",
    "/api/v1/file/upload",
    async ({ services, principal, req, res }) => {
      try {
        const { upload } = await receiveUpload(req, res, {
          preservePath: true,
          checkName: (name) => {
            if (!name) throw new NoSelectedFile();
          },
          open: (fields) => services.files.startUpload(principal, fields.parent_id || null),
        });
        if (!upload) return jsonResult(BAD_REQUEST, "No file part!", false);
        const made = await upload.finish();
        return success((await Promise.all(made.map((file) => services.files.entry(principal, file.id)))).map(presentFileRow));
      } catch (error) {
        if (error instanceof NoSelectedFile) return jsonResult(BAD_REQUEST, "No selected file!");
        throw error;
      }
    },
    { "errors.file.notFound": worded(NOT_FOUND, "Can't find this folder!"), "errors.file.folderNotFound": worded(NOT_FOUND, "Can't find this folder!") },
    true,
  ),

  fileRoute(
    "POST",
    "/api/v1/file/create",
    async ({ services, principal, body }) => {
      if (!("name" in body)) throw new PythonException("KeyError", "name");
      const parentId = text(body.parent_id) || null;
      const name = text(body.name) ?? "";
      const made = body.type === "folder" ? await services.files.createFolder(principal, parentId, name) : await services.files.createEmpty(principal, parentId, name);
      return success(presentFileRow(made));
    },
    {
      "errors.file.notFound": worded(BAD_REQUEST, "Parent Folder Doesn't Exist!"),
      "errors.file.folderNotFound": worded(BAD_REQUEST, "Parent Folder Doesn't Exist!"),
      "errors.file.folderNameTaken": worded(CONFLICT, "Duplicated folder name in the same folder."),
      "errors.file.nameTaken": worded(CONFLICT, "Duplicated folder name in the same folder."),
    },
  ),

  fileRoute(
    "GET",
    "/api/v1/file/list",
    async ({ services, principal, query }) => {
      const page = pythonInt(query.page, 1);
      const pageSize = pythonInt(query.page_size, DEFAULT_PAGE_SIZE);
      const listed = await services.files.list(principal, {
        parentId: query.parent_id || null,
        search: query.keywords ?? null,
        sort: SORTS[query.orderby ?? "create_time"] ?? FileSort.createdAt,
        // RAGFlow reads the raw value's truthiness: any non-empty value, "false" too, is descending.
        desc: query.desc === undefined ? true : pythonTruthy(query.desc),
        page,
        pageSize,
      });
      return success({ total: listed.total, files: listed.items.map(presentListedFile), parent_folder: presentFileRow(listed.folder) });
    },
    { "errors.file.notFound": worded(NOT_FOUND, "Folder not found!"), "errors.file.folderNotFound": worded(NOT_FOUND, "Folder not found!") },
  ),

  fileRoute("GET", "/api/v1/file/root_folder", async ({ services, principal }) => {
    const root = await services.files.root(principal);
    return success({ root_folder: presentFileRow(await services.files.entry(principal, root.id)) });
  }),

  // RAGFlow v0.24.0's handler always fails (code 100: it misses the tenant argument); this answers what it means to.
  fileRoute(
    "GET",
    "/api/v1/file/parent_folder",
    async ({ services, principal, query }) => {
      const lineage = await services.files.lineage(principal, query.file_id ?? "");
      return success({ parent_folder: presentFileRow(lineage.at(-2) ?? lineage[0]) });
    },
    { "errors.file.notFound": worded(NOT_FOUND, "Folder not found!") },
  ),

  fileRoute(
    "GET",
    "/api/v1/file/all_parent_folder",
    async ({ services, principal, query }) => {
      const lineage = await services.files.lineage(principal, query.file_id ?? "");
      return success({ parent_folders: lineage.reverse().map(presentFileRow) });
    },
    { "errors.file.notFound": worded(NOT_FOUND, "Folder not found!") },
  ),

  fileRoute(
    "POST",
    "/api/v1/file/rm",
    async ({ services, principal, body }) => {
      // RAGFlow skips the .knowledgebase entries (their documents belong to the knowledge bases).
      const ids = list(body.file_ids).filter((id) => !viewIdOf(id));
      if (ids.length > 0) await services.files.destroy(principal, ids);
      return success(true);
    },
    { "errors.file.notFound": worded(NOT_FOUND, "File or Folder not found!") },
  ),

  fileRoute(
    "POST",
    "/api/v1/file/rename",
    async ({ services, principal, body }) => {
      await services.files.rename(principal, text(body.file_id) ?? "", text(body.name) ?? "");
      return success(true);
    },
    {
      "errors.file.notFound": worded(NOT_FOUND, "File not found!"),
      "errors.file.extensionChanged": worded(BAD_REQUEST, "The extension of file can't be changed"),
      "errors.file.nameTaken": worded(CONFLICT, "Duplicated file name in the same folder."),
    },
  ),

  fileRoute(
    "GET",
    "/api/v1/file/get/:fileId",
    async ({ services, principal, params, res }) => {
      const { name, size, body } = await services.files.download(principal, params.fileId);
      const extension = fileExtension(name).replace(/[^a-z0-9.+-]/g, "");
      const entry = await services.files.entry(principal, params.fileId);
      // RAGFlow's types (image/<ext>, application/<ext>), sent as an attachment that no browser sniffs or runs.
      res.type(entry.type === "visual" ? `image/${extension}` : `application/${extension || "octet-stream"}`);
      res.setHeader("Content-Disposition", contentDisposition("attachment", name));
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", API_POLICY);
      res.setHeader("Content-Length", String(size));
      await pipeline(body, res);
      return undefined;
    },
    { "errors.file.notFound": worded(NOT_FOUND, "Document not found!"), "errors.file.folderNoDownload": worded(NOT_FOUND, "Document not found!") },
  ),

  fileRoute(
    "POST",
    "/api/v1/file/mv",
    async ({ services, principal, body }) => {
      const target = text(body.dest_file_id) ?? "";
      await services.files.entry(principal, target).catch((error: unknown) => {
        throw error instanceof DomainError && error.kind === "NOT_FOUND" ? NotFound("errors.file.folderNotFound") : error;
      });
      await services.files.move(principal, list(body.src_file_ids), target);
      return success(true);
    },
    { "errors.file.notFound": worded(NOT_FOUND, "File or Folder not found!"), "errors.file.folderNotFound": worded(NOT_FOUND, "Parent Folder not found!") },
  ),

  fileRoute(
    "POST",
    "/api/v1/file/convert",
    async ({ services, principal, body }) => {
      const knowledgeBaseIds = list(body.kb_ids);
      const linked = await services.files.link(principal, list(body.file_ids), knowledgeBaseIds, { replace: true });
      return success(presentLinks(linked, knowledgeBaseIds));
    },
    {
      "errors.file.notFound": worded(NOT_FOUND, "File not found!"),
      "errors.knowledge.notFound": worded(NOT_FOUND, "Can't find this dataset!"),
      "errors.knowledge.ownerOnly": NO_AUTHORIZATION,
    },
  ),
];
