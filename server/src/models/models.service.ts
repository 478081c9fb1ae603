import { authorizeAccountAction } from "../auth/account-guard";
import { authorize, scope, scopeSql, type Action } from "../policies";
import type { SignedIn } from "../policies/principal";
import { Tenant } from "../auth/tenant.entity";
import { Conflict, DomainError, FieldChecks, Invalid, NotFound, type FieldProblem } from "../platform/errors";
import { checkUrl, OutboundRefused, type OutboundPolicy } from "../platform/outbound";
import { newId } from "../platform/ids";
import { storableText } from "../platform/sql";
import { validate, type ParamSpec } from "../platform/param-spec";
import type { Platform } from "../platform";
import { maskSecret, SecretBox } from "../platform/secret-box";
import { ModelEntryCache } from "./entry-cache";
import { ModelEntry } from "./model-entry.entity";
import { UsageLog } from "./usage-log";
import { MODEL_TYPES, isModelType, type ModelClients, type ModelType, type TokenUsage } from "./model-types";
import { modelOutboundPolicy } from "./http";
import { isDestinationField, isSecretField, type ModelSpec, type ProviderDefinition } from "./provider";
import { BUILTIN_PROVIDER, findProvider, providers } from "./providers/registry";
import { probeModel } from "./probe";

export interface ModelEntryInput {
  provider: string;
  modelName: string;
  modelType: string;
  /**
   * Field values by credential-field name. On an update, a secret left empty keeps its stored value,
   * unless a field that says where it is sent (the base URL) changes: then it must be entered again.
   */
  credentials: Record<string, string>;
  maxTokens?: number | null;
  vision?: boolean;
}

/** A model that can be chosen: a built-in one, or one of the tenant's entries. `id` is "name@Provider". */
export interface AvailableModel {
  id: string;
  provider: string;
  modelName: string;
  modelType: ModelType;
  builtin: boolean;
  vision: boolean;
  maxTokens: number | null;
}

export type DefaultModels = Record<ModelType, string>;

export interface ConnectionTest {
  ok: boolean;
  latencyMs: number;
  /** The vendor's or Cairn's message when the test failed, in English… */
  message: string | null;
  /** …and as a message key of locales with its parameters, for the user's language. */
  messageKey: string | null;
  params: Record<string, unknown> | null;
}

/** `glm-4@ZHIPU-AI` → name and provider; the name itself may contain "@". */
export function parseModelId(id: string): { modelName: string; provider: string } | null {
  const at = id.lastIndexOf("@");
  if (at <= 0 || at === id.length - 1) return null;
  return { modelName: id.slice(0, at), provider: id.slice(at + 1) };
}

export function modelId(modelName: string, provider: string): string {
  return `${modelName}@${provider}`;
}

const DEFAULT_COLUMNS: Record<ModelType, keyof Tenant> = {
  chat: "defaultChatModel",
  embedding: "defaultEmbeddingModel",
  rerank: "defaultRerankModel",
  img2txt: "defaultImg2txtModel",
  sequence2txt: "defaultSequence2txtModel",
  tts: "defaultTtsModel",
};

/**
 * Model providers of a tenant: entries with sealed credentials, connection tests, default models per
 * type, and the one way the rest of Cairn obtains a model client (`client`), which records token usage.
 */
export class ModelsService {
  private readonly secrets: SecretBox;
  private readonly usage = new UsageLog(() => this.platform.db);
  /** Where model calls may go (MODEL_PRIVATE_ADDRESSES), given to every model client this service makes. */
  private readonly outbound: OutboundPolicy;

  /** The entries models are opened with, kept between reads until they change. */
  private readonly entryCache: ModelEntryCache;

  constructor(private readonly platform: Platform) {
    const { config } = platform;
    this.secrets = SecretBox.fromConfig(config);
    this.outbound = modelOutboundPolicy(config.modelPrivateAddresses);
    this.entryCache = new ModelEntryCache(platform.pubsub);
  }

  private get entries() {
    return this.platform.db.getRepository(ModelEntry);
  }

