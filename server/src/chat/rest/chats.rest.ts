import { failure, RETURN_CODES, success } from "../../rest/envelope";
import { epochMillis, rfc1123 } from "../../rest/presenters";
import { PythonException, pythonStringRepr } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { SignedIn } from "../../policies/principal";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { answering, pythonInt, pythonTypeName, refuse, uniqueIds } from "../../knowledge/rest/scope";
import { DomainError } from "../../platform/errors";
import type { Services } from "../../platform/services";
import type { ChatAssistant, PromptConfig, StoredLlmSetting } from "../assistant.entity";
import { RAGFLOW_RERANK_ALLOW_LIST, unusedVariable, type AssistantQuery, type AssistantRecord } from "../assistant.service";
import {
  DEFAULT_EMPTY_RESPONSE,
  DEFAULT_LANGUAGE,
  DEFAULT_LLM_SETTING,
  DEFAULT_OPENER,
  DEFAULT_SWITCHES,
  newAssistantColumns,
  RAGFLOW_DEFAULT_SYSTEM_PROMPT,
  type PromptVariable,
} from "../prompt-defaults";

/**
 * RAGFlow's chat-assistant endpoints (API contract §6): they rename fields between the API and the
 * stored "dialog", check in RAGFlow's order with its messages, and leave the rules themselves
 * (knowledge-base access, parsed files, one embedding model, models, unique names, variables) to
 * AssistantService.
 */

type Json = Record<string, unknown>;

/** API prompt key → stored prompt_config key (§6.1). */
const PROMPT_KEYS: Record<string, string> = { variables: "parameters", opener: "prologue", show_quote: "quote", prompt: "system" };
/** Prompt keys that are columns of their own. */
const PROMPT_COLUMNS: Record<string, keyof AssistantRecord> = {
  similarity_threshold: "similarityThreshold",
  keywords_similarity_weight: "vectorSimilarityWeight",
  top_n: "topN",
  rerank_model: "rerankId",
  top_k: "topK",
};
/** Internal column names a body may carry verbatim (§6.3, last paragraph). */
const RAW_COLUMNS: Record<string, keyof AssistantRecord> = {
  similarity_threshold: "similarityThreshold",
  vector_similarity_weight: "vectorSimilarityWeight",
  top_n: "topN",
  top_k: "topK",
  rerank_id: "rerankId",
  llm_id: "llmId",
  llm_setting: "llmSetting",
  prompt_config: "promptConfig",
  description: "description",
  language: "language",
  do_refer: "doRefer",
  meta_data_filter: "metaDataFilter",
};
/** Every column of RAGFlow's dialog table: what an update body may still hold once renamed (§6.4 row 9). */
const DIALOG_COLUMNS = new Set([
  "id", "tenant_id", "name", "description", "icon", "language", "llm_id", "llm_setting", "prompt_type", "prompt_config", "meta_data_filter",
  "similarity_threshold", "vector_similarity_weight", "top_n", "top_k", "do_refer", "rerank_id", "kb_ids", "status",
  "create_time", "create_date", "update_time", "update_date",
]);
const INTEGER_COLUMNS = new Set<keyof AssistantRecord>(["topN", "topK"]);
const NUMBER_COLUMNS = new Set<keyof AssistantRecord>(["similarityThreshold", "vectorSimilarityWeight", "topN", "topK"]);

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Python's truthiness of a JSON value. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's str() of a JSON value, as RAGFlow's f-strings print it. */
function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** `for i in value` in Python: a list's items, a string's characters, a dict's keys. */
function pythonIterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [...value];
  if (isObject(value)) return Object.keys(value);
  throw new PythonException("TypeError", `'${pythonTypeName(value)}' object is not iterable`);
}

/** Text columns and what a null becomes in them. */
const TEXT_COLUMNS: Partial<Record<keyof AssistantRecord, string | null>> = { description: null, language: DEFAULT_LANGUAGE, llmId: "", rerankId: "", doRefer: "1" };

