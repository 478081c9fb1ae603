import { failure, RETURN_CODES, success } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import type { RestErrorTable } from "../../rest/error-table";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { CHUNK_METHOD_NAMES } from "../../ingestion/chunkers/registry";
import { fileExtension } from "../../ingestion/file-types";
import { englishMessage } from "../../platform/messages";
import { ObjectNotFound } from "../../platform/storage";
import { parseMetadataCondition, type MetadataCondition } from "../metadata-condition";
import { RUN, type Document, type RunStatus } from "../document.entity";
import { MAX_NAME_BYTES, type DocumentQuery } from "../document.service";
import { pythonRepr } from "./dataset-schema";
import { receiveUpload } from "./multipart";
import { presentDocument, presentUploadedDocument, runDigit } from "./presenters";
import { sendStoredFile } from "./stored-file";
import { answering, datasetOr, documentIn, documentOr, pythonInt, pythonTruthy, queryValues, refuse, uniqueIds, usableDataset } from "./scope";

/**
 * RAGFlow's document endpoints (contract §3.2–3.8) over DocumentService: upload, update, download,
 * list, delete, and starting and stopping parsing.
 */

/** The chunk methods a document may be switched to (§3.3 step 9: knowledge_graph yes, resume no). */
const DOCUMENT_CHUNK_METHODS = CHUNK_METHOD_NAMES.filter((name) => name !== "resume");

/** Document columns a list may be ordered by; anything else falls back to the creation time. */
const ORDER_COLUMNS: Record<string, NonNullable<DocumentQuery["orderBy"]>> = {
  create_time: "createdAt",
  update_time: "updatedAt",
  name: "name",
  size: "size",
};

const ALL = Number.MAX_SAFE_INTEGER;

async function upload({ services, principal, req, res, params }: AuthenticatedRestContext): Promise<unknown> {
  const { upload } = await receiveUpload(req, res, {
    checkName: (name) => {
      if (name === "") throw refuse("No file selected!", RETURN_CODES.ARGUMENT_ERROR);
      if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw refuse("File name must be 255 bytes or less.", RETURN_CODES.ARGUMENT_ERROR);
    },
    open: async () => {
      // Another tenant's dataset is answered like one that does not exist.
      const kb = await usableDataset(services, principal, params.datasetId, "manage");
      if (!kb) throw new PythonException("LookupError", `Can't find the dataset with ID ${params.datasetId}!`);
      return services.documents.startUpload(principal, kb.id, { partial: true });
    },
  });
  if (!upload) return failure(RETURN_CODES.ARGUMENT_ERROR, "No file part!");
  const { documents, refused } = await upload.finish();
  if (refused.length > 0) {
    return failure(500, refused.map((r) => `${r.name}: ${englishMessage(r.messageKey, { name: r.name })}`).join("\n"));
  }
  return success(documents.map(presentUploadedDocument));
}

/** RAGFlow's words for the renaming rules the service checks (API contract §3.3). */
const UPDATE_ERRORS: RestErrorTable = {
  "errors.knowledge.documentNameRequired": { code: RETURN_CODES.ARGUMENT_ERROR, text: () => "The extension of file can't be changed" },
  "errors.knowledge.extensionChanged": { code: RETURN_CODES.ARGUMENT_ERROR, text: () => "The extension of file can't be changed" },
  "errors.knowledge.nameTooLongBytes": { code: RETURN_CODES.ARGUMENT_ERROR, text: () => "File name must be 255 bytes or less." },
  "errors.knowledge.documentNameTaken": () => "Duplicated document name in the same dataset.",
};