  providers(): readonly ProviderDefinition[] {
    return providers;
  }

  listEntries(principal: SignedIn): Promise<ModelEntry[]> {
    const visible = scopeSql(scope(principal, "read", "modelSettings"), "e");
    return this.entries.createQueryBuilder("e").where(visible.sql, visible.params).orderBy("e.provider", "ASC").addOrderBy("e.modelType", "ASC").addOrderBy("e.modelName", "ASC").getMany();
  }

  /** Non-secret settings as stored, secrets masked: what the settings page shows of an entry. */
  presentCredentials(entry: ModelEntry): { name: string; value: string; secret: boolean }[] {
    const provider = findProvider(entry.provider);
    const secrets = this.openSecrets(entry);
    return (provider?.credentialFields ?? []).map((field) =>
      isSecretField(field)
        ? { name: field.key, value: maskSecret(secrets[field.key] ?? ""), secret: true }
        : { name: field.key, value: entry.settings[field.key] ?? "", secret: false },
    );
  }

  private openSecrets(entry: ModelEntry): Record<string, string> {
    return JSON.parse(this.secrets.open(entry.sealedSecrets)) as Record<string, string>;
  }

  /**
   * Checks an entry's input against its provider's description; throws every problem at once. With the
   * stored entry, a secret left empty is the stored one, as long as it would go where it went before.
   */
  private checkInput(input: ModelEntryInput, stored?: ModelEntry) {
    const provider = findProvider(input.provider);
    const checks = new FieldChecks()
      .check(provider !== undefined && provider.name !== BUILTIN_PROVIDER, "provider", "errors.model.providerUnknown", { provider: input.provider })
      .check(input.modelName?.trim() !== "", "modelName", "errors.model.nameRequired")
      .check((input.modelName ?? "").length <= 255, "modelName", "errors.model.nameTooLong")
      .check(isModelType(input.modelType), "modelType", "errors.model.typeRequired");
    checks.throwIfAny();
    const definition = provider!;
    const modelType = input.modelType as ModelType;
    checks.check(definition.modelTypes.includes(modelType), "modelType", "errors.model.typeUnsupported", { provider: definition.name, type: modelType });
    checks.check(input.maxTokens == null || (Number.isInteger(input.maxTokens) && input.maxTokens > 0), "maxTokens", "errors.model.maxTokensInvalid");

    const settings: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    const givenValue = (field: ParamSpec) => (input.credentials?.[field.key] ?? "").trim() || (isSecretField(field) ? "" : defaultText(field));
    const previousSecrets = stored ? this.openSecrets(stored) : {};
    const moved = stored !== undefined && definition.credentialFields.some((f) => isDestinationField(f) && !sameUrl(givenValue(f), storedSetting(stored, f)));
    const problems: FieldProblem[] = [];
    for (const field of definition.credentialFields) {
      const value = givenValue(field) || (isSecretField(field) && !moved ? (previousSecrets[field.key] ?? "") : "");
      // A stored secret goes only where it was stored for: a new address needs it typed again.
      if (moved && isSecretField(field) && value === "" && previousSecrets[field.key]) problems.push({ field: field.key, messageKey: "errors.model.secretForNewAddress", params: { field: field.key } });
      if (isSecretField(field)) secrets[field.key] = value;
      else settings[field.key] = value;
    }
    const given = Object.fromEntries(Object.entries({ ...settings, ...secrets }).filter(([, value]) => value !== ""));
    for (const problem of validate(definition.credentialFields, given)) {
      const required = problem.code === "required";
      problems.push({ field: problem.path, messageKey: CREDENTIAL_MESSAGES[problem.code] ?? problem.messageKey, params: required ? { field: problem.path } : undefined });
    }
    for (const field of definition.credentialFields.filter(isDestinationField)) {
      const value = given[field.key];
      const refused = value !== undefined && isHttpUrl(value) ? this.refusedAddress(value) : undefined;
      if (refused !== undefined) problems.push({ field: field.key, messageKey: "errors.model.addressNotAllowed", params: { host: refused } });
    }
    // Field by field as the form lists them; the first problem of a field is the one shown.
    const position = (field: string) => definition.credentialFields.findIndex((f) => f.key === field);
    for (const problem of problems.sort((a, b) => position(a.field) - position(b.field))) checks.check(false, problem.field, problem.messageKey, problem.params);
    checks.throwIfAny();
    const extra: FieldProblem[] = definition.validate?.({ ...settings, ...secrets }) ?? [];
    for (const problem of extra) checks.check(false, problem.field, problem.messageKey, problem.params);
    checks.throwIfAny();
    return { definition, modelType, settings, secrets, modelName: input.modelName.trim() };
  }