/** A column's value from a body value: RAGFlow does not range-check, but a numeric column holds a number. */
function columnValue(column: keyof AssistantRecord, value: unknown): unknown {
  if (column in TEXT_COLUMNS) return value === null || value === undefined ? TEXT_COLUMNS[column] : pythonStr(value);
  if (!NUMBER_COLUMNS.has(column)) return value;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "boolean" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) {
    const kind = INTEGER_COLUMNS.has(column) ? "int() with base 10" : "float";
    throw new PythonException("ValueError", kind === "float" ? `could not convert string to float: ${pythonStringRepr(pythonStr(value))}` : `invalid literal for ${kind}: ${pythonStringRepr(pythonStr(value))}`);
  }
  return INTEGER_COLUMNS.has(column) ? Math.trunc(n) : n;
}

/** The API's `prompt` in stored names: prompt_config keys, and the keys that are columns. */
function renamePrompt(prompt: Json): { config: Json; columns: Partial<AssistantRecord> } {
  const config: Json = {};
  const columns: Partial<AssistantRecord> = {};
  for (const [key, value] of Object.entries(prompt)) {
    const column = PROMPT_COLUMNS[key];
    if (column) (columns as Json)[column] = columnValue(column, value);
    else config[PROMPT_KEYS[key] ?? key] = value;
  }
  return { config, columns };
}

/** The stored prompt_config in the API's names, plus the retrieval columns (§6.2). */
function presentPrompt(assistant: ChatAssistant): Json {
  const renamed: Json = {};
  const apiName = Object.fromEntries(Object.entries(PROMPT_KEYS).map(([api, stored]) => [stored, api]));
  for (const [key, value] of Object.entries(assistant.promptConfig ?? {})) renamed[apiName[key] ?? key] = value;
  return {
    ...renamed,
    similarity_threshold: assistant.similarityThreshold,
    // RAGFlow's quirk: the stored vector weight goes out as the keyword weight, 1 − it.
    keywords_similarity_weight: 1 - assistant.vectorSimilarityWeight,
    top_n: assistant.topN,
    rerank_model: assistant.rerankId,
  };
}

function presentChat(assistant: ChatAssistant): Json {
  const { freedom: _freedom, ...llm } = assistant.llmSetting ?? {};
  return {
    id: assistant.id,
    tenant_id: assistant.tenantId,
    name: assistant.name,
    description: assistant.description,
    avatar: assistant.icon ?? "",
    language: assistant.language,
    llm: { ...llm, model_name: assistant.llmId },
    prompt: presentPrompt(assistant),
    prompt_type: "simple",
    meta_data_filter: assistant.metaDataFilter ?? {},
    do_refer: assistant.doRefer,
    status: assistant.status,
    create_time: epochMillis(assistant.createdAt),
    create_date: rfc1123(assistant.createdAt),
    update_time: epochMillis(assistant.updatedAt),
    update_date: rfc1123(assistant.updatedAt),
  };
}

/** A knowledge base as RAGFlow's list of chats shows it: the raw stored row, internal column names. */
function presentStoredDataset(kb: KnowledgeBase): Json {
  return {
    id: kb.id,
    avatar: kb.avatar,
    tenant_id: kb.tenantId,
    name: kb.name,
    language: kb.language,
    description: kb.description,
    embd_id: kb.embeddingModel,
    permission: kb.permission,
    created_by: kb.createdBy,
    doc_num: kb.documentCount,
    token_num: kb.tokenCount,
    chunk_num: kb.chunkCount,
    similarity_threshold: kb.similarityThreshold,
    vector_similarity_weight: kb.vectorSimilarityWeight,
    parser_id: kb.chunkMethod,
    pipeline_id: null,
    parser_config: kb.parserConfig,
    pagerank: kb.pagerank,
    status: "1",
    create_time: epochMillis(kb.createdAt),
    create_date: rfc1123(kb.createdAt),
    update_time: epochMillis(kb.updatedAt),
    update_date: rfc1123(kb.updatedAt),
  };
}

/** §6.3 rows 1–3: the truthy entries of `dataset_ids`, each usable with parsed files, one embedding model. */
async function checkDatasets(services: Services, principal: SignedIn, value: unknown): Promise<string[]> {
  const ids = pythonIterate(value).filter(truthy).map(pythonStr);
  const { problem } = await services.assistants.checkKnowledgeBases(principal, ids);
  if (problem?.kind === "unusable") throw refuse(`You don't own the dataset ${problem.id}`);
  if (problem?.kind === "notParsed") throw refuse(`The dataset ${problem.id} doesn't own parsed file`);
  if (problem?.kind === "embeddingMismatch") throw refuse('Datasets use different embedding models."', RETURN_CODES.AUTHENTICATION_ERROR);
  return ids;
}