async function update({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, "You don't own the dataset.", "manage");
  let document = await documentOr(services, principal, params.datasetId, params.documentId, "The dataset doesn't own the document.");
  for (const [key, current, label] of [
    ["chunk_count", document.chunkCount, "chunk_count"],
    ["token_count", document.tokenCount, "token_count"],
    ["progress", document.progress, "progress"],
  ] as const) {
    if (key in body && body[key] !== current) throw refuse(`Can't change \`${label}\`.`);
  }
  if ("meta_fields" in body) {
    const meta = body.meta_fields;
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) throw refuse("meta_fields must be a dictionary");
    document = await services.documents.setMetaFields(principal, document.id, meta as Record<string, unknown>);
  }
  if ("name" in body && body.name !== document.name) {
    if (typeof body.name !== "string") throw new PythonException("AttributeError", `'${body.name === null ? "NoneType" : typeof body.name === "number" ? "int" : typeof body.name}' object has no attribute 'encode'`);
    if (Buffer.byteLength(body.name) > MAX_NAME_BYTES) throw refuse("File name must be 255 bytes or less.", RETURN_CODES.ARGUMENT_ERROR);
    if (fileExtension(body.name) !== fileExtension(document.name) || fileExtension(body.name) === "") {
      throw refuse("The extension of file can't be changed", RETURN_CODES.ARGUMENT_ERROR);
    }
    document = await services.documents.rename(principal, document.id, body.name);
  }
  const config = body.parser_config;
  const hasConfig = typeof config === "object" && config !== null && !Array.isArray(config) && Object.keys(config).length > 0;
  if ("chunk_method" in body) {
    const method = body.chunk_method;
    if (typeof method !== "string" || !(DOCUMENT_CHUNK_METHODS as readonly string[]).includes(method)) throw refuse(`\`chunk_method\` ${method === null ? "None" : String(method)} doesn't exist`);
    if (document.type === "visual" || ["ppt", "pptx", "pages"].includes(document.suffix)) throw refuse("Not supported yet!");
    if (method !== document.chunkMethod || hasConfig) document = await services.documents.changeParser(principal, document.id, method, hasConfig ? (config as Record<string, unknown>) : null);
  } else if (hasConfig) {
    document = await services.documents.changeParser(principal, document.id, document.chunkMethod, config as Record<string, unknown>);
  }
  if ("enabled" in body) {
    const enabled = body.enabled === true || Number(body.enabled) === 1;
    [document] = await services.documents.setEnabled(principal, [document.id], enabled);
  }
  return success(presentDocument(document));
}

/** The bytes of a document, or null when the store has none. */
export async function documentBytes(services: AuthenticatedRestContext["services"], principal: AuthenticatedRestContext["principal"], document: Document): Promise<Buffer | null> {
  try {
    const { body } = await services.documents.download(principal, document.id);
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(Buffer.from(part as Buffer));
    const bytes = Buffer.concat(parts);
    return bytes.length > 0 ? bytes : null;
  } catch (error) {
    if (error instanceof ObjectNotFound) return null;
    throw error;
  }
}

async function download({ services, principal, params, res }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, `You do not own the dataset ${params.datasetId}.`);
  const document = await documentOr(services, principal, params.datasetId, params.documentId, `The dataset not own the document ${params.documentId}.`);
  const bytes = await documentBytes(services, principal, document);
  if (!bytes) throw refuse("This file is empty.");
  await sendStoredFile(res, document.name, bytes, "attachment");
  return undefined;
}

async function list({ services, principal, params, query, req }: AuthenticatedRestContext): Promise<unknown> {
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}. `);
  const page = Math.max(1, pythonInt(query.page, 1));
  const pageSize = pythonInt(query.page_size, 30);
  if (query.id && !(await documentIn(services, principal, kb.id, query.id))) throw refuse(`You don't own the document ${query.id}.`);
  const { items: named } = query.name ? await services.documents.list(principal, kb.id, { search: query.name, pageSize: ALL }) : { items: [] };
  if (query.name && !named.some((d) => d.name === query.name)) throw refuse(`You don't own the document ${query.name}.`);
  let metadata: MetadataCondition | null = null;
  if (query.metadata_condition) {
    let condition: unknown;
    try {
      condition = JSON.parse(query.metadata_condition);
    } catch {
      throw refuse("metadata_condition must be valid JSON.");
    }
    if (pythonTruthy(condition) && (typeof condition !== "object" || condition === null || Array.isArray(condition))) throw refuse("metadata_condition must be an object.");
    metadata = parseMetadataCondition(condition);
  }
  const runs = queryValues(req.query.run)
    .map(runDigit)
    .filter((r): r is RunStatus => r !== null);
  const filter: DocumentQuery = {
    search: query.keywords,
    runs,
    suffixes: queryValues(req.query.suffix),
    orderBy: ORDER_COLUMNS[query.orderby ?? "create_time"] ?? "createdAt",
    desc: (query.desc ?? "true").toLowerCase() !== "false",
    ...(metadata ? { metadata } : {}),
  };
  let total: number;
  let items: Document[];
  if (query.id || query.name) {
    // Exact id and name filters: RAGFlow's list combines them with the others.
    const all = (await services.documents.list(principal, kb.id, { ...filter, pageSize: ALL })).items.filter(
      (d) => (!query.id || d.id === query.id) && (!query.name || d.name === query.name),
    );
    total = all.length;
    items = pageSize > 0 ? all.slice((page - 1) * pageSize, page * pageSize) : [];
  } else {
    ({ total, items } = await services.documents.list(principal, kb.id, { ...filter, page, pageSize: Math.max(0, pageSize) }));
  }
  // RAGFlow applies the creation-time range to the page it has read, after paging.
  const from = Number(query.create_time_from ?? 0) || 0;
  const to = Number(query.create_time_to ?? 0) || 0;
  items = items.filter((d) => (!from || d.createdAt.getTime() >= from) && (!to || d.createdAt.getTime() <= to));
  return success({ total, docs: items.map((d) => presentDocument(d, { listed: true })) });
}