  /**
   * The host of a URL whose literal address the outbound guard would never connect to (link-local,
   * metadata, or private when MODEL_PRIVATE_ADDRESSES is off), refused when the form is saved; host
   * names are checked by the guard when a call connects.
   */
  private refusedAddress(url: string): string | undefined {
    try {
      checkUrl(url, this.outbound);
      return undefined;
    } catch (error) {
      if (error instanceof OutboundRefused) return error.host;
      throw error;
    }
  }

  async addEntry(principal: SignedIn, input: ModelEntryInput): Promise<ModelEntry> {
    authorizeAccountAction(principal, "manageModelProviders");
    authorize(principal, "manage", { kind: "modelSettings", tenantId: principal.tenantId });
    const checked = this.checkInput(input);
    const identity = { tenantId: principal.tenantId, provider: checked.definition.name, modelName: checked.modelName, modelType: checked.modelType };
    if (await this.entries.findOneBy(identity)) {
      throw Conflict("errors.model.entryExists", { model: modelId(checked.modelName, checked.definition.name), type: checked.modelType });
    }
    const id = newId();
    await this.entries.insert({
      ...identity,
      id,
      settings: checked.settings,
      sealedSecrets: this.secrets.seal(JSON.stringify(checked.secrets)),
      maxTokens: input.maxTokens ?? null,
      vision: input.vision ?? false,
      usedTokens: 0,
    });
    this.entryCache.changed(principal.tenantId);
    return this.entries.findOneByOrFail({ id });
  }

  /** Adds (or re-keys) every catalogue model of a provider with one set of credentials, as RAGFlow's set_api_key does. */
  async addCatalogue(principal: SignedIn, providerName: string, credentials: Record<string, string>): Promise<void> {
    authorizeAccountAction(principal, "manageModelProviders");
    const provider = findProvider(providerName);
    if (!provider) throw NotFound("errors.model.providerUnknown", { provider: providerName });
    const existing = await this.listEntries(principal);
    for (const model of provider.catalogue ?? []) {
      const current = existing.find((e) => e.provider === provider.name && e.modelName === model.name && e.modelType === model.type);
      const input = { credentials, maxTokens: model.maxTokens ?? null, vision: model.vision ?? false };
      if (current) await this.updateEntry(principal, current.id, input);
      else await this.addEntry(principal, { ...input, provider: provider.name, modelName: model.name, modelType: model.type });
    }
  }

  /** A provider entry the principal may act on so (the model-settings policy decides). */
  private async ownEntry(principal: SignedIn, id: string, action: Action): Promise<ModelEntry> {
    const entry = await this.entries.findOneBy({ id });
    if (!entry) throw NotFound("errors.model.entryNotFound");
    authorize(principal, action, { kind: "modelSettings", tenantId: entry.tenantId });
    return entry;
  }

  /** Provider, name and type stay; credentials, token limit and vision flag change. */
  async updateEntry(principal: SignedIn, id: string, input: Omit<ModelEntryInput, "provider" | "modelName" | "modelType">): Promise<ModelEntry> {
    authorizeAccountAction(principal, "manageModelProviders");
    const entry = await this.ownEntry(principal, id, "manage");
    const checked = this.checkInput({ ...input, provider: entry.provider, modelName: entry.modelName, modelType: entry.modelType }, entry);
    await this.entries.update(
      { id },
      {
        settings: checked.settings,
        sealedSecrets: this.secrets.seal(JSON.stringify(checked.secrets)),
        maxTokens: input.maxTokens ?? null,
        vision: input.vision ?? false,
      },
    );
    this.entryCache.changed(entry.tenantId);
    return this.entries.findOneByOrFail({ id });
  }