/** §6.3 row 4: `llm.model_name` must be a chat (or image2text) model of the tenant; the name is stored as given. */
async function checkChatModel(services: Services, principal: SignedIn, llm: Json): Promise<string | null | undefined> {
  if (!("model_name" in llm)) return undefined;
  const requested = llm.model_name;
  if (requested === null || requested === undefined) return null;
  const type = llm.model_type === "image2text" ? "img2txt" : "chat";
  const found = await services.assistants.modelId(principal.tenantId, [type], pythonStr(requested));
  if (!found) throw refuse(`\`model_name\` ${pythonStr(requested)} doesn't exist`);
  return pythonStr(requested);
}

/** §6.3 row 6: RAGFlow's two allow-listed rerank models, or one of the tenant's. */
async function checkRerankModel(services: Services, principal: SignedIn, rerank: unknown): Promise<void> {
  if (!truthy(rerank)) return;
  const name = pythonStr(rerank);
  if (RAGFLOW_RERANK_ALLOW_LIST.includes(name)) return;
  if (!(await services.assistants.modelId(principal.tenantId, ["rerank"], name))) throw refuse(`\`rerank_model\` ${name} doesn't exist`);
}

/** §6.3 row 10: `{key}` of every non-optional variable must be in the system prompt. */
function checkVariables(config: PromptConfig): void {
  const parameters = pythonIterate(config.parameters ?? []);
  const variables: PromptVariable[] = parameters.map((p) => {
    if (!isObject(p)) throw new PythonException("TypeError", `${pythonTypeName(p) === "str" ? "string" : "list"} indices must be integers or slices, not str`);
    if (!("optional" in p)) throw new PythonException("KeyError", "optional");
    return { key: pythonStr(p.key), optional: truthy(p.optional) };
  });
  const unused = unusedVariable(typeof config.system === "string" ? config.system : pythonStr(config.system), variables);
  if (unused !== null) throw refuse(`Parameter '${unused}' is not used`);
}

/** Python's `dict.pop`-style split of a llm object: model_name and model_type are not settings. */
function llmSettingOf(llm: Json): StoredLlmSetting {
  const { model_name: _name, model_type: _type, ...setting } = llm;
  return setting as StoredLlmSetting;
}

async function create({ services, principal, body }: AuthenticatedRestContext): Promise<unknown> {
  const datasetIds = await checkDatasets(services, principal, "dataset_ids" in body ? body.dataset_ids : []);

  const record: Partial<AssistantRecord> = {};
  for (const [key, column] of Object.entries(RAW_COLUMNS)) if (key in body) (record as Json)[column] = columnValue(column, body[key]);

  const llm = body.llm;
  if (truthy(llm)) {
    if (!isObject(llm)) throw new PythonException("AttributeError", `'${pythonTypeName(llm)}' object has no attribute 'pop'`);
    const model = await checkChatModel(services, principal, llm);
    if (model !== undefined) record.llmId = model ?? "";
    record.llmSetting = llmSettingOf(llm);
  }

  if (truthy(body.prompt)) {
    if (!isObject(body.prompt)) throw new PythonException("AttributeError", `'${pythonTypeName(body.prompt)}' object has no attribute 'get'`);
    const { config, columns } = renamePrompt(body.prompt);
    Object.assign(record, columns);
    record.promptConfig = config;
  }
  if (!record.llmId) record.llmId = (await services.models.defaults(principal.tenantId)).chat;
  await checkRerankModel(services, principal, record.rerankId);

  const name = body.name;
  if (!truthy(name)) throw refuse("`name` is required.");
  if (typeof name !== "string") throw new PythonException("AttributeError", `'${pythonTypeName(name)}' object has no attribute 'lower'`);
  if (await services.assistants.nameTaken(principal.tenantId, name)) throw refuse("Duplicated chat name in creating chat.");
  if (truthy(body.tenant_id)) throw refuse("`tenant_id` must not be provided.");

  if (record.promptConfig !== undefined && !isObject(record.promptConfig)) {
    throw new PythonException("AttributeError", `'${pythonTypeName(record.promptConfig)}' object has no attribute 'get'`);
  }
  const config: PromptConfig = { ...(record.promptConfig ?? {}) };
  const defaults: PromptConfig = {
    system: RAGFLOW_DEFAULT_SYSTEM_PROMPT,
    prologue: DEFAULT_OPENER,
    parameters: [{ key: "knowledge", optional: false }],
    empty_response: DEFAULT_EMPTY_RESPONSE,
    quote: DEFAULT_SWITCHES.quote,
    tts: DEFAULT_SWITCHES.tts,
    refine_multiturn: DEFAULT_SWITCHES.refine_multiturn,
  };
  // A key given is kept even when empty, except an empty system prompt (§6.2).
  for (const [key, value] of Object.entries(defaults)) if (!(key in config) || (key === "system" && !truthy(config.system))) config[key] = value;
  checkVariables(config);

  try {
    const assistant = await services.assistants.insert(principal, {
      ...newAssistantColumns(),
      name,
      icon: body.avatar === undefined || body.avatar === null ? null : pythonStr(body.avatar),
      llmSetting: { ...DEFAULT_LLM_SETTING },
      ...record,
      llmId: record.llmId,
      kbIds: datasetIds,
      promptConfig: config,
    } as AssistantRecord);
    return success({ ...presentChat(assistant), dataset_ids: "dataset_ids" in body ? body.dataset_ids : [] });
  } catch (error) {
    if (error instanceof DomainError && error.messageKey === "errors.chat.nameTaken") return failure(RETURN_CODES.DATA_ERROR, "Duplicated chat name in creating chat.");
    throw error;
  }
}

