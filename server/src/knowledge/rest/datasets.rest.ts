import { failure, success } from "../../rest/envelope";
import type { RestErrorTable } from "../../rest/error-table";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { can } from "../../policies";
import type { SignedIn } from "../../policies/principal";
import { findProvider } from "../../models/providers/registry";
import type { Services } from "../../platform/services";
import type { KnowledgeBase } from "../knowledge-base.entity";
import { knowledgeBaseResource, type KnowledgeBaseInput } from "../knowledge-base.service";
import { jsonObjectPayload, parseDatasetBody, parseDeleteBody, parseListQuery, uuid1Hex, type DatasetFields } from "./dataset-schema";
import { presentDataset } from "./presenters";
import { answering, usableDataset } from "./scope";

/**
 * RAGFlow's dataset endpoints (contract §2.2–2.5) over KnowledgeBaseService. These four validate their
 * input with pydantic in RAGFlow, answer schema errors with 101 and ownership errors with 108.
 */

const ARGUMENT_ERROR = 101;
const PERMISSION_ERROR = 108;

/** RAGFlow's verify_embedding_availability: the model is configured (or built in), else why not. */
async function embeddingModelRefusal(services: Services, principal: SignedIn, model: string): Promise<string | null> {
  const available = await services.models.availableModels(principal.tenantId, "embedding");
  if (available.some((m) => m.id === model)) return null;
  const at = model.lastIndexOf("@");
  const provider = at > 0 ? findProvider(model.slice(at + 1)) : undefined;
  const name = provider ? model.slice(0, at) : model;
  const inCatalogue = provider?.catalogue?.some((m) => m.name === name && m.type === "embedding") ?? false;
  return inCatalogue ? `Unauthorized model: <${model}>` : `Unsupported model: <${model}>`;
}

function serviceInput(fields: DatasetFields): KnowledgeBaseInput {
  const input: KnowledgeBaseInput = {};
  if (fields.name !== undefined) input.name = fields.name;
  if (fields.avatar !== undefined) input.avatar = fields.avatar;
  if (fields.description !== undefined) input.description = fields.description;
  if (fields.embeddingModel) input.embeddingModel = fields.embeddingModel;
  if (fields.permission !== undefined) input.permission = fields.permission;
  if (fields.chunkMethod !== undefined) input.chunkMethod = fields.chunkMethod;
  if (fields.parserConfig) input.parserConfig = fields.parserConfig;
  if (fields.pagerank !== undefined) input.pagerank = fields.pagerank;
  return input;
}

/** Datasets as the contract shows them, with their RAPTOR and GraphRAG runs read in one query for all of them. */
async function presentDatasets(services: Services, kbs: KnowledgeBase[]): Promise<Record<string, unknown>[]> {
  const tasks = await services.kbTasks.datasetTaskRefs(kbs.map((kb) => kb.id));
  return kbs.map((kb) => presentDataset(kb, tasks.get(kb.id)));
}

async function create({ services, principal, req, res }: AuthenticatedRestContext): Promise<unknown> {
  const payload = jsonObjectPayload(req, res);
  if (!payload.ok) return failure(ARGUMENT_ERROR, payload.message);
  const fields = parseDatasetBody(payload.value, { update: false });
  if (!fields.ok) return failure(ARGUMENT_ERROR, fields.message);
  if (fields.value.embeddingModel) {
    const refusal = await embeddingModelRefusal(services, principal, fields.value.embeddingModel);
    if (refusal) return failure(ARGUMENT_ERROR, refusal);
  }
  const kb = await services.knowledgeBases.create(principal, serviceInput(fields.value));
  return success(presentDataset(kb));
}

