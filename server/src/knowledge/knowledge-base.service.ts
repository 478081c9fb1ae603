import { In, IsNull, type EntityManager, type Repository } from "typeorm";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import type { SignedIn } from "../policies/principal";
import { authorize, scope, scopeSql, type Action, type KnowledgeBaseResource } from "../policies";
import { chunkMethod } from "../ingestion/chunkers/registry";
import type { ModelsService } from "../models/models.service";
import { Conflict, FieldChecks, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import type { Platform } from "../platform";
import { KnowledgeBase } from "./knowledge-base.entity";
import { TOP_K } from "./retrieval-params";
import { chunkMethodDefaults, deepMerge, initialParserConfig, parserConfigViolations, type Violation } from "./parser-config";
import type { StoredBytes } from "./stored-bytes";

/** Retrieval settings of a knowledge base or a request that sets none (RAGFlow's defaults). */
export const RETRIEVAL_DEFAULTS = { similarityThreshold: 0.2, vectorSimilarityWeight: 0.3, topK: 1024, page: 1, pageSize: 30 };

export const KNOWLEDGE_BASE_LANGUAGES = ["English", "Chinese", "Traditional Chinese", "Indonesian", "Spanish", "Vietnamese", "Japanese", "Korean", "Portuguese (Brazil)", "German", "French", "Italian", "Russian", "Arabic"];
export const PERMISSIONS = ["me", "team"] as const;
export const NAME_MAX_LENGTH = 128;
const AVATAR_MAX_LENGTH = 65535;

export interface KnowledgeBaseInput {
  name?: string;
  avatar?: string | null;
  description?: string | null;
  language?: string;
  permission?: string;
  embeddingModel?: string | null;
  rerankModel?: string | null;
  chunkMethod?: string;
  parserConfig?: Record<string, unknown> | null;
  pagerank?: number;
  similarityThreshold?: number;
  vectorSimilarityWeight?: number;
  topK?: number;
}

export interface KnowledgeBaseQuery {
  /** Case-insensitive part of the name. */
  search?: string;
  page?: number;
  pageSize?: number;
  orderBy?: "createdAt" | "updatedAt";
  desc?: boolean;
}

/** The field messages of parser-config violations, for the GraphQL surface (the REST facade words them as RAGFlow does). */
function parserConfigProblems(violations: Violation[], checks: FieldChecks): void {
  for (const v of violations) {
    const field = `parserConfig.${v.path}`;
    if (v.kind === "min") checks.check(false, field, "errors.knowledge.atLeast", { limit: v.limit });
    else if (v.kind === "max") checks.check(false, field, "errors.knowledge.atMost", { limit: v.limit });
    else if (v.kind === "pageRange") checks.check(false, field, "errors.knowledge.pageRange");
    else if (v.kind === "minLength") checks.check(false, field, "errors.knowledge.required");
    else checks.check(false, field, "errors.invalidField", { field: v.path });
  }
}

/** A knowledge base as the policy sees it. */
export const knowledgeBaseResource = (kb: KnowledgeBase): KnowledgeBaseResource => ({ kind: "knowledgeBase", tenantId: kb.tenantId, createdBy: kb.createdBy, permission: kb.permission });

/** Knowledge bases: who sees and manages them, their settings and their validation. */
export class KnowledgeBaseService {
  private readonly repository: Repository<KnowledgeBase>;

  constructor(
    private readonly platform: Platform,
    private readonly models: ModelsService,
    private readonly storedBytes: StoredBytes,
    private readonly bin: BinService,
  ) {
    this.repository = platform.db.getRepository(KnowledgeBase);
  }

  /**
   * A knowledge base this principal may act on so (the knowledge-base policy decides): NOT_FOUND when it may not
   * see it, FORBIDDEN when it may see it but not do this.
   */
  async accessible(principal: SignedIn, id: string, action: Action = "read"): Promise<KnowledgeBase> {
    const kb = await this.repository.findOneBy({ id, binnedIn: IsNull() });
    if (!kb) throw NotFound("errors.knowledge.notFound");
    authorize(principal, action, knowledgeBaseResource(kb));
    return kb;
  }

  async list(principal: SignedIn, query: KnowledgeBaseQuery = {}): Promise<{ total: number; items: KnowledgeBase[] }> {
    const { sql, params } = scopeSql(scope(principal, "read", "knowledgeBase"), "kb");
    const builder = this.repository.createQueryBuilder("kb").where(sql, params).andWhere("kb.binnedIn IS NULL");
    if (query.search?.trim()) builder.andWhere("kb.name ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    builder.orderBy(`kb.${query.orderBy ?? "createdAt"}`, query.desc === false ? "ASC" : "DESC").skip((page - 1) * pageSize).take(pageSize);
    const [items, total] = pageSize === 0 ? [[], await builder.getCount()] : await builder.getManyAndCount();
    return { total, items };
  }

  /** Checks every field given; throws them all at once. `current` is the knowledge base being edited. */
  private async validate(principal: SignedIn, input: KnowledgeBaseInput, current?: KnowledgeBase): Promise<void> {
    const checks = new FieldChecks();
    if (input.name !== undefined || !current) {
      const name = input.name?.trim() ?? "";
      checks.check(name.length > 0, "name", "errors.knowledge.nameRequired");
      checks.check(name.length <= NAME_MAX_LENGTH, "name", "errors.knowledge.nameTooLong", { max: NAME_MAX_LENGTH });
    }
    if (input.avatar) {
      checks.check(input.avatar.length <= AVATAR_MAX_LENGTH && /^data:image\/(png|jpeg);base64,/.test(input.avatar), "avatar", "errors.knowledge.avatarInvalid");
    }
    if (input.description) checks.check(input.description.length <= AVATAR_MAX_LENGTH, "description", "errors.knowledge.descriptionTooLong");
    if (input.language !== undefined) checks.check(KNOWLEDGE_BASE_LANGUAGES.includes(input.language), "language", "errors.knowledge.languageRequired");
    if (input.permission !== undefined) checks.check((PERMISSIONS as readonly string[]).includes(input.permission), "permission", "errors.knowledge.permissionInvalid");
    if (input.chunkMethod !== undefined) checks.check(chunkMethod(input.chunkMethod) !== undefined, "chunkMethod", "errors.knowledge.chunkMethodUnknown", { method: input.chunkMethod });
    for (const [field, value, min, max] of [
      ["pagerank", input.pagerank, 0, 100],
      ["similarityThreshold", input.similarityThreshold, 0, 1],
      ["vectorSimilarityWeight", input.vectorSimilarityWeight, 0, 1],
      ["topK", input.topK, TOP_K.min!, TOP_K.max!],
    ] as const) {
      if (value !== undefined) checks.check(Number.isFinite(value) && value >= min && value <= max, field, "errors.knowledge.between", { min, max });
    }
    if (input.parserConfig) parserConfigProblems(parserConfigViolations(input.parserConfig), checks);
    if (input.embeddingModel) {
      const available = await this.models.availableModels(principal.tenantId, "embedding");
      checks.check(available.some((m) => m.id === input.embeddingModel), "embeddingModel", "errors.knowledge.modelUnavailable", { model: input.embeddingModel });
      if (current && current.chunkCount > 0 && input.embeddingModel !== current.embeddingModel) {
        checks.check(false, "embeddingModel", "errors.knowledge.embeddingLocked", { count: current.chunkCount, model: current.embeddingModel });
      }
    }
    if (input.rerankModel) {
      const available = await this.models.availableModels(principal.tenantId, "rerank");
      checks.check(available.some((m) => m.id === input.rerankModel), "rerankModel", "errors.knowledge.modelUnavailable", { model: input.rerankModel });
    }
    checks.throwIfAny();
  }

  /** "name", or "name(1)", "name(2)"… when the tenant already has it (compared case-insensitively). */
  private async uniqueName(tenantId: string, name: string): Promise<string> {
    const taken = new Set(
      (await this.repository.createQueryBuilder("kb").select("lower(kb.name)", "name").where("kb.tenantId = :tenantId AND kb.binnedIn IS NULL", { tenantId }).getRawMany<{ name: string }>()).map((r) => r.name),
    );
    if (!taken.has(name.toLowerCase())) return name;
    const match = /^(.*)\((\d+)\)$/.exec(name);
    const [base, start] = match ? [match[1], Number(match[2]) + 1] : [name, 1];
    for (let n = start; ; n++) {
      const candidate = `${base}(${n})`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  async create(principal: SignedIn, input: KnowledgeBaseInput): Promise<KnowledgeBase> {
    await this.validate(principal, input);
    const defaults = await this.models.defaults(principal.tenantId);
    const method = input.chunkMethod ?? "naive";
    const kb = this.repository.create({
      id: newId(),
      tenantId: principal.tenantId,
      createdBy: principal.user.id,
      name: await this.uniqueName(principal.tenantId, input.name!.trim()),
      avatar: input.avatar ?? null,
      description: input.description ?? null,
      language: input.language ?? "English",
      permission: input.permission ?? "me",
      embeddingModel: input.embeddingModel || defaults.embedding,
      rerankModel: input.rerankModel || null,
      chunkMethod: method,
      parserConfig: initialParserConfig(method, input.parserConfig, defaults.chat),
      pagerank: input.pagerank ?? 0,
      similarityThreshold: input.similarityThreshold ?? RETRIEVAL_DEFAULTS.similarityThreshold,
      vectorSimilarityWeight: input.vectorSimilarityWeight ?? RETRIEVAL_DEFAULTS.vectorSimilarityWeight,
      topK: input.topK ?? RETRIEVAL_DEFAULTS.topK,
    });
    await this.repository.save(kb);
    return this.repository.findOneByOrFail({ id: kb.id });
  }

  async update(principal: SignedIn, id: string, input: KnowledgeBaseInput): Promise<KnowledgeBase> {
    const kb = await this.accessible(principal, id, "manage");
    await this.validate(principal, input, kb);
    const changes: Partial<KnowledgeBase> = {};
    if (input.name !== undefined && input.name.trim().toLowerCase() !== kb.name.toLowerCase()) {
      const clash = await this.repository
        .createQueryBuilder("kb")
        .where("kb.tenantId = :tenantId AND lower(kb.name) = lower(:name) AND kb.id <> :id AND kb.binnedIn IS NULL", { tenantId: kb.tenantId, name: input.name.trim(), id })
        .getExists();
      if (clash) throw Conflict("errors.knowledge.nameTaken", { name: input.name.trim() });
    }
    if (input.name !== undefined) changes.name = input.name.trim();
    for (const key of ["avatar", "description", "language", "permission", "rerankModel", "pagerank", "similarityThreshold", "vectorSimilarityWeight", "topK"] as const) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = key === "rerankModel" ? input.rerankModel || null : input[key];
    }
    if (input.embeddingModel) changes.embeddingModel = input.embeddingModel;
    if (input.parserConfig && Object.keys(input.parserConfig).length > 0) {
      changes.parserConfig = deepMerge(kb.parserConfig, input.parserConfig);
    } else if (input.chunkMethod !== undefined && input.chunkMethod !== kb.chunkMethod) {
      changes.parserConfig = chunkMethodDefaults(input.chunkMethod);
    }
    if (input.chunkMethod !== undefined) changes.chunkMethod = input.chunkMethod;
    if (Object.keys(changes).length > 0) await this.repository.update({ id }, changes as never);
    return this.repository.findOneByOrFail({ id });
  }

  /**
   * RAGFlow's metadata setting: the schema of the metadata the knowledge base's documents carry (a JSON
   * schema object, as RAGFlow's clients send it), kept in its parser config as `metadata` and `enable_metadata`.
   */
  async setMetadataSetting(principal: SignedIn, id: string, metadata: unknown, enabled: boolean): Promise<KnowledgeBase> {
    const kb = await this.accessible(principal, id, "manage");
    await this.repository.update({ id }, { parserConfig: { ...kb.parserConfig, metadata, enable_metadata: enabled } as never });
    return this.repository.findOneByOrFail({ id });
  }

  /** Moves knowledge bases into the recycle bin (the web app's delete): their documents, chunks and files wait with them. */
  async delete(principal: SignedIn, ids: string[]): Promise<void> {
    const kbs = await Promise.all(ids.map((id) => this.accessible(principal, id, "delete")));
    await this.bin.put(principal, WorkKind.knowledgeBase, kbs.map((kb) => ({ id: kb.id, tenantId: kb.tenantId, name: kb.name })));
  }

  /** Destroys knowledge bases with their documents, chunks, graph and stored files (the REST API's delete, as RAGFlow's). */
  async destroy(principal: SignedIn, ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.accessible(principal, id, "delete")));
    const release = await this.platform.db.transaction((manager) => this.destroyRows(manager, ids));
    await release();
  }

  /** Deletes the rows of knowledge bases (their documents and chunks go by cascade); answers how to release their bytes once committed. */
  async destroyRows(manager: EntityManager, ids: string[]): Promise<() => Promise<void>> {
    const documents: { storage_key: string }[] = await manager.query(`SELECT storage_key FROM document WHERE knowledge_base_id = ANY($1)`, [ids]);
    const images: { image_key: string }[] = await manager.query(`SELECT image_key FROM chunk WHERE knowledge_base_id = ANY($1) AND image_key IS NOT NULL`, [ids]);
    await manager.delete(KnowledgeBase, { id: In(ids) });
    return () => this.storedBytes.release([...documents.map((d) => d.storage_key), ...images.map((i) => i.image_key)]);
  }
}