async function ownedChat(services: Services, principal: SignedIn, id: string): Promise<ChatAssistant | null> {
  try {
    return await services.assistants.get(principal, id);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "NOT_FOUND") return null;
    throw error;
  }
}

async function update({ services, principal, body, params }: AuthenticatedRestContext): Promise<unknown> {
  const current = await ownedChat(services, principal, params.chatId);
  if (!current) throw refuse("You do not own the chat");
  const req: Json = { ...body };
  if ("show_quotation" in req) {
    req.do_refer = req.show_quotation;
    delete req.show_quotation;
  }
  // RAGFlow's quirk: an update without dataset_ids (or with an empty list) leaves the chat without datasets.
  req.kb_ids = truthy(req.dataset_ids) ? await checkDatasets(services, principal, req.dataset_ids) : [];
  delete req.dataset_ids;

  if (truthy(req.llm)) {
    if (!isObject(req.llm)) throw new PythonException("AttributeError", `'${pythonTypeName(req.llm)}' object has no attribute 'pop'`);
    const model = await checkChatModel(services, principal, req.llm);
    if (model !== undefined) req.llm_id = model;
    req.llm_setting = llmSettingOf(req.llm);
    delete req.llm;
  }
  if (truthy(req.prompt)) {
    if (!isObject(req.prompt)) throw new PythonException("AttributeError", `'${pythonTypeName(req.prompt)}' object has no attribute 'items'`);
    const { config, columns } = renamePrompt(req.prompt);
    for (const [key, column] of Object.entries(RAW_COLUMNS)) if (column in columns) req[key] = (columns as Json)[column];
    req.prompt_config = config;
    delete req.prompt;
  }
  await checkRerankModel(services, principal, req.rerank_id);

  if ("name" in req) {
    if (!truthy(req.name)) throw refuse("`name` cannot be empty.");
    if (typeof req.name !== "string") throw new PythonException("AttributeError", `'${pythonTypeName(req.name)}' object has no attribute 'lower'`);
    if (req.name.toLowerCase() !== current.name.toLowerCase() && (await services.assistants.nameTaken(principal.tenantId, req.name, current.id))) {
      throw refuse("Duplicated chat name in updating chat.");
    }
  }
  const changes: Partial<AssistantRecord> = {};
  if ("prompt_config" in req) {
    if (!isObject(req.prompt_config)) throw new PythonException("AttributeError", `'${pythonTypeName(req.prompt_config)}' object has no attribute 'items'`);
    const merged: PromptConfig = { ...(current.promptConfig ?? {}), ...req.prompt_config };
    checkVariables(merged);
    changes.promptConfig = merged;
    delete req.prompt_config;
  }
  if ("llm_setting" in req) {
    if (!isObject(req.llm_setting)) throw new PythonException("AttributeError", `'${pythonTypeName(req.llm_setting)}' object has no attribute 'items'`);
    changes.llmSetting = { ...(current.llmSetting ?? {}), ...req.llm_setting };
    delete req.llm_setting;
  }
  if ("avatar" in req) {
    req.icon = req.avatar;
    delete req.avatar;
  }
  const unknown = Object.keys(req).find((key) => !DIALOG_COLUMNS.has(key));
  if (unknown !== undefined) throw new PythonException("ValueError", `Unrecognized field name: "${unknown}".`);

  if ("name" in req) changes.name = req.name as string;
  if ("icon" in req) changes.icon = req.icon === null ? null : pythonStr(req.icon);
  changes.kbIds = req.kb_ids as string[];
  for (const [key, column] of Object.entries(RAW_COLUMNS)) {
    if (key in req && !(column in changes)) (changes as Json)[column] = columnValue(column, req[key]);
  }
  try {
    await services.assistants.patch(principal, current.id, changes);
  } catch (error) {
    if (error instanceof DomainError && error.messageKey === "errors.chat.nameTaken") return failure(RETURN_CODES.DATA_ERROR, "Duplicated chat name in updating chat.");
    if (error instanceof DomainError && error.kind === "NOT_FOUND") return failure(RETURN_CODES.DATA_ERROR, "Chat not found!");
    throw error;
  }
  return success();
}

