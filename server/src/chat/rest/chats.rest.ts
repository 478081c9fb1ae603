import { failure, RETURN_CODES, success } from "../../rest/envelope";
import { epochMillis, rfc1123 } from "../../rest/presenters";
import { PythonException, pythonStringRepr } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { answering, pythonInt, pythonTypeName, refuse, uniqueIds } from "../../knowledge/rest/scope";
import type { ChatAssistant, PromptConfig, StoredLlmSetting } from "../assistant.entity";
import type { RestErrorTable } from "../../rest/error-table";
import type { AssistantQuery, AssistantRecord, AssistantRuleOptions } from "../assistant.service";
import { DEFAULT_EMPTY_RESPONSE, DEFAULT_LANGUAGE, DEFAULT_OPENER, DEFAULT_SWITCHES, RAGFLOW_DEFAULT_SYSTEM_PROMPT } from "../prompt-defaults";

/**
 * RAGFlow's chat-assistant endpoints (API contract §6): they read the body as RAGFlow does (its Python
 * exceptions included), rename fields between the API and the stored "dialog", and leave every rule
 * (knowledge-base access, parsed files, one embedding model, models, names, variables) to AssistantService
 * with RAGFlow's leniency; its refusals are worded by the routes' tables below.
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

/** §6.3 row 1: the truthy entries of `dataset_ids` (a string is iterated per character, as Python does). */
function datasetIdsOf(value: unknown): string[] {
  return pythonIterate(value).filter(truthy).map(pythonStr);
}

/** §6.3 row 4: `llm.model_name` as stored (null: none); undefined when not given. */
function chatModelOf(llm: Json): string | undefined {
  if (!("model_name" in llm)) return undefined;
  return llm.model_name === null || llm.model_name === undefined ? "" : pythonStr(llm.model_name);
}

/** The rules as RAGFlow's chat API keeps them (AssistantService), for the model type `llm.model_type` names. */
function ragflowRules(llm: unknown): AssistantRuleOptions {
  return { leniency: "ragflow", chatModelTypes: [isObject(llm) && llm.model_type === "image2text" ? "img2txt" : "chat"] };
}

/** §6.3 row 10 before its check: the variables must be objects with an `optional` key, or Python fails reading them. */
function checkVariableShapes(config: PromptConfig): void {
  for (const p of pythonIterate(config.parameters ?? [])) {
    if (!isObject(p)) throw new PythonException("TypeError", `${pythonTypeName(p) === "str" ? "string" : "list"} indices must be integers or slices, not str`);
    if (!("optional" in p)) throw new PythonException("KeyError", "optional");
  }
}

/** A name RAGFlow reads with `.lower()`: empty is left for the rule nameGiven, another type fails in Python. */
function nameOf(value: unknown): string {
  if (!truthy(value)) return "";
  if (typeof value !== "string") throw new PythonException("AttributeError", `'${pythonTypeName(value)}' object has no attribute 'lower'`);
  return value;
}

/** Python's `dict.pop`-style split of a llm object: model_name and model_type are not settings. */
function llmSettingOf(llm: Json): StoredLlmSetting {
  const { model_name: _name, model_type: _type, ...setting } = llm;
  return setting as StoredLlmSetting;
}

/** RAGFlow's words for the assistant rules' refusals (API contract §6.3–6.4), shared by create and update. */
const CHAT_RULE_ERRORS: RestErrorTable = {
  "errors.chat.knowledgeBaseUnusable": ({ id }) => `You don't own the dataset ${id}`,
  "errors.chat.knowledgeBaseNotParsed": ({ id }) => `The dataset ${id} doesn't own parsed file`,
  "errors.chat.embeddingMismatch": { code: RETURN_CODES.AUTHENTICATION_ERROR, text: () => 'Datasets use different embedding models."' },
  "errors.chat.modelUnavailable": ({ model }, field) => (field === "rerankModel" ? `\`rerank_model\` ${model} doesn't exist` : `\`model_name\` ${model} doesn't exist`),
  "errors.chat.variableUnused": ({ key }) => `Parameter '${key}' is not used`,
};
const CREATE_ERRORS: RestErrorTable = {
  ...CHAT_RULE_ERRORS,
  "errors.chat.nameRequired": () => "`name` is required.",
  "errors.chat.nameTaken": () => "Duplicated chat name in creating chat.",
};
const UPDATE_ERRORS: RestErrorTable = {
  ...CHAT_RULE_ERRORS,
  "errors.chat.notFound": () => "You do not own the chat",
  "errors.chat.nameRequired": () => "`name` cannot be empty.",
  "errors.chat.nameTaken": () => "Duplicated chat name in updating chat.",
};