async function update({ services, principal, req, res, params }: AuthenticatedRestContext): Promise<unknown> {
  const payload = jsonObjectPayload(req, res);
  if (!payload.ok) return failure(ARGUMENT_ERROR, payload.message);
  const fields = parseDatasetBody(payload.value, { update: true, datasetId: params.datasetId });
  if (!fields.ok) return failure(ARGUMENT_ERROR, fields.message);
  if (Object.keys(fields.value).length === 0) return failure(ARGUMENT_ERROR, "No properties were modified");
  const id = uuid1Hex(params.datasetId)!;
  const kb = await usableDataset(services, principal, id, "manage");
  if (!kb) return failure(PERMISSION_ERROR, `User '${principal.tenantId}' lacks permission for dataset '${params.datasetId}'`);
  const model = fields.value.embeddingModel;
  if (model && model !== kb.embeddingModel) {
    if (kb.chunkCount > 0) return failure(102, `When chunk_num (${kb.chunkCount}) > 0, embedding_model must remain ${kb.embeddingModel}`);
    const refusal = await embeddingModelRefusal(services, principal, model);
    if (refusal) return failure(ARGUMENT_ERROR, refusal);
  }
  const [updated] = await presentDatasets(services, [await services.knowledgeBases.update(principal, id, serviceInput(fields.value))]);
  return success(updated);
}

/** RAGFlow's words for the knowledge-base rules an update may break (API contract §2.4). */
const UPDATE_ERRORS: RestErrorTable = {
  "errors.knowledge.nameTaken": ({ name }) => `Dataset name '${name}' already exists`,
};

async function remove({ services, principal, req, res }: AuthenticatedRestContext): Promise<unknown> {
  const payload = jsonObjectPayload(req, res);
  if (!payload.ok) return failure(ARGUMENT_ERROR, payload.message);
  const parsed = parseDeleteBody(payload.value);
  if (!parsed.ok) return failure(ARGUMENT_ERROR, parsed.message);
  let ids = parsed.value;
  if (ids === null) {
    const { items } = await services.knowledgeBases.list(principal, { pageSize: Number.MAX_SAFE_INTEGER });
    ids = items.filter((kb) => can(principal, "delete", knowledgeBaseResource(kb))).map((kb) => kb.id);
  }
  if (ids.length === 0) return success();
  const owned = await Promise.all(ids.map((id) => usableDataset(services, principal, id, "delete")));
  const unauthorized = ids.filter((_, i) => !owned[i]);
  if (unauthorized.length > 0) return failure(PERMISSION_ERROR, `User '${principal.tenantId}' lacks permission for datasets: '${unauthorized.join(", ")}'`);
  await services.knowledgeBases.destroy(principal, ids);
  return success();
}

async function list({ services, principal, query }: AuthenticatedRestContext): Promise<unknown> {
  const parsed = parseListQuery(query);
  if (!parsed.ok) return failure(ARGUMENT_ERROR, parsed.message);
  const { page, pageSize, orderBy, desc, id, name } = parsed.value;
  const lacks = (what: string) => failure(PERMISSION_ERROR, `User '${principal.tenantId}' lacks permission for dataset '${what}'`);
  if (id === undefined && name === undefined) {
    const { total, items } = await services.knowledgeBases.list(principal, { page, pageSize, orderBy, desc });
    return { code: 0, data: await presentDatasets(services, items), total_datasets: total };
  }
  let matches: KnowledgeBase[] = [];
  if (id !== undefined) {
    const kb = await usableDataset(services, principal, id);
    if (!kb) return lacks(query.id);
    matches = [kb];
  }
  if (name !== undefined) {
    const named = (await services.knowledgeBases.list(principal, { search: name, pageSize: Number.MAX_SAFE_INTEGER, orderBy, desc })).items.filter((kb) => kb.name === name);
    if (named.length === 0) return lacks(name);
    matches = id !== undefined ? matches.filter((kb) => kb.name === name) : named;
  }
  const items = matches.slice((page - 1) * pageSize, page * pageSize);
  return { code: 0, data: await presentDatasets(services, items), total_datasets: matches.length };
}

const schemaRoute = (method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>, errors?: RestErrorTable): RestRoute => ({
  ...authenticatedRoute(method, path, "apiKey", (context) => answering(() => handle(context)), errors),
  rawBody: true,
});

export const datasetRestRoutes: RestRoute[] = [
  schemaRoute("POST", "/api/v1/datasets", create),
  schemaRoute("GET", "/api/v1/datasets", list),
  schemaRoute("DELETE", "/api/v1/datasets", remove),
  schemaRoute("PUT", "/api/v1/datasets/:datasetId", update, UPDATE_ERRORS),
];
