import { failure, jsonResult, RETURN_CODES, success } from "../../rest/envelope";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { parseMetadataCondition } from "../metadata-condition";
import type { MetadataDelete, MetadataUpdate } from "../document-metadata";
import { presentDatasetRow } from "./presenters";
import { answering, datasetOr, pythonTruthy, queryValues, refuse, usableDataset } from "./scope";
import { isPlainObject } from "../../platform/plain-object";

/**
 * Documents' metadata across a dataset (contract §2.8): a summary of keys and values, and changes to many
 * documents at once; and RAGFlow's web route that stores a dataset's metadata schema (§13 row 8).
 */

/** `doc_ids` of the JSON body (RAGFlow reads it there, even on a GET) or of the query string. */
function summaryDocumentIds(context: AuthenticatedRestContext): string[] | undefined {
  const fromBody = context.body.doc_ids;
  if (Array.isArray(fromBody)) return fromBody.map(String);
  const fromQuery = queryValues(context.req.query.doc_ids).flatMap((value) => value.split(","));
  return fromQuery.length > 0 ? fromQuery : undefined;
}

async function summary(context: AuthenticatedRestContext): Promise<unknown> {
  const { services, principal, params } = context;
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}. `);
  return success({ summary: await services.documents.metadataSummary(principal, kb.id, summaryDocumentIds(context)) });
}

/**
 * The documents a change applies to: all of the dataset, narrowed to `document_ids` and then to those
 * meeting `metadata_condition` (the intended semantics; v0.24.0 fails with code 100 without document_ids).
 */
async function update({ services, principal, params, body }: AuthenticatedRestContext): Promise<unknown> {
  const kb = await datasetOr(services, principal, params.datasetId, `You don't own the dataset ${params.datasetId}. `, "manage");
  const selector = pythonTruthy(body.selector) ? body.selector : {};
  const updates = pythonTruthy(body.updates) ? body.updates : [];
  const deletes = pythonTruthy(body.deletes) ? body.deletes : [];
  if (!isPlainObject(selector)) throw refuse("selector must be an object.");
  if (!Array.isArray(updates) || !Array.isArray(deletes)) throw refuse("updates and deletes must be lists.");
  const condition = selector.metadata_condition;
  if (pythonTruthy(condition) && !isPlainObject(condition)) throw refuse("metadata_condition must be an object.");
  const documentIds = pythonTruthy(selector.document_ids) ? selector.document_ids : [];
  if (!Array.isArray(documentIds)) throw refuse("document_ids must be a list.");
  if (!updates.every((u) => isPlainObject(u) && pythonTruthy(u.key) && "value" in u)) throw refuse("Each update requires key and value.");
  if (!deletes.every((d) => isPlainObject(d) && pythonTruthy(d.key))) throw refuse("Each delete requires key.");

  const inDataset = (await services.documents.list(principal, kb.id, { pageSize: Number.MAX_SAFE_INTEGER })).items.map((d) => d.id);
  let targets = new Set(inDataset);
  if (documentIds.length > 0) {
    const requested = documentIds.map(String);
    const foreign = [...new Set(requested.filter((id) => !targets.has(id)))];
    if (foreign.length > 0) throw refuse(`These documents do not belong to dataset ${kb.id}: ${foreign.join(", ")}`);
    targets = new Set(requested);
  }
  const parsed = parseMetadataCondition(condition);
  if (parsed) {
    const meeting = new Set(await services.documents.meetingCondition([kb.id], parsed));
    targets = new Set([...targets].filter((id) => meeting.has(id)));
    if (targets.size === 0) return success({ updated: 0, matched_docs: 0 });
  }
  const updated = await services.documents.changeMetadata(
    principal,
    kb.id,
    [...targets],
    (updates as Record<string, unknown>[]).map((u): MetadataUpdate => ({ key: String(u.key), value: u.value, ...("match" in u ? { match: u.match } : {}) })),
    (deletes as Record<string, unknown>[]).map((d): MetadataDelete => ({ key: String(d.key), ...("value" in d ? { value: d.value } : {}) })),
  );
  return success({ updated, matched_docs: targets.size });
}

/**
 * RAGFlow's `/v1/kb/update_metadata_setting`: the schema of the metadata a dataset's documents carry,
 * kept in its parser_config as `metadata` and `enable_metadata`. RAGFlow's clients call it with an API key.
 */
async function updateMetadataSetting({ services, principal, body }: AuthenticatedRestContext): Promise<unknown> {
  const missing = ["kb_id", "metadata"].filter((key) => !(key in body));
  if (missing.length > 0) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `);
  // RAGFlow looks the dataset up without asking whose it is; Cairn answers another tenant's as a missing one.
  const kb = typeof body.kb_id === "string" ? await usableDataset(services, principal, body.kb_id, "manage") : null;
  if (!kb) return failure(RETURN_CODES.DATA_ERROR, "Database error (Knowledgebase rename)!");
  const enabled = "enable_metadata" in body ? pythonTruthy(body.enable_metadata) : true;
  const updated = await services.knowledgeBases.setMetadataSetting(principal, kb.id, body.metadata, enabled);
  const tasks = (await services.kbTasks.datasetTaskRefs([updated.id])).get(updated.id);
  return jsonResult(RETURN_CODES.SUCCESS, "success", presentDatasetRow(updated, tasks));
}

const route = (method: RestRoute["method"], path: string, auth: "apiKey" | "login", handle: (context: AuthenticatedRestContext) => Promise<unknown>): RestRoute =>
  authenticatedRoute(method, path, auth, (context) => answering(() => handle(context)));

export const metadataRestRoutes: RestRoute[] = [
  route("GET", "/api/v1/datasets/:datasetId/metadata/summary", "apiKey", summary),
  route("POST", "/api/v1/datasets/:datasetId/metadata/update", "apiKey", update),
  route("POST", "/v1/kb/update_metadata_setting", "login", updateMetadataSetting),
];
