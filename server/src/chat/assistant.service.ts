import { In, IsNull, QueryFailedError, type Repository } from "typeorm";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import { authorize, can, scope, scopeSql, type Action, type AssistantResource } from "../policies";
import { userWithMemberships } from "../auth/memberships";
import { isSignedIn, type Principal, type SignedIn } from "../policies/principal";
import { Document } from "../knowledge/document.entity";
import { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { knowledgeBaseResource, type KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import type { ModelType } from "../models/model-types";
import { parseModelId, type AvailableModel, type ModelsService } from "../models/models.service";
import { findProvider } from "../models/providers/registry";
import { documentsMatching, parseManualMetadataFilter, type MetadataCondition } from "../knowledge/metadata-condition";
import { Conflict, DomainError, Invalid, NotFound, Unauthenticated } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import type { Platform } from "../platform";
import { ChatAssistant } from "./assistant.entity";
import { assistantFormChanges, type AssistantInput } from "./assistant-form";
import { assistantProblems, AssistantDraft, RAGFLOW_RERANK_ALLOW_LIST, type AssistantRecord, type AssistantRuleOptions, type KnowledgeBaseProblem } from "./assistant-rules";
import { chatStatistics, type ChatStatisticsResult, type StatisticsRange } from "./statistics";
import { DEFAULT_LLM_SETTING, newAssistantColumns } from "./prompt-defaults";

export type { AssistantInput } from "./assistant-form";
export type { AssistantRecord, AssistantRuleOptions, KnowledgeBaseProblem } from "./assistant-rules";

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

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error as QueryFailedError & { code?: string }).code === "23505";
}

/** An assistant as the policy sees it. */
export const assistantResource = (a: ChatAssistant): AssistantResource => ({ kind: "assistant", id: a.id, tenantId: a.tenantId, createdBy: a.createdBy });

/**
 * Chat assistants of a tenant: who may see and use them, their settings with RAGFlow's defaults, and
 * their validation: every write, from the settings form or RAGFlow's API, passes the rules of
 * assistant-rules.ts (RAGFlow's API with its named leniency). Deleting is soft (status '0'):
 * conversations and statistics keep their assistant.
 */
