import { In, QueryFailedError, type Repository } from "typeorm";
import type { Principal, SignedIn } from "../policies/principal";
import { Document } from "../knowledge/document.entity";
import { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { KNOWLEDGE_BASE_LANGUAGES, type KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import type { ModelType } from "../models/model-types";
import { parseModelId, type ModelsService } from "../models/models.service";
import { documentsMatching, parseManualMetadataFilter, type MetadataCondition } from "../knowledge/metadata-condition";
import { Conflict, DomainError, FieldChecks, NotFound, Unauthenticated } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import type { Platform } from "../platform";
import { TOP_K } from "../knowledge/retrieval-params";
import { crossLanguagesOf } from "../retrieval/cross-languages";
import { ChatAssistant, type PromptConfig, type StoredLlmSetting } from "./assistant.entity";
import { chatStatistics, type ChatStatisticsResult, type StatisticsRange } from "./statistics";
import {
  assistantLanguageOf,
  defaultTexts,
  newAssistantColumns,
  DEFAULT_LLM_SETTING,
  DEFAULT_SWITCHES,
  FREEDOM_NAMES,
  freedomOf,
  freedomPreset,
  KNOWLEDGE_VARIABLE,
  type PromptVariable,
} from "./prompt-defaults";

export const ASSISTANT_NAME_MAX_LENGTH = 255;
const LONG_TEXT_MAX_LENGTH = 65535;
/** A photo as a data URL; about 2 MB of image. */
const AVATAR_MAX_LENGTH = 2_800_000;
export const TOP_N_RANGE = [1, 30] as const;
export const TOP_K_RANGE = [TOP_K.min!, TOP_K.max!] as const;
/** Rerank models RAGFlow's chat API accepts without any tenant configuration (API contract §6.3, §14). */
export const RAGFLOW_RERANK_ALLOW_LIST = ["BAAI/bge-reranker-v2-m3", "maidalun1020/bce-reranker-base_v1"];

/** The settings form's fields (GraphQL `AssistantInput`); on update only the fields given change. */
export interface AssistantInput {
  name?: string | null;
  avatar?: string | null;
  description?: string | null;
  language?: string | null;
  emptyResponse?: string | null;
  opener?: string | null;
  knowledgeBaseIds?: string[] | null;
  systemPrompt?: string | null;
  promptVariables?: PromptVariable[] | null;
  topN?: number | null;
  topK?: number | null;
  similarityThreshold?: number | null;
  vectorSimilarityWeight?: number | null;
  rerankModel?: string | null;
  chatModel?: string | null;
  freedom?: string | null;
  temperature?: number | null;
  topP?: number | null;
  presencePenalty?: number | null;
  frequencyPenalty?: number | null;
  maxTokens?: number | null;
  showQuote?: boolean | null;
  selfRag?: boolean | null;
  multiTurnRefine?: boolean | null;
  keywordExtraction?: boolean | null;
  tts?: boolean | null;
  crossLanguages?: string[] | null;
}

/** The stored columns a surface may write, under RAGFlow's internal names (the REST facade writes these directly). */
export type AssistantRecord = Pick<
  ChatAssistant,
  | "name"
  | "description"
  | "icon"
  | "language"
  | "kbIds"
  | "llmId"
  | "llmSetting"
  | "promptConfig"
  | "similarityThreshold"
  | "vectorSimilarityWeight"
  | "topN"
  | "topK"
  | "rerankId"
  | "doRefer"
  | "metaDataFilter"
>;

export interface AssistantQuery {
  /** Case-insensitive part of the name. */
  search?: string;
  /** Exact name (the REST list's filter). */
  name?: string;
  id?: string;
  page?: number;
  pageSize?: number;
  orderBy?: "createdAt" | "updatedAt" | "name";
  desc?: boolean;
}

/** Why a knowledge base cannot serve an assistant, in the order RAGFlow checks (API contract §6.3 1–3). */
export type KnowledgeBaseProblem =
  | { kind: "unusable"; id: string }
  | { kind: "notParsed"; id: string; name: string }
  | { kind: "embeddingMismatch" };

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** `{key}` of every non-optional variable must occur in the system prompt; the first that does not, or null. */
export function unusedVariable(systemPrompt: string, variables: readonly PromptVariable[]): string | null {
  const missing = variables.find((v) => !v.optional && !systemPrompt.includes(`{${v.key}}`));
  return missing?.key ?? null;
}

/** The variables as the form gives them, with the reserved `knowledge` always among them. */
function withKnowledgeVariable(variables: readonly PromptVariable[]): PromptVariable[] {
  const list = variables.map((v) => ({ key: v.key.trim(), optional: Boolean(v.optional) }));
  return list.some((v) => v.key === KNOWLEDGE_VARIABLE) ? list : [{ key: KNOWLEDGE_VARIABLE, optional: false }, ...list];
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error as QueryFailedError & { code?: string }).code === "23505";
}

/**
 * Chat assistants of a tenant: who may see and use them, their settings with RAGFlow's defaults, and
 * their validation. Deleting is soft (status '0'): conversations and statistics keep their assistant.
 */
export class AssistantService {
  private readonly repository: Repository<ChatAssistant>;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBaseService: KnowledgeBaseService,
    private readonly models: ModelsService,
  ) {
    this.repository = platform.db.getRepository(ChatAssistant);
  }

  async list(principal: SignedIn, query: AssistantQuery = {}): Promise<{ total: number; items: ChatAssistant[] }> {
    const builder = this.repository.createQueryBuilder("a").where("a.tenantId = :tenantId AND a.status = '1'", { tenantId: principal.tenantId });
    if (query.search?.trim()) builder.andWhere("a.name ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    if (query.name) builder.andWhere("a.name = :name", { name: query.name });
    if (query.id) builder.andWhere("a.id = :id", { id: query.id });
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    builder
      .orderBy(`a.${query.orderBy ?? "createdAt"}`, query.desc === false ? "ASC" : "DESC")
      .addOrderBy("a.id", query.desc === false ? "ASC" : "DESC")
      .skip((page - 1) * pageSize)
      .take(pageSize);
    const [items, total] = pageSize === 0 ? [[], await builder.getCount()] : await builder.getManyAndCount();
    return { total, items };
  }

  /** A live assistant of the principal's tenant. */
  async get(principal: SignedIn, id: string): Promise<ChatAssistant> {
    const assistant = await this.repository.findOneBy({ id, tenantId: principal.tenantId, status: "1" });
    if (!assistant) throw NotFound("errors.chat.notFound");
    return assistant;
  }

  /**
   * The live assistant an actor may chat with: a signed-in member of its tenant, or the bearer of a
   * share token of exactly this assistant.
   */
  async usable(actor: Principal, id: string): Promise<ChatAssistant> {
    if (actor.kind === "anonymous") throw Unauthenticated();
    if (actor.kind === "share") {
      const assistant = actor.assistantId === id ? await this.repository.findOneBy({ id, tenantId: actor.tenantId, status: "1" }) : null;
      if (!assistant) throw NotFound("errors.chat.notFound");
      return assistant;
    }
    return this.get(actor, id);
  }

  /** The assistant's knowledge bases that still exist, in its order. */
  async knowledgeBases(assistant: ChatAssistant): Promise<KnowledgeBase[]> {
    const ids = (Array.isArray(assistant.kbIds) ? assistant.kbIds : []).filter((id): id is string => typeof id === "string");
    if (ids.length === 0) return [];
    const rows = await this.platform.db.getRepository(KnowledgeBase).findBy({ id: In(ids) });
    const byId = new Map(rows.map((kb) => [kb.id, kb]));
    return ids.map((id) => byId.get(id)).filter((kb): kb is KnowledgeBase => kb !== undefined);
  }

  /**
   * The documents an answer of this assistant may draw on: those its stored metadata filter (method
   * "manual") lets through, narrowed to the request's own selection when there is one; undefined: all.
   * As in RAGFlow, a filter that no document meets leaves nothing to retrieve.
   */
  async documentScope(assistant: ChatAssistant, kbs: KnowledgeBase[], requested?: string[]): Promise<string[] | undefined> {
    const condition = parseManualMetadataFilter(assistant.metaDataFilter);
    if (!condition) return requested;
    const allowed = await this.documentsMeeting(kbs, condition);
    return requested ? requested.filter((id) => allowed.includes(id)) : allowed;
  }

  /** The documents of these knowledge bases whose metadata meets the condition. */
  async documentsMeeting(kbs: KnowledgeBase[], condition: MetadataCondition): Promise<string[]> {
    if (kbs.length === 0) return [];
    const documents = await this.platform.db.getRepository(Document).find({ where: { knowledgeBaseId: In(kbs.map((kb) => kb.id)) }, select: { id: true, metaFields: true } });
    return documentsMatching(documents, condition);
  }

  /** The chat overview of one assistant of the tenant, or of all of them (spec §3, chat statistics). */
  async statistics(principal: SignedIn, range: Omit<StatisticsRange, "tenantId">): Promise<ChatStatisticsResult> {
    if (range.assistantId) await this.get(principal, range.assistantId);
    return chatStatistics(this.platform.db, { tenantId: principal.tenantId, ...range });
  }

  /**
   * The knowledge bases an assistant of this principal may use, or the first problem in RAGFlow's
   * order: each in turn accessible and holding parsed chunks, then one embedding model for all.
   */
  async checkKnowledgeBases(principal: SignedIn, ids: string[]): Promise<{ kbs: KnowledgeBase[]; problem: KnowledgeBaseProblem | null }> {
    const kbs: KnowledgeBase[] = [];
    for (const id of ids) {
      let kb: KnowledgeBase;
      try {
        kb = await this.knowledgeBaseService.accessible(principal, id);
      } catch (error) {
        if (error instanceof DomainError && error.kind === "NOT_FOUND") return { kbs, problem: { kind: "unusable", id } };
        throw error;
      }
      // Only documents that parsed successfully are ever retrieved (spec §4): without chunks there is nothing to answer from.
      if (kb.chunkCount <= 0) return { kbs, problem: { kind: "notParsed", id: kb.id, name: kb.name } };
      kbs.push(kb);
    }
    // RAGFlow compares the model names only: the same model served by two providers embeds alike.
    const models = new Set(kbs.map((kb) => parseModelId(kb.embeddingModel)?.modelName ?? kb.embeddingModel));
    if (models.size > 1) return { kbs, problem: { kind: "embeddingMismatch" } };
    return { kbs, problem: null };
  }

  /**
   * A model of the tenant by its id (`name@Provider`), or by its bare name as RAGFlow's clients send it
   * (`glm-4`): the id of the first such model of one of `types`, or null.
   */
  async modelId(tenantId: string, types: ModelType[], requested: string): Promise<string | null> {
    const available = (await Promise.all(types.map((type) => this.models.availableModels(tenantId, type)))).flat();
    return (available.find((m) => m.id === requested) ?? available.find((m) => m.modelName === requested))?.id ?? null;
  }

  /**
   * The models an answer of this assistant uses, as `name@Provider`: the stored chat model resolved
   * ("" = the tenant's default; a bare name as RAGFlow's clients store it), and the rerank model or null.
   * RAGFlow's two allow-listed rerank names, which need no configuration there, are served by the built-in reranker.
   */
  async modelsOf(assistant: ChatAssistant): Promise<{ chat: string; rerank: string | null }> {
    const chat = assistant.llmId ? ((await this.modelId(assistant.tenantId, ["chat", "img2txt"], assistant.llmId)) ?? assistant.llmId) : (await this.models.defaults(assistant.tenantId)).chat;
    let rerank: string | null = null;
    if (assistant.rerankId) {
      rerank = await this.modelId(assistant.tenantId, ["rerank"], assistant.rerankId);
      if (!rerank && RAGFLOW_RERANK_ALLOW_LIST.includes(assistant.rerankId)) rerank = (await this.models.availableModels(assistant.tenantId, "rerank")).find((m) => m.builtin)?.id ?? null;
    }
    return { chat, rerank };
  }

  /** Whether another live assistant of the tenant has this name, whatever its case. */
  async nameTaken(tenantId: string, name: string, exceptId?: string): Promise<boolean> {
    const builder = this.repository
      .createQueryBuilder("a")
      .where("a.tenantId = :tenantId AND a.status = '1' AND lower(a.name) = lower(:name)", { tenantId, name });
    if (exceptId) builder.andWhere("a.id <> :exceptId", { exceptId });
    return builder.getExists();
  }

  /** Stores a new assistant whose fields the caller has checked; a name taken meanwhile is a Conflict. */
  async insert(principal: SignedIn, record: AssistantRecord): Promise<ChatAssistant> {
    const id = newId();
    try {
      await this.repository.insert({ ...record, id, tenantId: principal.tenantId, createdBy: principal.user.id, status: "1" } as never);
    } catch (error) {
      if (isUniqueViolation(error)) throw Conflict("errors.chat.nameTaken", { name: record.name });
      throw error;
    }
    return this.repository.findOneByOrFail({ id });
  }

  /** Writes checked changes to a live assistant of the principal's tenant. */
  async patch(principal: SignedIn, id: string, changes: Partial<AssistantRecord>): Promise<ChatAssistant> {
    await this.get(principal, id);
    if (Object.keys(changes).length > 0) {
      try {
        await this.repository.update({ id, tenantId: principal.tenantId, status: "1" }, { ...changes, updatedAt: new Date() } as never);
      } catch (error) {
        if (isUniqueViolation(error)) throw Conflict("errors.chat.nameTaken", { name: changes.name });
        throw error;
      }
    }
    return this.get(principal, id);
  }

  async create(principal: SignedIn, input: AssistantInput): Promise<ChatAssistant> {
    const record = await this.validated(principal, input);
    return this.insert(principal, record as AssistantRecord);
  }

  async update(principal: SignedIn, id: string, input: AssistantInput): Promise<ChatAssistant> {
    const current = await this.get(principal, id);
    const changes = await this.validated(principal, input, current);
    return this.patch(principal, id, changes);
  }

  /** Soft-deletes live assistants of the principal's tenant; every id must be one. */
  async delete(principal: SignedIn, ids: string[]): Promise<number> {
    const unique = [...new Set(ids)];
    const found = await this.repository.findBy({ id: In(unique), tenantId: principal.tenantId, status: "1" });
    if (found.length !== unique.length) throw NotFound("errors.chat.notFound");
    return this.softDelete(principal, unique);
  }

  /** Marks assistants deleted; ids that are not live assistants of the tenant are left alone. Returns how many were. */
  async softDelete(principal: SignedIn, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { affected } = await this.repository.update({ id: In(ids), tenantId: principal.tenantId, status: "1" }, { status: "0", updatedAt: new Date() });
    return affected ?? 0;
  }

  /**
   * Checks the settings form's input (every problem at once) and turns it into stored columns: the whole
   * record on create (with the defaults of prompt-defaults.ts), only what changes on update.
   */
  private async validated(principal: SignedIn, input: AssistantInput, current?: ChatAssistant): Promise<Partial<AssistantRecord>> {
    const checks = new FieldChecks();
    const creating = !current;
    const record: Partial<AssistantRecord> = {};

    if (creating || input.name !== undefined) {
      const name = (input.name ?? "").trim();
      checks.check(name.length > 0, "name", "errors.chat.nameRequired");
      checks.check(name.length <= ASSISTANT_NAME_MAX_LENGTH, "name", "errors.chat.nameTooLong", { max: ASSISTANT_NAME_MAX_LENGTH });
      record.name = name;
    }
    if (input.avatar !== undefined) {
      const avatar = input.avatar || null;
      if (avatar) checks.check(avatar.length <= AVATAR_MAX_LENGTH && /^data:image\/(png|jpeg);base64,/.test(avatar), "avatar", "errors.chat.avatarInvalid");
      record.icon = avatar;
    }
    if (input.description !== undefined) {
      checks.check((input.description ?? "").length <= LONG_TEXT_MAX_LENGTH, "description", "errors.chat.descriptionTooLong");
      record.description = input.description ?? null;
    }
    if (given(input.language)) {
      checks.check(KNOWLEDGE_BASE_LANGUAGES.includes(input.language), "language", "errors.chat.languageInvalid");
      record.language = input.language;
    }

    // Prompt engine: RAGFlow's prompt_config keys, merged into what is stored.
    const prompt: PromptConfig = { ...(current?.promptConfig ?? {}) };
    let promptChanged = creating;
    if (creating) {
      // A new assistant speaks its creator's language unless told otherwise, and its texts are in its language.
      record.language ??= assistantLanguageOf(principal.user.language);
      const texts = defaultTexts(record.language);
      Object.assign(prompt, { system: texts.systemPrompt, prologue: texts.opener, empty_response: texts.emptyResponse, parameters: [{ key: KNOWLEDGE_VARIABLE, optional: false }], ...DEFAULT_SWITCHES });
    }
    if (input.systemPrompt !== undefined) {
      checks.check((input.systemPrompt ?? "").trim().length > 0, "systemPrompt", "errors.chat.systemPromptRequired");
      prompt.system = input.systemPrompt ?? "";
      promptChanged = true;
    }
    if (input.opener !== undefined) {
      prompt.prologue = input.opener ?? "";
      promptChanged = true;
    }
    if (input.emptyResponse !== undefined) {
      prompt.empty_response = input.emptyResponse ?? "";
      promptChanged = true;
    }
    if (given(input.promptVariables)) {
      const variables = withKnowledgeVariable(input.promptVariables);
      const seen = new Set<string>();
      for (const variable of variables) {
        checks.check(variable.key !== "", "promptVariables", "errors.chat.variableKeyRequired");
        checks.check(!/[{}\s]/.test(variable.key), "promptVariables", "errors.chat.variableKeyInvalid", { key: variable.key });
        checks.check(!seen.has(variable.key), "promptVariables", "errors.chat.variableDuplicate", { key: variable.key });
        seen.add(variable.key);
      }
      prompt.parameters = variables;
      promptChanged = true;
    }
    for (const [field, key] of [
      ["showQuote", "quote"],
      ["selfRag", "self_rag"],
      ["multiTurnRefine", "refine_multiturn"],
      ["keywordExtraction", "keyword"],
      ["tts", "tts"],
    ] as const) {
      if (!given(input[field])) continue;
      prompt[key] = input[field];
      promptChanged = true;
    }
    if (given(input.crossLanguages)) {
      prompt.cross_languages = crossLanguagesOf(input.crossLanguages);
      promptChanged = true;
    }
    const variables = Array.isArray(prompt.parameters) ? prompt.parameters : [];
    if (creating || input.systemPrompt !== undefined || given(input.promptVariables)) {
      const unused = unusedVariable(prompt.system ?? "", variables);
      if (unused !== null) checks.check(false, "promptVariables", "errors.chat.variableUnused", { key: unused, braced: `{${unused}}` });
    }

    // Knowledge bases: needed while the prompt asks for {knowledge}.
    const knowledgeBaseIds = given(input.knowledgeBaseIds) ? [...new Set(input.knowledgeBaseIds)] : (current?.kbIds ?? []);
    if (given(input.knowledgeBaseIds)) {
      const { problem } = await this.checkKnowledgeBases(principal, knowledgeBaseIds);
      if (problem?.kind === "unusable") checks.check(false, "knowledgeBaseIds", "errors.chat.knowledgeBaseUnusable", { id: problem.id });
      if (problem?.kind === "notParsed") checks.check(false, "knowledgeBaseIds", "errors.chat.knowledgeBaseNotParsed", { name: problem.name });
      if (problem?.kind === "embeddingMismatch") checks.check(false, "knowledgeBaseIds", "errors.chat.embeddingMismatch");
      record.kbIds = knowledgeBaseIds;
    } else if (creating) {
      record.kbIds = [];
    }
    if (creating || given(input.knowledgeBaseIds) || given(input.promptVariables)) {
      const needsKnowledge = variables.some((v) => v.key === KNOWLEDGE_VARIABLE && !v.optional);
      checks.check(!needsKnowledge || knowledgeBaseIds.length > 0, "knowledgeBaseIds", "errors.chat.knowledgeBasesRequired");
    }

    // Retrieval settings.
    for (const [field, range, integer] of [
      ["topN", TOP_N_RANGE, true],
      ["topK", TOP_K_RANGE, true],
      ["similarityThreshold", [0, 1], false],
      ["vectorSimilarityWeight", [0, 1], false],
    ] as const) {
      const value = input[field];
      if (!given(value)) continue;
      const [min, max] = range;
      checks.check(Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value)), field, "errors.chat.between", { min, max });
      record[field] = value;
    }
    if (input.rerankModel !== undefined) {
      const rerank = input.rerankModel?.trim() ?? "";
      if (rerank) {
        const id = await this.modelId(principal.tenantId, ["rerank"], rerank);
        checks.check(id === rerank, "rerankModel", "errors.chat.modelUnavailable", { model: rerank });
      }
      record.rerankId = rerank;
    }

    // Model settings: RAGFlow's llm_setting keys, merged into what is stored.
    if (input.chatModel !== undefined || creating) {
      const requested = input.chatModel?.trim() ?? (creating ? (await this.models.defaults(principal.tenantId)).chat : "");
      checks.check(requested !== "", "chatModel", "errors.chat.modelRequired");
      if (requested) {
        const id = await this.modelId(principal.tenantId, ["chat", "img2txt"], requested);
        checks.check(id === requested, "chatModel", "errors.chat.modelUnavailable", { model: requested });
      }
      record.llmId = requested;
    }
    const llm: StoredLlmSetting = { ...(creating ? DEFAULT_LLM_SETTING : (current?.llmSetting ?? {})) };
    let llmChanged = creating;
    if (given(input.freedom)) {
      checks.check((FREEDOM_NAMES as readonly string[]).includes(input.freedom), "freedom", "errors.chat.freedomInvalid");
      const preset = freedomPreset(input.freedom);
      if (preset) Object.assign(llm, { temperature: preset.temperature, top_p: preset.topP, presence_penalty: preset.presencePenalty, frequency_penalty: preset.frequencyPenalty });
      llmChanged = true;
    }
    for (const [field, key] of [
      ["temperature", "temperature"],
      ["topP", "top_p"],
      ["presencePenalty", "presence_penalty"],
      ["frequencyPenalty", "frequency_penalty"],
    ] as const) {
      const value = input[field];
      if (!given(value)) continue;
      checks.check(Number.isFinite(value) && value >= 0 && value <= 1, field, "errors.chat.between", { min: 0, max: 1 });
      llm[key] = value;
      llmChanged = true;
    }
    if (given(input.maxTokens)) {
      checks.check(Number.isInteger(input.maxTokens) && input.maxTokens >= 1, "maxTokens", "errors.chat.maxTokensInvalid");
      llm.max_tokens = input.maxTokens;
      llmChanged = true;
    }
    if (llmChanged) {
      // The preset chosen is kept when the values are its own; edited values make the settings "custom".
      const chosen = given(input.freedom) ? input.freedom : undefined;
      const matching = freedomOf(llm);
      llm.freedom = chosen && (chosen === "custom" || matching === chosen) ? chosen : matching;
      record.llmSetting = llm;
    }

    checks.throwIfAny();
    if (record.name !== undefined && (creating || record.name.toLowerCase() !== current!.name.toLowerCase())) {
      await this.checkNameFree(principal.tenantId, record.name, current?.id);
    }

    if (promptChanged) record.promptConfig = prompt;
    if (given(input.showQuote)) record.doRefer = input.showQuote ? "1" : "0";

    if (creating) {
      return { ...newAssistantColumns(), ...record };
    }
    return record;
  }

  /** A name another live assistant of the tenant has, whatever its case, is refused. */
  private async checkNameFree(tenantId: string, name: string, exceptId?: string): Promise<void> {
    if (await this.nameTaken(tenantId, name, exceptId)) throw Conflict("errors.chat.nameTaken", { name });
  }
}