  /** Deleting an entry also clears it as a default, so that nothing points at a model that is gone. */
  async deleteEntry(principal: SignedIn, id: string): Promise<void> {
    authorizeAccountAction(principal, "manageModelProviders");
    const entry = await this.ownEntry(principal, id, "delete");
    const column = DEFAULT_COLUMNS[entry.modelType];
    const tenants = this.platform.db.getRepository(Tenant);
    await this.entries.delete({ id });
    this.entryCache.changed(entry.tenantId);
    await tenants.update({ id: entry.tenantId, [column]: modelId(entry.modelName, entry.provider) }, { [column]: null });
  }

  /**
   * Calls the model with a tiny request: a stored entry as saved, a new entry's input before saving,
   * or a stored entry with edited settings (a secret left empty is the stored one, unless the address changed).
   */
  async testConnection(principal: SignedIn, source: { entryId?: string; input?: ModelEntryInput }): Promise<ConnectionTest> {
    authorizeAccountAction(principal, "manageModelProviders");
    let definition: ProviderDefinition;
    let modelType: ModelType;
    let spec: ModelSpec;
    const entry = source.entryId ? await this.ownEntry(principal, source.entryId, "use") : null;
    if (!entry && !source.input) throw Invalid([{ field: "input", messageKey: "errors.invalidInput" }]);
    if (entry && !source.input) {
      definition = findProvider(entry.provider)!;
      modelType = entry.modelType;
      spec = this.specOf(entry);
    } else {
      const input = entry ? { ...source.input!, provider: entry.provider, modelName: entry.modelName, modelType: entry.modelType } : source.input!;
      const checked = this.checkInput(input, entry ?? undefined);
      definition = checked.definition;
      modelType = checked.modelType;
      spec = { modelName: checked.modelName, credentials: { ...checked.settings, ...checked.secrets }, vision: input.vision, outbound: this.outbound };
    }
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      await probeModel(modelType, definition.create(modelType, spec));
      return { ok: true, latencyMs: latencyMs(), message: null, messageKey: null, params: null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DomainError) return { ok: false, latencyMs: latencyMs(), message, messageKey: error.messageKey, params: error.params };
      return { ok: false, latencyMs: latencyMs(), message, messageKey: null, params: null };
    }
  }

  private specOf(entry: ModelEntry): ModelSpec {
    return {
      modelName: entry.modelName,
      credentials: { ...entry.settings, ...this.openSecrets(entry) },
      maxTokens: entry.maxTokens ?? undefined,
      vision: entry.vision,
      outbound: this.outbound,
    };
  }

  /** The built-in models and the tenant's entries, optionally of one type. */
  async availableModels(tenantId: string, type?: ModelType): Promise<AvailableModel[]> {
    const builtins: AvailableModel[] = (findProvider(BUILTIN_PROVIDER)?.catalogue ?? []).map((m) => ({
      id: modelId(m.name, BUILTIN_PROVIDER),
      provider: BUILTIN_PROVIDER,
      modelName: m.name,
      modelType: m.type,
      builtin: true,
      vision: m.vision ?? false,
      maxTokens: m.maxTokens ?? null,
    }));
    const entries = await this.entries.find({ where: { tenantId, ...(type ? { modelType: type } : {}) }, order: { provider: "ASC", modelName: "ASC" } });
    const own: AvailableModel[] = entries.map((e) => ({
      id: modelId(e.modelName, e.provider),
      provider: e.provider,
      modelName: e.modelName,
      modelType: e.modelType,
      builtin: false,
      vision: e.vision,
      maxTokens: e.maxTokens,
    }));
    return [...builtins, ...own].filter((m) => !type || m.modelType === type);
  }

  /** The tenant's default of each type: its choice, or else the built-in model of that type (or "" when there is none). */
  async defaults(tenantId: string): Promise<DefaultModels> {
    const tenant = await this.platform.db.getRepository(Tenant).findOneByOrFail({ id: tenantId });
    const builtinCatalogue = findProvider(BUILTIN_PROVIDER)?.catalogue ?? [];
    const result = {} as DefaultModels;
    for (const type of MODEL_TYPES) {
      const chosen = tenant[DEFAULT_COLUMNS[type]] as string | null;
      const fallback = builtinCatalogue.find((m) => m.type === type);
      result[type] = chosen ?? (fallback ? modelId(fallback.name, BUILTIN_PROVIDER) : "");
    }
    return result;
  }

  /** Sets some defaults; each must name an available model of its type ("" goes back to the built-in one). */
  async setDefaults(principal: SignedIn, choices: Partial<Record<ModelType, string>>): Promise<DefaultModels> {
    authorizeAccountAction(principal, "manageModelProviders");
    authorize(principal, "manage", { kind: "modelSettings", tenantId: principal.tenantId });
    const available = await this.availableModels(principal.tenantId);
    const checks = new FieldChecks();
    const changes: Partial<Tenant> = {};
    for (const type of MODEL_TYPES) {
      const choice = choices[type];
      if (choice === undefined) continue;
      checks.check(choice === "" || available.some((m) => m.id === choice && m.modelType === type), type, "errors.model.defaultUnavailable", { model: choice, type });
      (changes as Record<string, string | null>)[DEFAULT_COLUMNS[type]] = choice === "" ? null : choice;
    }
    checks.throwIfAny();
    if (Object.keys(changes).length > 0) await this.platform.db.getRepository(Tenant).update({ id: principal.tenantId }, changes);
    return this.defaults(principal.tenantId);
  }

  /**
   * A client for one model of the tenant: the given id, or the tenant's default of that type. Every call
   * through it records its token usage.
   */
  async client<T extends ModelType>(tenantId: string, type: T, id?: string | null): Promise<ModelClients[T]> {
    return (await this.open(tenantId, type, id)).client;
  }

  /** A chat client with its context size (null when unknown), from one read of its entry. */
  chatClient(tenantId: string, id?: string | null): Promise<{ client: ModelClients["chat"]; maxTokens: number | null }> {
    return this.open(tenantId, "chat", id);
  }

  private async open<T extends ModelType>(tenantId: string, type: T, id?: string | null): Promise<{ client: ModelClients[T]; maxTokens: number | null }> {
    const chosen = id || (await this.defaults(tenantId))[type];
    const parsed = parseModelId(chosen);
    if (!parsed) throw NotFound("errors.model.noDefault", { type });
    const definition = findProvider(parsed.provider);
    if (!definition) throw NotFound("errors.model.providerUnknown", { provider: parsed.provider });
    let spec: ModelSpec = { modelName: parsed.modelName, credentials: {}, outbound: this.outbound };
    let entry: ModelEntry | null = null;
    let maxTokens: number | null;
    if (definition.name !== BUILTIN_PROVIDER) {
      const identity = { tenantId, provider: definition.name, modelName: parsed.modelName, modelType: type };
      entry = await this.entryCache.get(tenantId, JSON.stringify(identity), () => this.entries.findOneBy(identity));
      if (!entry) throw NotFound("errors.model.notConfigured", { model: chosen });
      spec = this.specOf(entry);
      maxTokens = entry.maxTokens;
    } else {
      const builtin = definition.catalogue?.find((m) => m.name === parsed.modelName && m.type === type);
      if (!builtin) throw NotFound("errors.model.notConfigured", { model: chosen });
      maxTokens = builtin.maxTokens ?? null;
    }
    const record = async (usage: TokenUsage | undefined, startedAt: number) =>
      this.usage.record({ tenantId, modelId: chosen, modelType: type, usage, durationMs: performance.now() - startedAt, entryId: entry?.id ?? null });
    return { client: atCallBoundary(type, definition.create(type, spec), record), maxTokens };
  }

  /** Stops following entry changes and writes the usage of model calls recorded so far (the log is written in batches). */
  async close(): Promise<void> {
    await this.entryCache.close();
    await this.usage.flush();
  }
}