/** `ids` of a body as a list of strings, or null when absent, null or empty. */
function idList(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new PythonException("TypeError", `'${typeof value === "number" ? "int" : typeof value}' object is not iterable`);
  return value.length === 0 ? null : value.map(String);
}

/** §1.11: code 0 with the duplicate messages when something succeeded, else 102 with all messages. */
function withDuplicates(successCount: number, errors: string[]): Record<string, unknown> {
  if (errors.length === 0) return success();
  if (successCount > 0) return success({ success_count: successCount, errors });
  return failure(RETURN_CODES.DATA_ERROR, errors.join(";"));
}

async function remove({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}. `, "manage");
  const requested = idList(body.ids) ?? (await services.documents.list(principal, kb.id, { pageSize: ALL })).items.map((d) => d.id);
  const { unique, duplicateErrors } = uniqueIds(requested, "document");
  const found = await Promise.all(unique.map((id) => documentIn(services, principal, kb.id, id)));
  const missing = unique.filter((_, i) => !found[i]);
  const present = found.filter((d): d is Document => d !== null).map((d) => d.id);
  if (present.length > 0) await services.documents.destroy(principal, present);
  if (missing.length > 0) return failure(RETURN_CODES.DATA_ERROR, `Documents not found: ${pythonRepr(missing)}`);
  return withDuplicates(present.length, duplicateErrors);
}

async function startParsing({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`, "manage");
  const ids = idList(body.document_ids);
  if (!ids) throw refuse("`document_ids` is required");
  const { unique, duplicateErrors } = uniqueIds(ids, "document");
  const found = await Promise.all(unique.map((id) => documentIn(services, principal, kb.id, id)));
  const documents = found.filter((d): d is Document => d !== null);
  if (documents.some((d) => d.progress > 0 && d.progress < 1)) throw refuse("Can't parse document that is currently being processed");
  if (documents.length > 0) await services.documents.runParsing(principal, documents.map((d) => d.id));
  const missing = unique.filter((_, i) => !found[i]);
  if (missing.length > 0) return failure(RETURN_CODES.DATA_ERROR, `Documents not found: ${pythonRepr(missing)}`);
  return withDuplicates(documents.length, duplicateErrors);
}

async function stopParsing({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`, "manage");
  const ids = idList(body.document_ids);
  if (!ids) throw refuse("`document_ids` is required");
  const { unique, duplicateErrors } = uniqueIds(ids, "document");
  const documents: Document[] = [];
  for (const id of unique) {
    const document = await documentIn(services, principal, kb.id, id);
    if (!document) throw refuse(`You don't own the document ${id}.`);
    // "progress at 0 or 1" in RAGFlow's words: a document that is not being parsed. One that is queued can be stopped.
    if (document.run !== RUN.running) throw refuse("Can't stop parsing document with progress at 0 or 1");
    documents.push(document);
  }
  await services.documents.cancelParsing(principal, documents.map((d) => d.id));
  return withDuplicates(documents.length, duplicateErrors);
}

const route = (method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>, rawBody = false, errors?: RestErrorTable): RestRoute => ({
  ...authenticatedRoute(method, path, "apiKey", (context) => answering(() => handle(context)), errors),
  ...(rawBody ? { rawBody } : {}),
});

export const documentRestRoutes: RestRoute[] = [
  route("POST", "/api/v1/datasets/:datasetId/documents", upload, true),
  route("GET", "/api/v1/datasets/:datasetId/documents", list),
  route("DELETE", "/api/v1/datasets/:datasetId/documents", remove),
  route("GET", "/api/v1/datasets/:datasetId/documents/:documentId", download),
  route("PUT", "/api/v1/datasets/:datasetId/documents/:documentId", update, false, UPDATE_ERRORS),
  route("POST", "/api/v1/datasets/:datasetId/chunks", startParsing),
  route("DELETE", "/api/v1/datasets/:datasetId/chunks", stopParsing),
];