async function create({ services, principal, body }: AuthenticatedRestContext): Promise<unknown> {
  const datasetIds = datasetIdsOf("dataset_ids" in body ? body.dataset_ids : []);

  const record: Partial<AssistantRecord> = {};
  for (const [key, column] of Object.entries(RAW_COLUMNS)) if (key in body) (record as Json)[column] = columnValue(column, body[key]);

  const llm = body.llm;
  if (truthy(llm)) {
    if (!isObject(llm)) throw new PythonException("AttributeError", `'${pythonTypeName(llm)}' object has no attribute 'pop'`);
    const model = chatModelOf(llm);
    if (model !== undefined) record.llmId = model;
    record.llmSetting = llmSettingOf(llm);
  }

  if (truthy(body.prompt)) {
    if (!isObject(body.prompt)) throw new PythonException("AttributeError", `'${pythonTypeName(body.prompt)}' object has no attribute 'get'`);
    const { config, columns } = renamePrompt(body.prompt);
    Object.assign(record, columns);
    record.promptConfig = config;
  }
  // No model, or an empty one: the tenant's default chat model (AssistantService).
  if (!record.llmId) delete record.llmId;

  const name = nameOf(body.name);
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
  checkVariableShapes(config);

  const assistant = await services.assistants.createRecord(
    principal,
    { name, icon: body.avatar === undefined || body.avatar === null ? null : pythonStr(body.avatar), ...record, kbIds: datasetIds, promptConfig: config },
    ragflowRules(llm),
  );
  return success({ ...presentChat(assistant), dataset_ids: "dataset_ids" in body ? body.dataset_ids : [] });
}

async function update({ services, principal, body, params }: AuthenticatedRestContext): Promise<unknown> {
  const current = await services.assistants.get(principal, params.chatId);
  const req: Json = { ...body };
  if ("show_quotation" in req) {
    req.do_refer = req.show_quotation;
    delete req.show_quotation;
  }
  // RAGFlow's quirk: an update without dataset_ids (or with an empty list) leaves the chat without datasets.
  req.kb_ids = truthy(req.dataset_ids) ? datasetIdsOf(req.dataset_ids) : [];
  delete req.dataset_ids;

  const llm = req.llm;
  if (truthy(llm)) {
    if (!isObject(llm)) throw new PythonException("AttributeError", `'${pythonTypeName(llm)}' object has no attribute 'pop'`);
    const model = chatModelOf(llm);
    if (model !== undefined) req.llm_id = model;
    req.llm_setting = llmSettingOf(llm);
    delete req.llm;
  }
  if (truthy(req.prompt)) {
    if (!isObject(req.prompt)) throw new PythonException("AttributeError", `'${pythonTypeName(req.prompt)}' object has no attribute 'items'`);
    const { config, columns } = renamePrompt(req.prompt);
    for (const [key, column] of Object.entries(RAW_COLUMNS)) if (column in columns) req[key] = (columns as Json)[column];
    req.prompt_config = config;
    delete req.prompt;
  }

  if ("name" in req) req.name = nameOf(req.name);
  const changes: Partial<AssistantRecord> = {};
  if ("prompt_config" in req) {
    if (!isObject(req.prompt_config)) throw new PythonException("AttributeError", `'${pythonTypeName(req.prompt_config)}' object has no attribute 'items'`);
    const merged: PromptConfig = { ...(current.promptConfig ?? {}), ...req.prompt_config };
    checkVariableShapes(merged);
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
  await services.assistants.updateRecord(principal, current.id, changes, ragflowRules(llm));
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

const route = (method: RestRoute["method"], path: string, handle: (context: AuthenticatedRestContext) => Promise<unknown>, errors?: RestErrorTable): RestRoute =>
  authenticatedRoute(method, path, "apiKey", (context) => answering(() => handle(context)), errors);

export const chatRestRoutes: RestRoute[] = [
  route("POST", "/api/v1/chats", create, CREATE_ERRORS),
  route("GET", "/api/v1/chats", list),
  route("DELETE", "/api/v1/chats", remove),
  route("PUT", "/api/v1/chats/:chatId", update, UPDATE_ERRORS),
];