async function remove({ services, principal, body }: AuthenticatedRestContext): Promise<unknown> {
  const requested = truthy(body) ? body.ids : null;
  const owned = new Set((await services.assistants.list(principal, { pageSize: Number.MAX_SAFE_INTEGER })).items.map((a) => a.id));
  const ids = truthy(requested) ? pythonIterate(requested).map(pythonStr) : [...owned];
  const { unique, duplicateErrors } = uniqueIds(ids, "assistant");
  const errors = unique.filter((id) => !owned.has(id)).map((id) => `Assistant(${id}) not found.`);
  const live = unique.filter((id) => owned.has(id));
  const deleted = await services.assistants.softDelete(principal, live);
  if (errors.length > 0) return deleted > 0 ? success({ success_count: deleted, errors }) : failure(RETURN_CODES.DATA_ERROR, errors.join("; "));
  if (duplicateErrors.length > 0) return deleted > 0 ? success({ success_count: deleted, errors: duplicateErrors }) : failure(RETURN_CODES.DATA_ERROR, duplicateErrors.join(";"));
  return success();
}

const ORDER_COLUMNS: Record<string, AssistantQuery["orderBy"]> = { create_time: "createdAt", create_date: "createdAt", update_time: "updatedAt", update_date: "updatedAt", name: "name" };

async function list({ services, principal, query }: AuthenticatedRestContext): Promise<unknown> {
  const id = query.id || undefined;
  const name = query.name || undefined;
  if (id || name) {
    const { total } = await services.assistants.list(principal, { id, name, pageSize: 0 });
    if (total === 0) throw refuse("The chat doesn't exist");
  }
  const page = Math.max(1, pythonInt(query.page, 1));
  const pageSize = Math.max(0, pythonInt(query.page_size, 30));
  const desc = !(query.desc === "False" || query.desc === "false");
  const { items } = await services.assistants.list(principal, { id, name, page, pageSize, orderBy: ORDER_COLUMNS[query.orderby ?? "create_time"] ?? "createdAt", desc });
  const data = await Promise.all(
    items.map(async (assistant) => ({
      ...presentChat(assistant),
      similarity_threshold: assistant.similarityThreshold,
      vector_similarity_weight: assistant.vectorSimilarityWeight,
      top_n: assistant.topN,
      top_k: assistant.topK,
      rerank_id: assistant.rerankId,
      datasets: (await services.assistants.knowledgeBases(assistant)).map(presentStoredDataset),
    })),
  );
  return success(data);
}

const route = (method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>): RestRoute =>
  authenticatedRoute(method, path, "apiKey", (context) => answering(() => handle(context)));

export const chatRestRoutes: RestRoute[] = [
  route("POST", "/api/v1/chats", create),
  route("GET", "/api/v1/chats", list),
  route("DELETE", "/api/v1/chats", remove),
  route("PUT", "/api/v1/chats/:chatId", update),
];
