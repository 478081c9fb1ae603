import type { Readable } from "node:stream";
import { In, IsNull, type EntityManager, type Repository } from "typeorm";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import type { Action } from "../policies";
import type { SignedIn } from "../policies/principal";
import { chunkMethod } from "../ingestion/chunkers/registry";
import { documentTypeOf, fileExtension } from "../ingestion/file-types";
import { PARSE_JOB } from "./parse.job";
import { Conflict, DomainError, FieldChecks, Invalid, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import { documentsMatching, type MetadataCondition } from "./metadata-condition";
import type { Platform } from "../platform";
import { deleteChunks } from "./chunk-store";
import { Document, RUN, type RunStatus } from "./document.entity";
import { parseRuns, publishProgress } from "./document-events";
import { appendLogLine, logMessage } from "../ingestion/parse-log";
import { KnowledgeBase } from "./knowledge-base.entity";
import type { KnowledgeBaseService } from "./knowledge-base.service";
import { changeMetadata, summarizeMetadata, type MetadataDelete, type MetadataKeySummary, type MetadataUpdate } from "./document-metadata";
import { parseJobId, progressEventsOf, queuePositions } from "./parse-queue";
import { chunkMethodDefaults, deepMerge, documentParserConfig, parserConfigViolations } from "./parser-config";
import { putCounted, StagedUpload } from "./staged-upload";
import { UploadGate, type UploadPass } from "./upload-gate";
import type { StoredBytes } from "./stored-bytes";
import { fetchPage } from "./web-crawl";

export const MAX_NAME_BYTES = 255;
/** A document made of a file of the file manager, sharing its bytes. */
export const LINKED_FILE_SOURCE = "file";
/** How often an upload names its files again after losing a name to a concurrent upload. */
const NAMING_ATTEMPTS = 10;

export interface UploadedFile {
  name: string;
  data: Buffer;
}

export interface DocumentQuery {
  /** Case-insensitive part of the name. */
  search?: string;
  runs?: RunStatus[];
  suffixes?: string[];
  page?: number;
  pageSize?: number;
  orderBy?: "createdAt" | "updatedAt" | "name" | "size";
  desc?: boolean;
  /** Only documents whose metadata meets this condition. */
  metadata?: MetadataCondition;
  /** Only documents from these sources (local, empty, web, file). */
  sourceTypes?: string[];
}

/** What a document is made from, besides its bytes. */
interface FileOrigin {
  name: string;
  type: string;
  sourceType: string;
  sourceUrl: string | null;
}

interface NewFile extends FileOrigin {
  data: Buffer;
}

/** A file in the object store that is not a document yet. */
interface StagedFile extends FileOrigin {
  id: string;
  storageKey: string;
  size: number;
}

/** A file already in the object store (the file manager's) that a document is made of without copying its bytes. */
export interface StoredFileRef {
  name: string;
  storageKey: string;
  size: number;
}

/** Why one file of an upload was refused (the REST facade keeps the others, as RAGFlow does). */
export interface UploadRefusal {
  name: string;
  messageKey: string;
}

/** What an upload needs from the DocumentService, bound to its principal and knowledge base. */
interface UploadStore {
  stage(name: string, body: Buffer | Readable): Promise<StagedFile>;
  createDocuments(staged: StagedFile[]): Promise<Document[]>;
  discard(staged: StagedFile[]): Promise<void>;
}

/**
 * An upload into a knowledge base under way (from DocumentService.startUpload); its files become documents at
 * `finish`. A file refused for its name or type is skipped with `partial` (RAGFlow's REST behaviour) and refuses the
 * whole upload otherwise; too many files, a file past 10 MB or a full quota refuse the whole upload.
 */
export class DocumentUpload extends StagedUpload<StagedFile, { documents: Document[]; refused: UploadRefusal[] }> {
  private readonly refused: UploadRefusal[] = [];

  constructor(
    private readonly store: UploadStore,
    pass: UploadPass,
    private readonly partial: boolean,
  ) {
    super(pass);
  }

  protected async stage(name: string, body: Buffer | Readable): Promise<StagedFile | undefined> {
    const refusal = DocumentService.refusalOf(name);
    if (refusal && !this.partial) throw Invalid([{ field: name, messageKey: refusal, params: { name } }]);
    if (refusal) {
      this.refused.push({ name, messageKey: refusal });
      if (!Buffer.isBuffer(body)) body.resume();
      return undefined;
    }
    return this.store.stage(name, body);
  }

  protected async complete(staged: StagedFile[]): Promise<{ documents: Document[]; refused: UploadRefusal[] }> {
    return { documents: await this.store.createDocuments(staged), refused: this.refused };
  }

  protected discard(staged: StagedFile[]): Promise<void> {
    return this.store.discard(staged);
  }
}

/** The chunk method a file gets: pictures, slides and e-mails have their own, others take the knowledge base's (RAGFlow's rule). */
export function chunkMethodForFile(name: string, type: string, knowledgeBaseMethod: string): string {
  const extension = fileExtension(name);
  if (type === "visual") return "picture";
  if (["ppt", "pptx", "pages"].includes(extension)) return "presentation";
  if (["eml", "msg"].includes(extension)) return "email";
  return knowledgeBaseMethod;
}


/** A knowledge base the principal may not see hides its documents too; a refusal of what it may see passes as it is. */
function documentNotFoundIfUnseen(error: unknown): never {
  if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("errors.knowledge.documentNotFound");
  throw error;
}

/** Documents of knowledge bases: upload, crawl, settings, parsing runs, removal. */
export class DocumentService {
  private readonly repository: Repository<Document>;
  private readonly uploadGate: UploadGate;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBases: KnowledgeBaseService,
    private readonly storedObjects: StoredBytes,
    private readonly bin: BinService,
  ) {
    this.repository = platform.db.getRepository(Document);
    this.uploadGate = new UploadGate(platform.config.uploads);
  }

  /** A document whose knowledge base this principal may act on so (documents are answered by their knowledge base's policy). */
  async accessible(principal: SignedIn, id: string, action: Action = "read"): Promise<Document> {
    const document = await this.repository.findOneBy({ id, binnedIn: IsNull() });
    if (!document) throw NotFound("errors.knowledge.documentNotFound");
    await this.knowledgeBases.accessible(principal, document.knowledgeBaseId, action).catch(documentNotFoundIfUnseen);
    return document;
  }

  /** Documents by id, in the order asked, each checked as `accessible` does; one query per knowledge base. */
  private async accessibleMany(principal: SignedIn, ids: string[], action: Action): Promise<Document[]> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.repository.findBy({ id: In(unique), binnedIn: IsNull() })).map((d) => [d.id, d]));
    const refusals = new Map<string, unknown>();
    for (const knowledgeBaseId of new Set([...found.values()].map((d) => d.knowledgeBaseId))) {
      refusals.set(knowledgeBaseId, await this.knowledgeBases.accessible(principal, knowledgeBaseId, action).then(() => null, (error: unknown) => error));
    }
    return unique.map((id) => {
      const document = found.get(id);
      if (!document) throw NotFound("errors.knowledge.documentNotFound");
      const refusal = refusals.get(document.knowledgeBaseId);
      if (refusal) documentNotFoundIfUnseen(refusal);
      return document;
    });
  }

  async list(principal: SignedIn, knowledgeBaseId: string, query: DocumentQuery = {}): Promise<{ total: number; items: Document[] }> {
    await this.knowledgeBases.accessible(principal, knowledgeBaseId);
    const builder = this.repository.createQueryBuilder("d").where("d.knowledgeBaseId = :knowledgeBaseId AND d.binnedIn IS NULL", { knowledgeBaseId });
    if (query.search?.trim()) builder.andWhere("d.name ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    if (query.runs?.length) builder.andWhere("d.run IN (:...runs)", { runs: query.runs });
    if (query.sourceTypes?.length) builder.andWhere("d.sourceType IN (:...sourceTypes)", { sourceTypes: query.sourceTypes });
    if (query.suffixes?.length) builder.andWhere("d.suffix IN (:...suffixes)", { suffixes: query.suffixes.map((s) => s.toLowerCase()) });
    if (query.metadata) builder.andWhere("d.id = ANY(:meeting)", { meeting: await this.meetingCondition([knowledgeBaseId], query.metadata) });
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    builder.orderBy(`d.${query.orderBy ?? "createdAt"}`, query.desc === false ? "ASC" : "DESC").addOrderBy("d.id", "ASC");
    if (pageSize === 0) return { total: await builder.getCount(), items: [] };
    const [items, total] = await builder.skip((page - 1) * pageSize).take(pageSize).getManyAndCount();
    return { total, items };
  }

  /**
   * Names for new documents: each as given, or "name(1).ext", "name(2).ext"… when the knowledge base (or an
   * earlier file of the same batch) has it, compared case-insensitively. One query for the whole batch.
   */
  private async uniqueNames(knowledgeBaseId: string, names: string[]): Promise<string[]> {
    const split = names.map((name) => {
      const dot = name.lastIndexOf(".");
      return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    });
    const like = (text: string) => escapeLike(text.toLowerCase());
    const rows: { name: string }[] = await this.platform.db.query(
      `SELECT lower(name) AS name FROM document WHERE knowledge_base_id = $1 AND binned_in IS NULL AND (lower(name) = ANY($2) OR lower(name) LIKE ANY($3))`,
      [knowledgeBaseId, names.map((n) => n.toLowerCase()), split.map(([stem, extension]) => `${like(stem)}(%)${like(extension)}`)],
    );
    const taken = new Set(rows.map((r) => r.name));
    return names.map((name, i) => {
      const [stem, extension] = split[i];
      let candidate = name;
      for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}(${n})${extension}`;
      taken.add(candidate.toLowerCase());
      return candidate;
    });
  }

  /** Why a file cannot be taken, by its name, or null. */
  static refusalOf(name: string): string | null {
    if (!name) return "errors.knowledge.noFileSelected";
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) return "errors.knowledge.nameTooLongBytes";
    if (!documentTypeOf(name)) return "errors.knowledge.fileTypeUnsupported";
    return null;
  }

  /**
   * Opens an upload into a knowledge base: each file is stored as its bytes arrive (`receive`), and the files become
   * documents together at `finish`. Too many uploads under way at once are refused with TOO_MANY_REQUESTS.
   */
  async startUpload(principal: SignedIn, knowledgeBaseId: string, options: { partial?: boolean } = {}): Promise<DocumentUpload> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    const pass = this.uploadGate.enter(kb.tenantId);
    return new DocumentUpload(
      {
        stage: (name, body) => this.stage(pass, kb, { name, type: documentTypeOf(name)!, sourceType: "local", sourceUrl: null }, body),
        createDocuments: (staged) => this.createDocuments(principal, kb, staged),
        discard: (staged) => this.discard(staged),
      },
      pass,
      options.partial ?? false,
    );
  }

  /** Uploads files already in memory, as `startUpload` does with files that stream in. */
  async upload(principal: SignedIn, knowledgeBaseId: string, files: UploadedFile[], options: { partial?: boolean } = {}): Promise<{ documents: Document[]; refused: UploadRefusal[] }> {
    const upload = await this.startUpload(principal, knowledgeBaseId, options);
    try {
      for (const file of files) await upload.receive(file.name, file.data);
    } catch (error) {
      await upload.abandon();
      throw error;
    }
    return upload.finish();
  }

  /** Stores documents the server made (a crawled page, an empty document), under the same limits as uploads. */
  private async store(principal: SignedIn, kb: KnowledgeBase, files: NewFile[]): Promise<Document[]> {
    const pass = this.uploadGate.enter(kb.tenantId);
    const staged: StagedFile[] = [];
    try {
      for (const file of files) staged.push(await this.stage(pass, kb, file, file.data));
      return await this.createDocuments(principal, kb, staged);
    } catch (error) {
      await this.discard(staged);
      throw error;
    } finally {
      pass.leave();
    }
  }

  /**
   * Stores one file's bytes under a new document id, counting them as they arrive: past 10 MB (§9) or past the
   * tenant's quota the store fails with the reason and keeps nothing of the file.
   */
  private async stage(pass: UploadPass, kb: KnowledgeBase, file: FileOrigin, body: Buffer | Readable): Promise<StagedFile> {
    const id = newId();
    const storageKey = `${kb.id}/${id}`;
    const storedBytes = this.uploadGate.quotaBytes === undefined ? 0 : await this.storedBytes(kb.tenantId);
    const size = await putCounted(this.platform.storage, storageKey, body, pass, storedBytes);
    return { ...file, id, storageKey, size };
  }

  /** The bytes of the documents a tenant has stored. */
  private async storedBytes(tenantId: string): Promise<number> {
    const [row]: { total: string }[] = await this.platform.db.query(`SELECT COALESCE(SUM(size), 0) AS total FROM document WHERE tenant_id = $1`, [tenantId]);
    return Number(row.total);
  }

  private async discard(staged: StagedFile[]): Promise<void> {
    await Promise.all(staged.map((file) => this.platform.storage.delete(file.storageKey).catch(() => undefined)));
  }

  /**
   * Documents for stored files, under unique names. Two uploads of one name at the same moment can both pick the
   * same free name; the unique index refuses the later one, which then names its files again.
   */
  private async createDocuments(principal: SignedIn, kb: KnowledgeBase, staged: StagedFile[]): Promise<Document[]> {
    if (staged.length === 0) return [];
    for (let attempt = 1; ; attempt++) {
      const names = await this.uniqueNames(kb.id, staged.map((f) => f.name));
      try {
        return await this.insertDocuments(principal, kb, staged.map((file, i) => ({ ...file, name: names[i] })));
      } catch (error) {
        if ((error as { code?: string }).code !== "23505" || attempt === NAMING_ATTEMPTS) throw error;
      }
    }
  }

  /** The rows of files already stored: a document never points at a file that is not there. */
  private async insertDocuments(principal: SignedIn, kb: KnowledgeBase, files: StagedFile[]): Promise<Document[]> {
    const documents = files.map((file) => {
      const method = chunkMethodForFile(file.name, file.type, kb.chunkMethod);
      return this.repository.create({
        id: file.id,
        knowledgeBaseId: kb.id,
        tenantId: kb.tenantId,
        createdBy: principal.user.id,
        name: file.name,
        type: file.type,
        suffix: fileExtension(file.name),
        sourceType: file.sourceType,
        sourceUrl: file.sourceUrl,
        storageKey: file.storageKey,
        size: file.size,
        chunkMethod: method,
        parserConfig: method === kb.chunkMethod ? kb.parserConfig : deepMerge(chunkMethodDefaults(method), { llm_id: kb.parserConfig.llm_id }),
        enabled: true,
        run: RUN.unstarted,
        runId: null,
        progress: 0,
        progressMsg: "",
        progressLog: [],
        processBeginAt: null,
        processDuration: 0,
        chunkCount: 0,
        tokenCount: 0,
        pageCount: null,
        metaFields: {},
      });
    });
    await this.repository.insert(documents as never);
    const stored = await this.repository.findBy({ id: In(documents.map((d) => d.id)) });
    return documents.map((d) => stored.find((s) => s.id === d.id)!);
  }

  /**
   * Makes documents of files already stored (the file manager's links), without copying their bytes: each document
   * names the file's storage key, and StoredBytes keeps those bytes while the file or any document holds them.
   * A name the knowledge base has becomes "name(1).ext", as for uploads; a type no parser reads is refused.
   */
  async adopt(principal: SignedIn, knowledgeBaseId: string, files: StoredFileRef[]): Promise<Document[]> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    const checks = new FieldChecks();
    for (const file of files) {
      const refusal = DocumentService.refusalOf(file.name);
      checks.check(refusal === null, file.name, refusal ?? "", { name: file.name });
    }
    checks.throwIfAny();
    const staged = files.map((file) => ({ id: newId(), name: file.name, type: documentTypeOf(file.name)!, sourceType: LINKED_FILE_SOURCE, sourceUrl: null, storageKey: file.storageKey, size: file.size }));
    return this.createDocuments(principal, kb, staged);
  }

  /** A new empty document (a .txt file with no content) that chunks can be added to by hand. */
  async createEmpty(principal: SignedIn, knowledgeBaseId: string, name: string): Promise<Document> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    const trimmed = name.trim();
    const checks = new FieldChecks();
    checks.check(trimmed.length > 0, "name", "errors.knowledge.documentNameRequired");
    checks.check(Buffer.byteLength(trimmed) <= MAX_NAME_BYTES, "name", "errors.knowledge.nameTooLongBytes");
    checks.throwIfAny();
    const fileName = documentTypeOf(trimmed) ? trimmed : `${trimmed}.txt`;
    const [document] = await this.store(principal, kb, [{ name: fileName, type: "virtual", data: Buffer.alloc(0), sourceType: "empty", sourceUrl: null }]);
    return document;
  }

  /** Fetches a web page into the knowledge base as an HTML document. */
  async crawl(principal: SignedIn, knowledgeBaseId: string, url: string, name?: string): Promise<Document> {
    const kb = await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    const page = await fetchPage(url, { allowPrivate: this.platform.config.crawlPrivateAddresses });
    const given = name?.trim() || new URL(page.url).hostname + new URL(page.url).pathname.replace(/\/+$/, "").replace(/[^\w.-]+/g, "_");
    const html = /html|xml/.test(page.contentType) || page.contentType === "";
    const fileName = /\.(html?)$/i.test(given) || !html ? given : `${given}.html`;
    if (!documentTypeOf(fileName)) throw new DomainError("BAD_REQUEST", "errors.knowledge.fileTypeUnsupported", { name: fileName });
    const [document] = await this.store(principal, kb, [{ name: fileName.slice(0, 200), type: documentTypeOf(fileName)!, data: page.body, sourceType: "web", sourceUrl: page.url }]);
    return document;
  }

  async rename(principal: SignedIn, id: string, name: string): Promise<Document> {
    const document = await this.accessible(principal, id, "manage");
    const trimmed = name.trim();
    const checks = new FieldChecks();
    checks.check(trimmed.length > 0, "name", "errors.knowledge.documentNameRequired");
    checks.check(Buffer.byteLength(trimmed) <= MAX_NAME_BYTES, "name", "errors.knowledge.nameTooLongBytes");
    checks.check(fileExtension(trimmed) === document.suffix, "name", "errors.knowledge.extensionChanged");
    checks.throwIfAny();
    if (trimmed === document.name) return document;
    if (await this.repository.existsBy({ knowledgeBaseId: document.knowledgeBaseId, name: trimmed, binnedIn: IsNull() })) throw Conflict("errors.knowledge.documentNameTaken", { name: trimmed });
    await this.repository.update({ id }, { name: trimmed });
    return this.repository.findOneByOrFail({ id });
  }

  /** Changes how a document is chunked; its chunks go and it waits to be parsed again. */
  async changeParser(principal: SignedIn, id: string, method: string, parserConfig?: Record<string, unknown> | null): Promise<Document> {
    const document = await this.accessible(principal, id, "manage");
    const checks = new FieldChecks();
    checks.check(chunkMethod(method) !== undefined, "chunkMethod", "errors.knowledge.chunkMethodUnknown", { method });
    for (const v of parserConfig ? parserConfigViolations(parserConfig, "document") : []) checks.check(false, `parserConfig.${v.path}`, "errors.invalidField", { field: v.path });
    checks.throwIfAny();
    if (document.run === RUN.running) throw Conflict("errors.knowledge.documentBusy");
    const config =
      parserConfig && Object.keys(parserConfig).length > 0
        ? documentParserConfig(document.parserConfig, parserConfig)
        : method !== document.chunkMethod
          ? deepMerge(document.parserConfig, chunkMethodDefaults(method))
          : document.parserConfig;
    await this.platform.db.transaction(async (manager) => {
      await deleteChunks(manager, document.id);
      await manager.update(Document, { id }, { chunkMethod: method, parserConfig: config as never, run: RUN.unstarted, runId: null, progress: 0, progressMsg: "", progressLog: [], failure: null });
    });
    return this.repository.findOneByOrFail({ id });
  }

  async setEnabled(principal: SignedIn, ids: string[], enabled: boolean): Promise<Document[]> {
    const documents = await this.accessibleMany(principal, ids, "manage");
    await this.repository.update({ id: In(documents.map((d) => d.id)) }, { enabled });
    return this.repository.findBy({ id: In(documents.map((d) => d.id)) });
  }

  /** Replaces a document's metadata (RAGFlow's meta_fields), which retrieval and listing can filter on. */
  async setMetaFields(principal: SignedIn, id: string, metaFields: Record<string, unknown>): Promise<Document> {
    await this.accessible(principal, id, "manage");
    await this.repository.update({ id }, { metaFields: metaFields as never });
    return this.repository.findOneByOrFail({ id });
  }

  /** The ids of the documents of these knowledge bases whose metadata meets the condition (callers check access). */
  async meetingCondition(knowledgeBaseIds: string[], condition: MetadataCondition): Promise<string[]> {
    if (knowledgeBaseIds.length === 0) return [];
    const documents = await this.repository.find({ where: { knowledgeBaseId: In(knowledgeBaseIds), binnedIn: IsNull() }, select: { id: true, metaFields: true } });
    return documentsMatching(documents, condition);
  }

  /** The metadata keys of a knowledge base's documents (or of the listed ones), with their values counted. */
  async metadataSummary(principal: SignedIn, knowledgeBaseId: string, documentIds?: string[]): Promise<Record<string, MetadataKeySummary>> {
    await this.knowledgeBases.accessible(principal, knowledgeBaseId);
    const documents = await this.repository.find({
      where: { knowledgeBaseId, binnedIn: IsNull(), ...(documentIds?.length ? { id: In(documentIds) } : {}) },
      select: { id: true, metaFields: true },
      order: { createdAt: "ASC", id: "ASC" },
    });
    return summarizeMetadata(documents.map((d) => d.metaFields ?? {}));
  }

  /** Applies metadata changes to these documents of a knowledge base; answers how many changed. */
  async changeMetadata(principal: SignedIn, knowledgeBaseId: string, documentIds: string[], updates: MetadataUpdate[], deletes: MetadataDelete[]): Promise<number> {
    await this.knowledgeBases.accessible(principal, knowledgeBaseId, "manage");
    if (documentIds.length === 0) return 0;
    const documents = await this.repository.find({ where: { knowledgeBaseId, id: In(documentIds) }, select: { id: true, metaFields: true } });
    let changed = 0;
    for (const document of documents) {
      const meta = changeMetadata(document.metaFields ?? {}, updates, deletes);
      if (!meta) continue;
      await this.repository.update({ id: document.id }, { metaFields: meta as never });
      changed += 1;
    }
    return changed;
  }

  /** Moves documents into the recycle bin (the web app's delete): their chunks and vectors wait with them, unretrievable. */
  async delete(principal: SignedIn, ids: string[]): Promise<number> {
    const documents = await this.accessibleMany(principal, ids, "manage");
    const kbs = new Map<string, string>();
    for (const id of new Set(documents.map((d) => d.knowledgeBaseId))) kbs.set(id, (await this.knowledgeBases.accessible(principal, id)).name);
    await this.bin.put(principal, WorkKind.document, documents.map((d) => ({ id: d.id, tenantId: d.tenantId, name: d.name, detail: { parentName: kbs.get(d.knowledgeBaseId) } })));
    return documents.length;
  }

  /** Destroys documents with their chunks and stored files (the REST API's delete, and unlinking a file). */
  async destroy(principal: SignedIn, ids: string[]): Promise<number> {
    const documents = await this.accessibleMany(principal, ids, "manage");
    for (const document of documents) {
      const release = await this.platform.db.transaction((manager) => this.destroyRows(manager, [document.id]));
      await release();
    }
    return documents.length;
  }

  /** Deletes the rows of documents with their chunks; answers how to release their bytes once that is committed. */
  async destroyRows(manager: EntityManager, ids: string[]): Promise<() => Promise<void>> {
    const documents: { id: string; storage_key: string }[] = await manager.query(`SELECT id, storage_key FROM document WHERE id = ANY($1)`, [ids]);
    const images: { image_key: string }[] = await manager.query(`SELECT image_key FROM chunk WHERE document_id = ANY($1) AND image_key IS NOT NULL`, [ids]);
    for (const { id } of documents) await deleteChunks(manager, id);
    await manager.delete(Document, { id: In(ids) });
    return () => this.storedObjects.release([...documents.map((d) => d.storage_key), ...images.map((i) => i.image_key)]);
  }

  /** A document's stored bytes, for a caller that has checked access (an empty document has none stored). */
  async fileBytes(document: Document): Promise<Buffer> {
    return document.size === 0 ? Buffer.alloc(0) : this.platform.storage.getBuffer(document.storageKey);
  }

  async download(principal: SignedIn, id: string): Promise<{ document: Document; body: Readable }> {
    const document = await this.accessible(principal, id);
    return { document, body: await this.platform.storage.get(document.storageKey) };
  }

  /**
   * Queues parsing: each document's old chunks go, it turns to "parsing" with a new run id, and a job is
   * queued under that id (a cancelled or superseded job sees another run id and stops).
   */
  async runParsing(principal: SignedIn, ids: string[]): Promise<Document[]> {
    const documents = await this.accessibleMany(principal, ids, "manage");
    const runIds = documents.map(() => newId());
    const beginAt = new Date();
    await this.platform.db.transaction(async (manager) => {
      for (const document of documents) if (document.chunkCount > 0) await deleteChunks(manager, document.id);
      await manager.query(
        `UPDATE document SET run = $3, run_id = t.run_id, progress = 0, progress_msg = '', progress_log = '[]', process_begin_at = $4, process_duration = 0, parse_attempts = 0, failure = NULL, updated_at = now()
         FROM unnest($1::varchar[], $2::varchar[]) AS t(id, run_id) WHERE document.id = t.id`,
        [documents.map((d) => d.id), runIds, RUN.running, beginAt],
      );
    });
    const started = await this.repository.findBy({ id: In(documents.map((d) => d.id)) });
    for (const [i, document] of documents.entries()) {
      await this.platform.queue.enqueue(PARSE_JOB, { documentId: document.id, runId: runIds[i] }, { jobId: parseJobId(document.id, runIds[i]) });
    }
    for (const event of await progressEventsOf(this.platform, started)) publishProgress(this.platform, event);
    return documents.map((d) => started.find((s) => s.id === d.id)!);
  }

  /** The places in the parse queue of those of these documents that wait for a worker (1 = next). */
  queuePositions(documents: Document[]): Promise<Map<string, number>> {
    return queuePositions(this.platform, documents);
  }

  /** Stops parsing: the job stops at its next check, the document is "cancelled" and keeps no chunks. */
  async cancelParsing(principal: SignedIn, ids: string[]): Promise<Document[]> {
    const documents = await this.accessibleMany(principal, ids, "manage");
    for (const document of documents) {
      if (document.run !== RUN.running) continue;
      await this.platform.db.transaction(async (manager) => {
        const log = appendLogLine(document, logMessage("parseLog.cancelled"));
        // TypeORM cannot type a partial update of a JSON record
        await manager.update(Document, { id: document.id }, { run: RUN.cancelled, runId: null, progress: 0, progressMsg: log.progressMsg, progressLog: log.progressLog as never });
        await deleteChunks(manager, document.id);
      });
      parseRuns(this.platform).cancel(document.id);
      publishProgress(this.platform, await this.repository.findOneByOrFail({ id: document.id }));
    }
    return this.repository.findBy({ id: In(documents.map((d) => d.id)) });
  }
}
