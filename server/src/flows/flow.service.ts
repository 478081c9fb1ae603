import { In, IsNull, type Repository } from "typeorm";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import { authorize, scope, scopeSql, type Action, type FlowResource } from "../policies";
import type { FlowSharePrincipal, SignedIn } from "../policies/principal";
import { Conflict, DomainError, FieldChecks, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { isLanguage, localizedMessage, type Locale } from "../platform/messages";
import { copyEntity, GroupedStatement, outputsByKey } from "../platform/grouped-statement";
import { escapeLike } from "../platform/sql";
import type { Platform } from "../platform";
import type { FlowDsl } from "./dsl";
import { Flow } from "./flow.entity";
import { blankDsl } from "./blank-flow";
import { exportFlow, importFlow, type ImportNote } from "./dsl-format";
import { linkFromDrawing } from "./drawing";
import { FlowVersion } from "./flow-version.entity";
import { FLOW_TEMPLATES, type FlowTemplate } from "./templates";
import { dropSecrets, FlowSecrets } from "./flow-secrets";
import { SecretBox } from "../platform/secret-box";

/**
 * Agent flows: who sees and changes them (the flow policy, shared with the team like a knowledge base), their
 * saves and the versions those keep, duplicates, and files in and out. Runs are FlowRunService's.
 */

export const FLOW_PERMISSIONS = ["me", "team"] as const;
export const TITLE_MAX_LENGTH = 255;
const TEXT_MAX_LENGTH = 65535;

export interface FlowInput {
  title?: string;
  description?: string | null;
  avatar?: string | null;
  permission?: string;
  dsl?: unknown;
}

export interface CreateFlowInput extends FlowInput {
  /** Start from this template of FLOW_TEMPLATES (its title, translated, unless one is given). */
  templateId?: string | null;
}

export interface UpdateFlowInput extends FlowInput {
  /**
   * The `updatedAt` the editor last read: when the flow was saved elsewhere since (another tab, a teammate), the
   * save is refused rather than overwriting their work with an older graph.
   */
  baseUpdatedAt?: Date | null;
  /** An editor's autosave, which refines the newest version when it is the same person's and recent (FLOW_VERSION_MINUTES). */
  autosave?: boolean;
}

export interface FlowQuery {
  /** Case-insensitive part of the title. */
  search?: string;
  /** Exact filters (the service API's agent list): one id, one title, the flows of one tenant only. */
  id?: string;
  title?: string;
  tenantId?: string;
  page?: number;
  pageSize?: number;
  orderBy?: "createdAt" | "updatedAt" | "title";
  desc?: boolean;
}

/** A flow as the policy sees it. */
export const flowResource = (flow: Pick<Flow, "tenantId" | "createdBy" | "permission"> & { id?: string }): FlowResource => ({
  kind: "flow",
  id: flow.id,
  tenantId: flow.tenantId,
  createdBy: flow.createdBy,
  permission: flow.permission,
});

export const localeOf = (principal: SignedIn): Locale => (isLanguage(principal.user.language) ? (principal.user.language as Locale) : "en");

/** How a save stores the secrets of the DSL it is given, over the flow's stored DSL (none for a new flow). */
type SecretsOf = (dsl: FlowDsl, stored: FlowDsl | null) => FlowDsl;

export class FlowService {
  /** The flows' secrets, sealed with the server key (flow-secrets.ts); runs open them through their ports. */
  readonly secrets: FlowSecrets;

  constructor(
    private readonly platform: Platform,
    private readonly bin: BinService,
    /** The flows a user can start from (tests give their own). */
    readonly templates: readonly FlowTemplate[] = FLOW_TEMPLATES,
  ) {
    this.secrets = new FlowSecrets(SecretBox.fromConfig(platform.config));
  }

  /** A DSL a client sent (the editor, the service API, a file): typed secrets sealed, masked ones kept. */
  private readonly givenSecrets: SecretsOf = (dsl, stored) => this.secrets.sealGiven(dsl, stored);

  private get flows(): Repository<Flow> {
    return this.platform.db.getRepository(Flow);
  }

  private get versions(): Repository<FlowVersion> {
    return this.platform.db.getRepository(FlowVersion);
  }

  /**
   * A flow this principal may act on so: NOT_FOUND when it may not see it, FORBIDDEN when it may see it but not do
   * this. A shared flow's visitor reaches that flow only.
   */
  async accessible(principal: SignedIn | FlowSharePrincipal, id: string, action: Action = "read"): Promise<Flow> {
    const flow = await this.liveFlows.submit(id);
    if (!flow) throw NotFound("flow.errors.notFound");
    return this.permitted(principal, flow, action);
  }

  /** Flows not in the recycle bin, by id; the reads of requests that arrive together in one statement (every run starts here). */
  private readonly liveFlows = new GroupedStatement<string, Flow | null>(
    async (ids) => outputsByKey(ids, new Map((await this.flows.findBy({ id: In(ids), binnedIn: IsNull() })).map((flow) => [flow.id, flow])), copyEntity),
    { maxItems: 128 },
  );

  /** A live flow just read by `accessible` for another action, checked for this one without reading it again. */
  permitted(principal: SignedIn | FlowSharePrincipal, flow: Flow, action: Action): Flow {
    authorize(principal, action, flowResource(flow));
    return flow;
  }

  get(principal: SignedIn, id: string): Promise<Flow> {
    return this.accessible(principal, id, "read");
  }

  async list(principal: SignedIn, query: FlowQuery = {}): Promise<{ total: number; items: Flow[] }> {
    const { sql, params } = scopeSql(scope(principal, "read", "flow"), "f");
    const builder = this.flows.createQueryBuilder("f").where(sql, params).andWhere("f.binnedIn IS NULL");
    if (query.search?.trim()) builder.andWhere("f.title ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    if (query.id !== undefined) builder.andWhere("f.id = :filterId", { filterId: query.id });
    if (query.title !== undefined) builder.andWhere("f.title = :filterTitle", { filterTitle: query.title });
    if (query.tenantId !== undefined) builder.andWhere("f.tenantId = :filterTenantId", { filterTenantId: query.tenantId });
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    const direction = query.desc === false ? "ASC" : "DESC";
    builder.orderBy(`f.${query.orderBy ?? "updatedAt"}`, direction).addOrderBy("f.id", direction).skip((page - 1) * pageSize).take(pageSize);
    const [items, total] = pageSize === 0 ? [[], await builder.getCount()] : await builder.getManyAndCount();
    return { total, items };
  }

  /** Checks the fields given (all of them on create), throwing every problem at once; the DSL comes back as stored. */
  private check(input: FlowInput, creating: boolean): { title?: string; dsl?: FlowDsl } {
    const checks = new FieldChecks();
    let title: string | undefined;
    if (input.title !== undefined || creating) {
      title = input.title?.trim() ?? "";
      checks.check(title.length > 0, "title", "flow.errors.titleRequired");
      checks.check(title.length <= TITLE_MAX_LENGTH, "title", "flow.errors.titleTooLong", { max: TITLE_MAX_LENGTH });
    }
    if (input.avatar) checks.check(input.avatar.length <= TEXT_MAX_LENGTH && /^data:image\/(png|jpeg);base64,/.test(input.avatar), "avatar", "flow.errors.avatarInvalid");
    if (input.description) checks.check(input.description.length <= TEXT_MAX_LENGTH, "description", "flow.errors.descriptionTooLong", { max: TEXT_MAX_LENGTH });
    if (input.permission !== undefined) checks.check((FLOW_PERMISSIONS as readonly string[]).includes(input.permission), "permission", "flow.errors.permissionInvalid");
    checks.throwIfAny();
    // Saved as imported (the one reader of flow files checks the shape), with the links the drawing shows.
    return { title, dsl: input.dsl === undefined ? undefined : linkFromDrawing(importFlow(input.dsl).dsl) };
  }

  private async titleTaken(tenantId: string, title: string, exceptId?: string): Promise<boolean> {
    const builder = this.flows.createQueryBuilder("f").where("f.tenantId = :tenantId AND f.binnedIn IS NULL AND lower(f.title) = lower(:title)", { tenantId, title });
    if (exceptId) builder.andWhere("f.id <> :exceptId", { exceptId });
    return builder.getExists();
  }

  /** "title", or "title(1)", "title(2)"… when the tenant has it: for copies and files, whose title the user did not type. */
  private async freeTitle(tenantId: string, title: string): Promise<string> {
    const taken = new Set(
      (await this.flows.createQueryBuilder("f").select("lower(f.title)", "title").where("f.tenantId = :tenantId AND f.binnedIn IS NULL", { tenantId }).getRawMany<{ title: string }>()).map((r) => r.title),
    );
    const base = title.slice(0, TITLE_MAX_LENGTH - 6);
    if (!taken.has(base.toLowerCase())) return base;
    const match = /^(.*)\((\d+)\)$/.exec(base);
    const [stem, start] = match ? [match[1], Number(match[2]) + 1] : [base, 1];
    for (let n = start; ; n++) {
      const candidate = `${stem}(${n})`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  /** Inserts the flow and its first version; a title taken meanwhile by another request is a conflict too. */
  private async insert(principal: SignedIn, fields: Pick<Flow, "title" | "description" | "avatar" | "permission" | "dsl">): Promise<Flow> {
    const flow = this.flows.create({ id: newId(), tenantId: principal.tenantId, createdBy: principal.user.id, lastRunAt: null, ...fields });
    try {
      await this.flows.insert(flow as never);
    } catch (error) {
      if (String((error as Error).message).includes("flow_title_key")) throw Conflict("flow.errors.titleTaken", { name: fields.title });
      throw error;
    }
    await this.keepVersion(flow, principal.user.id, false);
    return this.flows.findOneByOrFail({ id: flow.id });
  }

  /** A new flow: blank (Begin and an Answer), from a template, or with the DSL given. */
  create(principal: SignedIn, input: CreateFlowInput): Promise<Flow> {
    return this.createWith(principal, input, this.givenSecrets);
  }

  private async createWith(principal: SignedIn, input: CreateFlowInput, secretsOf: SecretsOf): Promise<Flow> {
    authorize(principal, "manage", flowResource({ tenantId: principal.tenantId, createdBy: principal.user.id, permission: "me" }));
    let source: FlowInput = input;
    if (input.templateId) {
      const template = this.templates.find((t) => t.id === input.templateId);
      if (!template) throw NotFound("flow.errors.templateNotFound");
      const locale = localeOf(principal);
      source = {
        ...input,
        title: input.title ?? (await this.freeTitle(principal.tenantId, localizedMessage(locale, template.title))),
        description: input.description ?? localizedMessage(locale, template.description),
        dsl: template.dsl,
      };
    }
    const { title, dsl } = this.check(source, true);
    if (await this.titleTaken(principal.tenantId, title!)) throw Conflict("flow.errors.titleTaken", { name: title });
    return this.insert(principal, {
      title: title!,
      description: source.description ?? null,
      avatar: source.avatar ?? null,
      permission: source.permission ?? "me",
      dsl: dsl ? secretsOf(dsl, null) : blankDsl(),
    });
  }

  /**
   * A flow from a file (an export, a RAGFlow template or canvas DSL, v0.14 or v0.20; dsl-format.ts): the title given,
   * else the file's, made unique. What the import changed or left out comes back as notes, translated.
   */
  async import(principal: SignedIn, file: unknown, title?: string | null): Promise<{ flow: Flow; notes: string[] }> {
    const read = importFlow(file);
    const locale = localeOf(principal);
    const named = title?.trim() ? title : await this.freeTitle(principal.tenantId, read.title?.trim() || localizedMessage(locale, "flow.importedTitle"));
    const flow = await this.create(principal, { title: named, description: read.description ?? null, dsl: read.dsl });
    return { flow, notes: read.notes.map((note: ImportNote) => localizedMessage(locale, note.messageKey, note.params)) };
  }

  /** The file of a flow (RAGFlow's DSL with the title and description beside it), which import reads back; it carries no secret. */
  async export(principal: SignedIn, id: string): Promise<Record<string, unknown>> {
    const flow = await this.accessible(principal, id, "read");
    return exportFlow({ ...flow, dsl: dropSecrets(flow.dsl) });
  }

  /** A save (the editor autosaves): the fields given change, and a change of the graph or title keeps a version. */
  update(principal: SignedIn, id: string, input: UpdateFlowInput): Promise<Flow> {
    return this.save(principal, id, input, this.givenSecrets);
  }

  private async save(principal: SignedIn, id: string, input: UpdateFlowInput, secretsOf: SecretsOf): Promise<Flow> {
    const flow = await this.accessible(principal, id, "manage");
    if (input.baseUpdatedAt && input.baseUpdatedAt.getTime() !== flow.updatedAt.getTime()) throw Conflict("flow.errors.changedElsewhere");
    const { title, dsl } = this.check(input, false);
    if (title !== undefined && title.toLowerCase() !== flow.title.toLowerCase() && (await this.titleTaken(flow.tenantId, title, flow.id))) {
      throw Conflict("flow.errors.titleTaken", { name: title });
    }
    const changes: Partial<Flow> = {};
    if (title !== undefined) changes.title = title;
    if (dsl !== undefined) changes.dsl = secretsOf(dsl, flow.dsl);
    for (const key of ["description", "avatar", "permission"] as const) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
    }
    if (Object.keys(changes).length === 0) return flow;
    try {
      await this.flows.update({ id }, changes as never);
    } catch (error) {
      if (String((error as Error).message).includes("flow_title_key")) throw Conflict("flow.errors.titleTaken", { name: title });
      throw error;
    }
    const saved = await this.flows.findOneByOrFail({ id });
    if (changes.dsl !== undefined || changes.title !== undefined) await this.keepVersion(saved, principal.user.id, input.autosave === true);
    return saved;
  }

  /**
   * A copy in the principal's own tenant, titled after the original. Its secrets come along within the tenant; a
   * copy into another tenant (a team member's) needs them typed again.
   */
  async duplicate(principal: SignedIn, id: string, title?: string | null): Promise<Flow> {
    const flow = await this.accessible(principal, id, "read");
    const copyTitle = title?.trim() ? title : await this.freeTitle(principal.tenantId, flow.title);
    const secretsOf: SecretsOf = (dsl) => (flow.tenantId === principal.tenantId ? this.secrets.sealStored(dsl) : dropSecrets(dsl));
    return this.createWith(principal, { title: copyTitle, description: flow.description, avatar: flow.avatar, dsl: flow.dsl }, secretsOf);
  }

  /** Moves a flow into the recycle bin with its versions, sessions and runs (the web app's delete). */
  async delete(principal: SignedIn, id: string): Promise<void> {
    const flow = await this.accessible(principal, id, "delete");
    await this.bin.put(principal, WorkKind.flow, [{ id: flow.id, tenantId: flow.tenantId, name: flow.title }]);
  }

  /** Destroys a flow with its versions, sessions and runs (the REST API's delete: "Only owner of canvas authorized for this operation."). */
  async destroy(principal: SignedIn, id: string): Promise<void> {
    const flow = await this.accessible(principal, id, "delete");
    await this.flows.delete({ id: flow.id });
  }

  // ---- versions ---------------------------------------------------------------------------------

  /**
   * Keeps the flow as saved. An autosave refines the newest version instead when that one is the same person's and
   * younger than FLOW_VERSION_MINUTES: a version is then an editing session's last state, not every pause in it.
   * Any other save (a restore, a save through the API) adds one, so what it replaced stays restorable.
   */
  private async keepVersion(flow: Flow, userId: string, autosave: boolean): Promise<void> {
    const newest = autosave ? await this.versions.findOne({ where: { flowId: flow.id }, order: { createdAt: "DESC", id: "DESC" } }) : null;
    const windowMs = this.platform.config.flowVersionMinutes * 60_000;
    if (newest && newest.createdBy === userId && Date.now() - newest.createdAt.getTime() < windowMs) {
      await this.versions.update({ id: newest.id }, { title: flow.title, dsl: flow.dsl as never });
      return;
    }
    await this.versions.insert({ id: newId(), flowId: flow.id, title: flow.title, dsl: flow.dsl, createdBy: userId } as never);
    // The newest FLOW_VERSIONS_KEPT stay.
    await this.platform.db.query(
      `DELETE FROM flow_version WHERE flow_id = $1 AND id NOT IN (SELECT id FROM flow_version WHERE flow_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`,
      [flow.id, this.platform.config.flowVersionsKept],
    );
  }

  /** The versions of a flow, newest first. */
  async listVersions(principal: SignedIn, flowId: string): Promise<FlowVersion[]> {
    const flow = await this.accessible(principal, flowId, "read");
    return this.versions.find({ where: { flowId: flow.id }, order: { createdAt: "DESC", id: "DESC" } });
  }

  async version(principal: SignedIn, versionId: string): Promise<FlowVersion> {
    const version = await this.versions.findOneBy({ id: versionId });
    if (!version) throw NotFound("flow.errors.versionNotFound");
    try {
      await this.accessible(principal, version.flowId, "read");
    } catch (error) {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("flow.errors.versionNotFound");
      throw error;
    }
    return version;
  }

  /** Puts a version's graph back as the flow's (a save, so it keeps a version too); the title stays. */
  async restoreVersion(principal: SignedIn, versionId: string): Promise<Flow> {
    const version = await this.version(principal, versionId);
    return this.save(principal, version.flowId, { dsl: version.dsl }, (dsl) => this.secrets.sealStored(dsl));
  }
}