export class AssistantService {
  private readonly repository: Repository<ChatAssistant>;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBaseService: KnowledgeBaseService,
    private readonly models: ModelsService,
    private readonly bin: BinService,
  ) {
    this.repository = platform.db.getRepository(ChatAssistant);
  }

  async list(principal: SignedIn, query: AssistantQuery = {}): Promise<{ total: number; items: ChatAssistant[] }> {
    const visible = scopeSql(scope(principal, "read", "assistant"), "a");
    const builder = this.repository.createQueryBuilder("a").where(`${visible.sql} AND a.status = '1' AND a.binnedIn IS NULL`, visible.params);
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

  /** A live assistant the principal may act on so (the assistant policy decides; read, by default). */
  async get(principal: Principal, id: string, action: Action = "read"): Promise<ChatAssistant> {
    return this.checked(principal, await this.repository.findOneBy({ id }), action);
  }

  /** `assistant`, loaded by the caller, when it is live (enabled, not in the recycle bin) and the principal may act on it so. */
  private checked(principal: Principal, assistant: ChatAssistant | null, action: Action): ChatAssistant {
    if (!assistant || assistant.status !== "1" || assistant.binnedIn) throw NotFound("errors.chat.notFound");
    authorize(principal, action, assistantResource(assistant));
    return assistant;
  }

  /**
   * The live assistant an actor may chat with: a signed-in member of its tenant, or the bearer of a
   * share token of exactly this assistant. Given the assistant itself (or null), the caller loaded it.
   */
  async usable(actor: Principal, assistant: string | ChatAssistant | null): Promise<ChatAssistant> {
    if (actor.kind === "anonymous") throw Unauthenticated();
    return typeof assistant === "string" ? this.get(actor, assistant, "use") : this.checked(actor, assistant, "use");
  }

  /** The assistant's knowledge bases that still exist, in its order. */
  async knowledgeBases(assistant: ChatAssistant): Promise<KnowledgeBase[]> {
    const ids = knowledgeBaseIdsOf(assistant);
    if (ids.length === 0) return [];
    const rows = await this.platform.db.getRepository(KnowledgeBase).findBy({ id: In(ids), binnedIn: IsNull() });
    const byId = new Map(rows.map((kb) => [kb.id, kb]));
    return ids.map((id) => byId.get(id)).filter((kb): kb is KnowledgeBase => kb !== undefined);
  }

  /**
   * The knowledge bases an answer may draw on: those that exist and that the assistant's maker may still use, so that
   * a team's knowledge base stops answering once its maker leaves the team or the base stops being shared with it.
   * When the maker is the one asking, their memberships came with their credential in this request: no read.
   */
  async usableKnowledgeBases(assistant: ChatAssistant, asker?: Principal): Promise<KnowledgeBase[]> {
    if (knowledgeBaseIdsOf(assistant).length === 0) return [];
    const askingMaker = asker && isSignedIn(asker) && asker.user.id === assistant.createdBy ? asker : null;
    const [kbs, maker] = await Promise.all([this.knowledgeBases(assistant), askingMaker ?? userWithMemberships(this.platform.db, assistant.createdBy)]);
    if (kbs.length === 0 || !maker) return [];
    const runner: SignedIn = { kind: "apiToken", user: maker.user, tenantId: assistant.tenantId, memberships: maker.memberships, tokenId: assistant.id, expiresAt: null };
    return kbs.filter((kb) => can(runner, "use", knowledgeBaseResource(kb)));
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
    const documents = await this.platform.db.getRepository(Document).find({ where: { knowledgeBaseId: In(kbs.map((kb) => kb.id)), binnedIn: IsNull() }, select: { id: true, metaFields: true } });
    return documentsMatching(documents, condition);
  }

  /** The chat overview of one assistant of the tenant, or of all of them (spec §3, chat statistics). */
  async statistics(principal: SignedIn, range: Omit<StatisticsRange, "tenantId">): Promise<ChatStatisticsResult> {
    if (range.assistantId) await this.get(principal, range.assistantId);
    return chatStatistics(this.platform.db, { tenantId: principal.tenantId, ...range });
  }

  /**
   * The first problem, in RAGFlow's order, with the knowledge bases an assistant of this principal would use:
   * each in turn accessible and holding parsed chunks, then one embedding model for all; null when there is none.
   */
  private async knowledgeBaseProblem(principal: SignedIn, ids: string[]): Promise<KnowledgeBaseProblem | null> {
    const kbs: KnowledgeBase[] = [];
    for (const id of ids) {
      let kb: KnowledgeBase;
      try {
        kb = await this.knowledgeBaseService.accessible(principal, id, "use");
      } catch (error) {
        if (error instanceof DomainError && error.kind === "NOT_FOUND") return { kind: "unusable", id };
        throw error;
      }
      // Only documents that parsed successfully are ever retrieved (spec §4): without chunks there is nothing to answer from.
      if (kb.chunkCount <= 0) return { kind: "notParsed", id: kb.id, name: kb.name };
      kbs.push(kb);
    }
    // RAGFlow compares the model names only: the same model served by two providers embeds alike.
    const models = new Set(kbs.map((kb) => parseModelId(kb.embeddingModel)?.modelName ?? kb.embeddingModel));
    return models.size > 1 ? { kind: "embeddingMismatch" } : null;
  }

  /**
   * A model of the tenant by its id (`name@Provider`), or by its bare name as RAGFlow's clients send it
   * (`glm-4`): the first such model of one of `types`, or null.
   */
  private async model(tenantId: string, types: ModelType[], requested: string): Promise<AvailableModel | null> {
    // One read of the tenant's models, in the order of `types`.
    const all = await this.models.availableModels(tenantId);
    const available = types.flatMap((type) => all.filter((m) => m.modelType === type));
    return available.find((m) => m.id === requested) ?? available.find((m) => m.modelName === requested) ?? null;
  }

  /**
   * The models an answer of this assistant uses, as `name@Provider`: the stored chat model resolved
   * ("" = the tenant's default; a bare name as RAGFlow's clients store it, looked up among the tenant's models;
   * a whole id as it is, since opening its client looks its entry up anyway), and the rerank model or null.
   * RAGFlow's two allow-listed rerank names, which need no configuration there, are served by the built-in reranker.
   */
  async modelsOf(assistant: ChatAssistant): Promise<{ chat: string; rerank: string | null }> {
    const wholeId = (id: string) => {
      const parsed = parseModelId(id);
      return parsed !== null && findProvider(parsed.provider) !== undefined;
    };
    let chat: string;
    if (!assistant.llmId) chat = (await this.models.defaults(assistant.tenantId)).chat;
    else if (wholeId(assistant.llmId)) chat = assistant.llmId;
    else chat = (await this.model(assistant.tenantId, ["chat", "img2txt"], assistant.llmId))?.id ?? assistant.llmId;
    let rerank: string | null = null;
    if (assistant.rerankId) {
      rerank = (await this.model(assistant.tenantId, ["rerank"], assistant.rerankId))?.id ?? null;
      if (!rerank && RAGFLOW_RERANK_ALLOW_LIST.includes(assistant.rerankId)) rerank = (await this.models.availableModels(assistant.tenantId, "rerank")).find((m) => m.builtin)?.id ?? null;
    }
    return { chat, rerank };
  }

  /** Whether another live assistant of the tenant has this name, whatever its case. */
  private async nameTaken(tenantId: string, name: string, exceptId?: string): Promise<boolean> {
    const builder = this.repository
      .createQueryBuilder("a")
      .where("a.tenantId = :tenantId AND a.status = '1' AND a.binnedIn IS NULL AND lower(a.name) = lower(:name)", { tenantId, name });
    if (exceptId) builder.andWhere("a.id <> :exceptId", { exceptId });
    return builder.getExists();
  }

  /** A new assistant from the settings form. */
  async create(principal: SignedIn, input: AssistantInput): Promise<ChatAssistant> {
    return this.createRecord(principal, assistantFormChanges(input, { creatorLanguage: principal.user.language }));
  }

  /** Changes from the settings form to a live assistant of the principal's tenant. */
  async update(principal: SignedIn, id: string, input: AssistantInput): Promise<ChatAssistant> {
    const current = await this.get(principal, id, "manage");
    return this.updateRecord(principal, id, assistantFormChanges(input, { current }));
  }

  /**
   * Stores a new assistant, every surface's way in: the columns given over the defaults of a new assistant
   * (the tenant's default chat model when none is named), checked by the assistant rules first.
   */
  async createRecord(principal: SignedIn, columns: Partial<AssistantRecord>, options: AssistantRuleOptions = {}): Promise<ChatAssistant> {
    const record: Partial<AssistantRecord> = { ...newAssistantColumns(), llmSetting: { ...DEFAULT_LLM_SETTING }, ...columns };
    record.llmId ??= (await this.models.defaults(principal.tenantId)).chat;
    await this.checkRules(principal, new AssistantDraft(record), options);
    const id = newId();
    try {
      await this.repository.insert({ ...record, id, tenantId: principal.tenantId, createdBy: principal.user.id, status: "1" } as never);
    } catch (error) {
      if (isUniqueViolation(error)) throw Conflict("errors.chat.nameTaken", { name: record.name });
      throw error;
    }
    return this.repository.findOneByOrFail({ id });
  }

  /** Writes changes to a live assistant of the principal's tenant, every surface's way in, checked by the assistant rules first. */
  async updateRecord(principal: SignedIn, id: string, changes: Partial<AssistantRecord>, options: AssistantRuleOptions = {}): Promise<ChatAssistant> {
    const current = await this.get(principal, id, "manage");
    await this.checkRules(principal, new AssistantDraft(changes, current), options);
    if (Object.keys(changes).length > 0) {
      try {
        await this.repository.update({ id, status: "1" }, { ...changes, updatedAt: new Date() } as never);
      } catch (error) {
        if (isUniqueViolation(error)) throw Conflict("errors.chat.nameTaken", { name: changes.name });
        throw error;
      }
    }
    return this.get(principal, id);
  }

  /**
   * The assistant rules for this surface (assistant-rules.ts): every problem at once, one per field; a name
   * another assistant has is a Conflict when it is the first problem.
   */
  private async checkRules(principal: SignedIn, draft: AssistantDraft, options: AssistantRuleOptions): Promise<void> {
    const problems = await assistantProblems(
      draft,
      {
        principal,
        chatModelTypes: options.chatModelTypes ?? ["chat", "img2txt"],
        knowledgeBaseProblem: (ids) => this.knowledgeBaseProblem(principal, ids),
        modelId: async (types, requested) => (await this.model(principal.tenantId, types, requested))?.id ?? null,
        nameTaken: (name, exceptId) => this.nameTaken(principal.tenantId, name, exceptId),
      },
      options.leniency,
    );
    const [first] = problems;
    if (first?.conflict) throw Conflict(first.messageKey, first.params);
    const invalid = problems.filter((p) => !p.conflict);
    if (invalid.length > 0) throw Invalid(invalid.map(({ field, messageKey, params }) => ({ field, messageKey, params })));
  }

  /** Moves live assistants the principal may delete into the recycle bin (the web app's delete); every id must be one. */
  async delete(principal: SignedIn, ids: string[]): Promise<number> {
    const assistants: ChatAssistant[] = [];
    for (const id of new Set(ids)) assistants.push(await this.get(principal, id, "delete"));
    await this.bin.put(principal, WorkKind.assistant, assistants.map((a) => ({ id: a.id, tenantId: a.tenantId, name: a.name })));
    return assistants.length;
  }

  /** Marks assistants deleted; ids that are not live assistants the principal may delete are left alone. Returns how many were. */
  async softDelete(principal: SignedIn, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const deletable = scopeSql(scope(principal, "delete", "assistant"), "a");
    const found = await this.repository
      .createQueryBuilder("a")
      .select("a.id", "id")
      .where(`${deletable.sql} AND a.status = '1' AND a.binnedIn IS NULL AND a.id IN (:...ids)`, { ...deletable.params, ids })
      .getRawMany<{ id: string }>();
    if (found.length === 0) return 0;
    const { affected } = await this.repository.update({ id: In(found.map((a) => a.id)), status: "1" }, { status: "0", updatedAt: new Date() });
    return affected ?? 0;
  }
}

/** The ids of the knowledge bases an assistant names, as stored. */
function knowledgeBaseIdsOf(assistant: ChatAssistant): string[] {
  return (Array.isArray(assistant.kbIds) ? assistant.kbIds : []).filter((id): id is string => typeof id === "string");
}