type Recorder = (usage: TokenUsage | undefined, startedAt: number) => Promise<void>;

/**
 * Wraps a client so that each call reports its usage once it is over (a failed recording never fails the call), and
 * a chat model's text can be stored: U+0000, which PostgreSQL's text cannot hold, becomes U+FFFD as it arrives, so
 * that what is streamed, stored and read back is the same text (a model that says it would otherwise fail the write
 * of its answer and of every answer written with it).
 */
function atCallBoundary<T extends ModelType>(type: T, client: ModelClients[T], record: Recorder): ModelClients[T] {
  const safely = (usage: TokenUsage | undefined, startedAt: number) =>
    record(usage, startedAt).catch((error) => console.error("[models] could not record usage:", error));
  const timed = async <R extends { usage?: TokenUsage }>(call: () => Promise<R>): Promise<R> => {
    const startedAt = performance.now();
    const result = await call();
    void safely(result.usage, startedAt);
    return result;
  };
  const clients = {
    chat: (c: ModelClients["chat"]): ModelClients["chat"] => ({
      capabilities: c.capabilities,
      ...(c.extractive ? { extractive: true } : {}),
      async *stream(messages, options) {
        const startedAt = performance.now();
        let usage: TokenUsage | undefined;
        try {
          for await (const event of c.stream(messages, options)) {
            if (event.type === "usage") usage = event.usage;
            yield event.type === "delta" ? { ...event, text: storableText(event.text) } : event;
          }
        } finally {
          void safely(usage, startedAt);
        }
      },
    }),
    embedding: (c: ModelClients["embedding"]): ModelClients["embedding"] => ({ embed: (texts, options) => timed(() => c.embed(texts, options)) }),
    rerank: (c: ModelClients["rerank"]): ModelClients["rerank"] => ({ rerank: (query, docs, options) => timed(() => c.rerank(query, docs, options)) }),
    img2txt: (c: ModelClients["img2txt"]): ModelClients["img2txt"] => ({ describe: (image, options) => timed(() => c.describe(image, options)) }),
    sequence2txt: (c: ModelClients["sequence2txt"]): ModelClients["sequence2txt"] => ({ transcribe: (audio, options) => timed(() => c.transcribe(audio, options)) }),
    tts: (c: ModelClients["tts"]): ModelClients["tts"] => ({
      synthesize: async (text, options) => {
        const startedAt = performance.now();
        const result = await c.synthesize(text, options);
        void safely(undefined, startedAt);
        return result;
      },
    }),
  };
  return (clients[type] as unknown as (c: ModelClients[T]) => ModelClients[T])(client);
}

/** What an entry has stored in a field that is not secret; an entry saved before the field existed has its default. */
function storedSetting(entry: ModelEntry, field: ParamSpec): string {
  return entry.settings[field.key] ?? defaultText(field);
}

function defaultText(field: ParamSpec): string {
  return typeof field.default === "string" ? field.default : "";
}

/** The settings page's words for the credential checks that ParamSpec validation makes. */
const CREDENTIAL_MESSAGES: Record<string, string> = {
  required: "errors.model.fieldRequired",
  url: "errors.model.urlInvalid",
  option: "errors.model.optionInvalid",
};

/** Two spellings of one address (`http://Host:11434/v1` and `http://host:11434/v1/`) are the same destination. */
function sameUrl(a: string, b: string): boolean {
  const normal = (value: string) => {
    try {
      // Paths are joined without their trailing slashes (joinUrl).
      return new URL(value).href.replace(/\/+$/, "");
    } catch {
      return value;
    }
  };
  return normal(a) === normal(b);
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
