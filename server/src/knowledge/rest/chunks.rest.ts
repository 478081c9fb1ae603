import { failure, RETURN_CODES, success } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import type { RestErrorTable } from "../../rest/error-table";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { ChunkInput } from "../chunk.service";
import { presentAddedChunk, presentChunk, presentDocument } from "./presenters";
import { answering, checkStringItems, datasetOr, documentIn, documentOr, pythonInt, pythonTypeName, refuse, uniqueIds } from "./scope";

/** RAGFlow's chunk endpoints (contract §4.2–4.5) over ChunkService. */

const ALL = 0;

async function list({ services, principal, params, query }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`);
  await documentOr(services, principal, params.datasetId, params.documentId, `You don't own the document ${params.documentId}.`);
  const page = pythonInt(query.page, 1);
  const pageSize = pythonInt(query.page_size, 30);
  const { total, items, document } = await services.chunks.list(principal, params.documentId, {
    search: query.keywords || undefined,
    id: query.id || undefined,
    page,
    pageSize: Math.max(0, pageSize),
  });
  if (query.id && items.length === 0) return failure(RETURN_CODES.NOT_FOUND, `Chunk not found: ${params.datasetId}/${query.id}`);
  return success({ total, chunks: items.map((chunk) => presentChunk(chunk, document.name)), doc: presentDocument(document) });
}

/** A list field of a chunk body: refused with `message` when it is not a list, TypeError when an item is not a string. */
function stringList(value: unknown, message: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw refuse(message);
  checkStringItems(value);
  return value as string[];
}

async function add({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`, "manage");
  await documentOr(services, principal, params.datasetId, params.documentId, `You don't own the document ${params.documentId}.`);
  // No content is an empty one, which the service refuses (errors.knowledge.chunkContentRequired).
  const content = body.content === undefined ? "" : body.content;
  if ("important_keywords" in body && !Array.isArray(body.important_keywords)) throw refuse("`important_keywords` is required to be a list");
  if ("questions" in body && !Array.isArray(body.questions)) throw refuse("`questions` is required to be a list");
  // RAGFlow checks str(content).strip(): a null content is the text "None" and fails later, on the id hash.
  if (typeof content !== "string") throw new PythonException("TypeError", `unsupported operand type(s) for +: '${pythonTypeName(content)}' and 'str'`);
  const keywords = stringList(body.important_keywords, "`important_keywords` is required to be a list");
  const questions = stringList(body.questions, "`questions` is required to be a list");
  const chunk = await services.chunks.add(principal, params.documentId, { content, keywords, questions });
  return success({ chunk: presentAddedChunk(chunk) });
}

/** RAGFlow's words for the chunk rules the service checks (API contract §4.3). */
const ADD_ERRORS: RestErrorTable = {
  "errors.knowledge.chunkContentRequired": () => "`content` is required",
};

/** Python's int() of `available` (true/false, 0/1, "1"): a ValueError for anything else. */
function availability(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value) !== 0;
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value) !== 0;
  throw new PythonException("ValueError", `invalid literal for int() with base 10: ${pythonRepr(value)}`);
}

const pythonRepr = (value: unknown) => (typeof value === "string" ? `'${value}'` : String(value));

/** RAGFlow's Q&A rule: the text splits on tab or newline into exactly a question and an answer. */
function isQuestionAndAnswer(content: string): boolean {
  return content.split(/[\n\t]/).filter((part) => part.length > 1).length === 2;
}

async function update({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`, "manage");
  const document = await documentIn(services, principal, params.datasetId, params.documentId);
  if (!document) throw refuse(`You don't own the document ${params.documentId}.`);
  const found = await services.chunks.list(principal, document.id, { id: params.chunkId, pageSize: 1 });
  if (found.items.length === 0) throw refuse(`Can't find this chunk ${params.chunkId}`);
  const input: ChunkInput = {};
  if (body.content !== undefined && body.content !== null) input.content = String(body.content);
  input.keywords = stringList(body.important_keywords, "`important_keywords` should be a list");
  input.questions = stringList(body.questions, "`questions` should be a list");
  if ("available" in body) input.available = availability(body.available);
  if ("positions" in body && !Array.isArray(body.positions)) throw refuse("`positions` should be a list");
  if (document.chunkMethod === "qa" && input.content !== undefined && !isQuestionAndAnswer(input.content)) throw refuse("Q&A must be separated by TAB/ENTER key.");
  await services.chunks.update(principal, params.chunkId, input);
  return success();
}

async function remove({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}.`, "manage");
  const document = await documentIn(services, principal, params.datasetId, params.documentId);
  if (!document) throw new PythonException("LookupError", `Can't find the document with ID ${params.documentId}!`);
  const existing = (await services.chunks.list(principal, document.id, { pageSize: ALL })).items.map((c) => c.id);
  const requested = Array.isArray(body.chunk_ids) && body.chunk_ids.length > 0 ? body.chunk_ids.map(String) : null;
  if (!requested) {
    if (existing.length > 0) await services.chunks.delete(principal, existing);
    return success();
  }
  const { unique, duplicateErrors } = uniqueIds(requested, "chunk");
  const inDocument = new Set(existing);
  const toDelete = unique.filter((id) => inDocument.has(id));
  const deleted = toDelete.length > 0 ? await services.chunks.delete(principal, toDelete) : 0;
  if (deleted !== unique.length) return failure(RETURN_CODES.DATA_ERROR, `rm_chunk deleted chunks ${deleted}, expect ${unique.length}`);
  if (duplicateErrors.length > 0) return success({ success_count: deleted, errors: duplicateErrors });
  return success();
}

const route = (method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>, errors?: RestErrorTable): RestRoute =>
  authenticatedRoute(method, path, "apiKey", (context) => answering(() => handle(context)), errors);

const CHUNKS = "/api/v1/datasets/:datasetId/documents/:documentId/chunks";

export const chunkRestRoutes: RestRoute[] = [
  route("GET", CHUNKS, list),
  route("POST", CHUNKS, add, ADD_ERRORS),
  route("DELETE", CHUNKS, remove),
  route("PUT", `${CHUNKS}/:chunkId`, update),
];
