import { Readable } from "node:stream";
import { In, IsNull, type EntityManager, type Repository } from "typeorm";
import { documentTypeOf, fileExtension } from "../ingestion/file-types";
import type { Preview } from "../ingestion/preview/preview";
import type { Previews } from "../ingestion/preview/previews";
import { DocumentService, LINKED_FILE_SOURCE } from "../knowledge/document.service";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import type { ObjectHolders, StoredBytes } from "../knowledge/stored-bytes";
import { UploadGate } from "../knowledge/upload-gate";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import { authorize, can, type Action, type FileResource } from "../policies";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { Conflict, DomainError, Invalid, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { escapeLike } from "../platform/sql";
import { FileLink } from "./file-link.entity";
import { checkedName, freeName, KNOWLEDGE_BASE_FOLDER } from "./file-names";
import { FileUpload, type StagedFile } from "./file-upload";
import { FileNode } from "./file.entity";
import { FileKind, FileSort, type FileDeletionImpact, type FileEntry, type FileKnowledgeBaseLink, type FilePage, type LinkedDocument } from "./file.types";
import { KnowledgeBaseViews, readOnly, viewIdOf } from "./knowledge-base-views";

export interface FileQuery {
  parentId?: string | null;
  search?: string | null;
  sort?: FileSort | null;
  desc?: boolean | null;
  page?: number | null;
  pageSize?: number | null;
}

export interface FileServiceParts {
  knowledgeBases: KnowledgeBaseService;
  documents: DocumentService;
  storedBytes: StoredBytes;
  previews: Previews;
  bin: BinService;
}

/** RAGFlow's page size for file lists (contract §1.9), and a bound on what one page may ask. */
export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;
/** How often an upload makes its rows again after losing a name to a concurrent one. */
const NAMING_ATTEMPTS = 10;
const ROOT_NAME = "/";

/** The files' side of StoredBytes: a stored object a file names is held, whoever else lets it go. */
export function fileObjectHolders(platform: Platform): ObjectHolders {
  return {
    async held(keys) {
      const rows: { storage_key: string }[] = await platform.db.query(`SELECT DISTINCT storage_key FROM file WHERE storage_key = ANY($1)`, [keys]);
      return new Set(rows.map((r) => r.storage_key));
    },
  };
}

const notFound = () => NotFound("errors.file.notFound");
const folderNotFound = () => NotFound("errors.file.folderNotFound");
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

interface LinkRow {
  id: string;
  created_at: Date;
  file_id: string;
  document_id: string;
  document_name: string;
  kb_id: string;
  kb_name: string;
  tenant_id: string;
  created_by: string;
  permission: string;
}

/**
 * The file manager: a folder tree per tenant (its root made on first use), files whose bytes are in the object store,
 * their links to knowledge bases (a linked file is a document there, sharing its bytes), and the read-only
 * .knowledgebase/ views. Every rule of files is here; resolvers and routes only parse and present.
 */
export class FileService {
  private readonly repository: Repository<FileNode>;
  private readonly links: Repository<FileLink>;
  private readonly views: KnowledgeBaseViews;
  private readonly uploadGate: UploadGate;

  constructor(
    private readonly platform: Platform,
    private readonly parts: FileServiceParts,
  ) {
    this.repository = platform.db.getRepository(FileNode);
    this.links = platform.db.getRepository(FileLink);
    this.views = new KnowledgeBaseViews(parts.knowledgeBases, parts.documents);
    // Its own count of uploads at once, under the same limits as documents' (UPLOADS_PER_PROCESS, UPLOADS_PER_TENANT).
    this.uploadGate = new UploadGate(platform.config.uploads);
  }

  // ── Reading ──────────────────────────────────────────────────────────────────────────────────────────────────

  /** The principal's root folder, made on first use (one per tenant: a concurrent first use finds the other's). */
  async root(principal: SignedIn): Promise<FileNode> {
    const existing = await this.repository.findOneBy({ tenantId: principal.tenantId, parentId: IsNull() });
    if (existing) return existing;
    await this.platform.db.query(
      `INSERT INTO file (id, tenant_id, parent_id, created_by, name, kind, suffix, type, size, storage_key, source_type)
       VALUES ($1, $2, NULL, $2, $3, 'folder', '', 'folder', 0, NULL, '') ON CONFLICT (tenant_id) WHERE parent_id IS NULL DO NOTHING`,
      [newId(), principal.tenantId, ROOT_NAME],
    );
    return this.repository.findOneByOrFail({ tenantId: principal.tenantId, parentId: IsNull() });
  }

  /** A folder's entries, folders first, with the breadcrumbs from the root; the root's start with .knowledgebase. */
  async list(principal: SignedIn, query: FileQuery): Promise<FilePage> {
    const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, query.pageSize ?? DEFAULT_PAGE_SIZE));
    const page = Math.max(1, query.page ?? 1);
    const sort = query.sort ?? FileSort.updatedAt;
    const desc = query.desc ?? true;
    const search = query.search?.trim() ?? "";
    const root = await this.root(principal);
    const view = query.parentId ? viewIdOf(query.parentId) : null;
    if (view) {
      const listing = await this.views.list(principal, view, { search, sort, desc, page, pageSize }, root.id);
      const [rootEntry] = await this.present(principal, [root]);
      return { ...listing, path: [rootEntry, ...(await this.views.path(principal, view, root.id))] };
    }
    const folder = query.parentId ? await this.node(principal, query.parentId, "read") : root;
    if (folder.kind !== "folder") throw folderNotFound();
    const knowledgeBaseFolder = folder.id === root.id && KNOWLEDGE_BASE_FOLDER.includes(search.toLowerCase()) ? await this.views.rootEntry(principal, root.id) : null;
    const extra = knowledgeBaseFolder ? 1 : 0;
    const offset = (page - 1) * pageSize;
    const order = { name: "lower(name)", size: "size", updatedAt: "updated_at", createdAt: "created_at" }[sort];
    const where = `parent_id = $1 AND binned_in IS NULL${search ? ` AND name ILIKE $2` : ""}`;
    const params: unknown[] = [folder.id, ...(search ? [`%${escapeLike(search)}%`] : [])];
    const [{ count }]: { count: string }[] = await this.platform.db.query(`SELECT count(*) AS count FROM file WHERE ${where}`, params);
    const rows: { id: string }[] = await this.platform.db.query(
      `SELECT id FROM file WHERE ${where} ORDER BY (kind = 'folder') DESC, ${order} ${desc ? "DESC" : "ASC"}, lower(name) ASC, id ASC OFFSET ${Math.max(0, offset - extra)} LIMIT ${offset === 0 ? pageSize - extra : pageSize}`,
      params,
    );
    const nodes = await this.byIds(rows.map((r) => r.id));
    const path = await this.ancestors(folder.id);
    const presented = await this.present(principal, [...path, ...nodes]);
    const items = presented.slice(path.length);
    return {
      items: offset === 0 && knowledgeBaseFolder ? [knowledgeBaseFolder, ...items] : items,
      total: Number(count) + extra,
      folder: presented[path.length - 1],
      path: presented.slice(0, path.length),
    };
  }

  /** One file or folder (a .knowledgebase/ view too). */
  async entry(principal: SignedIn, id: string): Promise<FileEntry> {
    const view = viewIdOf(id);
    if (view) return this.views.entry(principal, view, (await this.root(principal)).id);
    const [entry] = await this.present(principal, [await this.node(principal, id, "read")]);
    return entry;
  }

  /** The folders from the root down to a file or folder, itself last (the breadcrumbs of an entry). */
  async lineage(principal: SignedIn, id: string): Promise<FileEntry[]> {
    const root = await this.root(principal);
    const view = viewIdOf(id);
    if (view) return [...(await this.present(principal, [root])), ...(await this.views.path(principal, view, root.id))];
    await this.node(principal, id, "read");
    // A team member may read a shared file without its folders: those stay unnamed.
    return (await this.present(principal, await this.ancestors(id))).filter((entry) => entry.can.read);
  }

  /** The sub-folders of a folder, by name, for the destination picker; no parent: the root itself. Views are no destination. */
  async folders(principal: SignedIn, parentId: string | null): Promise<FileEntry[]> {
    if (!parentId) return this.present(principal, [await this.root(principal)]);
    if (viewIdOf(parentId)) return [];
    const parent = await this.node(principal, parentId, "read");
    if (parent.kind !== "folder") throw folderNotFound();
    const children = await this.repository.createQueryBuilder("f").where("f.parentId = :id AND f.kind = 'folder' AND f.binnedIn IS NULL", { id: parent.id }).orderBy("lower(f.name)", "ASC").getMany();
    return this.present(principal, children);
  }

  /** The ancestors of a file or folder, the root first and itself last. */
  async ancestors(id: string): Promise<FileNode[]> {
    const rows: { id: string }[] = await this.platform.db.query(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM file WHERE id = $1
         UNION ALL SELECT f.id, f.parent_id, up.depth + 1 FROM file f JOIN up ON f.id = up.parent_id)
       SELECT id FROM up ORDER BY depth DESC`,
      [id],
    );
    return this.byIds(rows.map((r) => r.id));
  }

  /** A folder to put things in (no id: the root), which the principal may manage. */
  async targetFolder(principal: SignedIn, id: string | null, action: Action = "manage"): Promise<FileNode> {
    if (!id) return this.root(principal);
    if (viewIdOf(id)) throw readOnly();
    const folder = await this.node(principal, id, action);
    if (folder.kind !== "folder") throw folderNotFound();
    return folder;
  }

  // ── Folders, names, moves ────────────────────────────────────────────────────────────────────────────────────

  async createFolder(principal: SignedIn, parentId: string | null, name: string): Promise<FileEntry> {
    const parent = await this.targetFolder(principal, parentId);
    const checked = this.checkedNameIn(parent, name);
    await this.refuseTakenName(parent.id, checked, "errors.file.folderNameTaken");
    const folder = this.repository.create({ id: newId(), tenantId: parent.tenantId, parentId: parent.id, createdBy: principal.user.id, name: checked, kind: "folder", suffix: "", type: "folder", size: 0, storageKey: null, sourceType: "" });
    await this.insertNamed(() => this.repository.insert(folder), checked, "errors.file.folderNameTaken");
    return this.entry(principal, folder.id);
  }

  /** An empty file of no stored bytes (RAGFlow's "virtual" file), under a name free in its folder. */
  async createEmpty(principal: SignedIn, parentId: string | null, name: string): Promise<FileEntry> {
    const parent = await this.targetFolder(principal, parentId);
    const checked = this.checkedNameIn(parent, name);
    await this.refuseTakenName(parent.id, checked, "errors.file.nameTaken");
    const file = this.repository.create({ id: newId(), tenantId: parent.tenantId, parentId: parent.id, createdBy: principal.user.id, name: checked, kind: "file", suffix: fileExtension(checked), type: "virtual", size: 0, storageKey: null, sourceType: "" });
    await this.insertNamed(() => this.repository.insert(file), checked, "errors.file.nameTaken");
    return this.entry(principal, file.id);
  }

  /** Renames a file (its extension stays, as a document's does) or a folder; the name stays free among its siblings. */
  async rename(principal: SignedIn, id: string, name: string): Promise<FileEntry> {
    if (viewIdOf(id)) throw readOnly();
    const node = await this.node(principal, id, "manage");
    if (!node.parentId) throw readOnly();
    const parent = await this.repository.findOneByOrFail({ id: node.parentId });
    const checked = this.checkedNameIn(parent, name);
    if (node.kind === "file" && fileExtension(checked) !== node.suffix) throw Invalid([{ field: "name", messageKey: "errors.file.extensionChanged" }]);
    if (checked === node.name) return this.entry(principal, id);
    if (checked.toLowerCase() !== node.name.toLowerCase()) await this.refuseTakenName(parent.id, checked, "errors.file.nameTaken");
    await this.insertNamed(() => this.repository.update({ id }, { name: checked }), checked, "errors.file.nameTaken");
    if (node.kind === "file") await this.renameLinkedDocuments(principal, id, checked);
    return this.entry(principal, id);
  }

  /**
   * A linked file's documents take its new name, as RAGFlow renames them: each in a knowledge base the principal may
   * change, where no other document has that name (there it keeps its own).
   */
  private async renameLinkedDocuments(principal: SignedIn, fileId: string, name: string): Promise<void> {
    for (const row of await this.linkRows([fileId])) {
      if (!can(principal, "manage", knowledgeBaseOf(row))) continue;
      await this.parts.documents.rename(principal, row.document_id, name).catch((error: unknown) => {
        if (!(error instanceof DomainError && error.kind === "CONFLICT")) throw error;
      });
    }
  }

  /** Moves files and folders into a folder of the same tenant: never a folder into itself or below it, never onto a name there. */
  async move(principal: SignedIn, ids: string[], targetId: string): Promise<FileEntry[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    if (unique.some((id) => viewIdOf(id))) throw readOnly();
    const target = await this.targetFolder(principal, targetId);
    const nodes = await this.nodes(principal, unique, "manage");
    if (nodes.some((n) => !n.parentId)) throw readOnly();
    if (nodes.some((n) => n.tenantId !== target.tenantId)) throw notFound();
    const targetLine = new Set((await this.ancestors(target.id)).map((n) => n.id));
    const intoItself = nodes.find((n) => targetLine.has(n.id));
    if (intoItself) throw Invalid([{ field: "targetId", messageKey: "errors.file.moveIntoItself", params: { name: intoItself.name } }]);
    const moving = nodes.filter((n) => n.parentId !== target.id);
    const taken = new Set((await this.repository.find({ where: { parentId: target.id, binnedIn: IsNull() }, select: { name: true } })).map((n) => n.name.toLowerCase()));
    for (const node of moving) {
      if (taken.has(node.name.toLowerCase())) throw Conflict("errors.file.moveNameTaken", { name: node.name });
      taken.add(node.name.toLowerCase());
    }
    if (moving.length > 0) {
      await this.insertNamed(() => this.repository.update({ id: In(moving.map((n) => n.id)) }, { parentId: target.id }), moving[0].name, "errors.file.moveNameTaken");
    }
    return this.present(principal, await this.byIds(unique));
  }

  private checkedNameIn(parent: FileNode, name: string): string {
    const checked = checkedName(name);
    // The root's .knowledgebase is the knowledge bases' view; a folder of that name would hide it.
    if (!parent.parentId && checked.toLowerCase() === KNOWLEDGE_BASE_FOLDER) throw Invalid([{ field: "name", messageKey: "errors.file.nameReserved", params: { name: checked } }]);
    return checked;
  }

  private async refuseTakenName(parentId: string, name: string, messageKey: string): Promise<void> {
    const taken = await this.repository.createQueryBuilder("f").where("f.parentId = :parentId AND lower(f.name) = lower(:name) AND f.binnedIn IS NULL", { parentId, name }).getExists();
    if (taken) throw Conflict(messageKey, { name });
  }

  /** A write the unique sibling-name index may refuse, when another request took the name in between. */
  private async insertNamed(write: () => Promise<unknown>, name: string, messageKey: string): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw Conflict(messageKey, { name });
      throw error;
    }
  }

  // ── Uploads and downloads ────────────────────────────────────────────────────────────────────────────────────

  /**
   * Opens an upload into a folder (no id: the root). Files stream to the object store as they arrive (`receive`, with
   * paths relative to the folder) and get their rows, and the folders of their paths, together at `finish`.
   */
  async startUpload(principal: SignedIn, parentId: string | null, options: { sourceType?: string } = {}): Promise<FileUpload> {
    const parent = await this.targetFolder(principal, parentId);
    const pass = this.uploadGate.enter(parent.tenantId);
    try {
      const stored = this.uploadGate.quotaBytes === undefined ? 0 : await this.storedBytes(parent.tenantId);
      return new FileUpload(this.platform, parent.tenantId, pass, stored, (staged) => this.createUploaded(principal, parent, staged, options.sourceType ?? ""));
    } catch (error) {
      pass.leave();
      throw error;
    }
  }

  /** Uploads files already in memory, as `startUpload` does with files that stream in. */
  async upload(principal: SignedIn, parentId: string | null, files: { path: string; data: Buffer }[]): Promise<FileEntry[]> {
    const upload = await this.startUpload(principal, parentId);
    try {
      for (const file of files) await upload.receive(file.path, file.data);
    } catch (error) {
      await upload.abandon();
      throw error;
    }
    return this.present(principal, await upload.finish());
  }

  /** What a tenant keeps, for the quota: its files, and the documents that are not linked files (those are counted once, as files). */
  private async storedBytes(tenantId: string): Promise<number> {
    const [row]: { total: string }[] = await this.platform.db.query(
      `SELECT (SELECT COALESCE(SUM(size), 0) FROM file WHERE tenant_id = $1) + (SELECT COALESCE(SUM(size), 0) FROM document WHERE tenant_id = $1 AND source_type <> $2) AS total`,
      [tenantId, LINKED_FILE_SOURCE],
    );
    return Number(row.total);
  }

  /** The rows of stored files, with the folders of their paths (found or made), under free names; retried when a concurrent upload took a name. */
  private async createUploaded(principal: SignedIn, parent: FileNode, staged: StagedFile[], sourceType: string): Promise<FileNode[]> {
    if (staged.length === 0) return [];
    for (let attempt = 1; ; attempt++) {
      try {
        const ids = await this.platform.db.transaction((manager) => this.insertUploaded(manager, principal, parent, staged, sourceType));
        return this.byIds(ids);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt === NAMING_ATTEMPTS) throw error;
      }
    }
  }

  private async insertUploaded(manager: EntityManager, principal: SignedIn, parent: FileNode, staged: StagedFile[], sourceType: string): Promise<string[]> {
    const children = new Map<string, FileNode[]>();
    const childrenOf = async (folderId: string) => {
      let list = children.get(folderId);
      if (!list) children.set(folderId, (list = await manager.findBy(FileNode, { parentId: folderId, binnedIn: IsNull() })));
      return list;
    };
    const row = (fields: Partial<FileNode>) => manager.create(FileNode, { id: newId(), tenantId: parent.tenantId, createdBy: principal.user.id, size: 0, storageKey: null, sourceType, suffix: "", ...fields });
    const ids: string[] = [];
    for (const file of staged) {
      let folder = parent;
      for (const segment of file.segments.slice(0, -1)) {
        const siblings = await childrenOf(folder.id);
        const existing = siblings.find((n) => n.name.toLowerCase() === segment.toLowerCase());
        if (existing && existing.kind !== "folder") throw Conflict("errors.file.folderNameTaken", { name: segment });
        if (existing) {
          folder = existing;
          continue;
        }
        if (!folder.parentId && segment.toLowerCase() === KNOWLEDGE_BASE_FOLDER) throw Invalid([{ field: "file", messageKey: "errors.file.nameReserved", params: { name: segment } }]);
        const made = row({ parentId: folder.id, name: segment, kind: "folder", type: "folder" });
        await manager.insert(FileNode, made);
        siblings.push(made);
        folder = made;
      }
      const siblings = await childrenOf(folder.id);
      const name = freeName(file.segments.at(-1)!, new Set(siblings.map((n) => n.name.toLowerCase())));
      const made = row({ id: file.id, parentId: folder.id, name, kind: "file", suffix: fileExtension(name), type: documentTypeOf(name) ?? "other", size: file.size, storageKey: file.storageKey });
      await manager.insert(FileNode, made);
      siblings.push(made);
      ids.push(made.id);
    }
    return ids;
  }

  /** A file's bytes (a .knowledgebase/ file: its document's), streamed. */
  async download(principal: SignedIn, id: string): Promise<{ name: string; size: number; body: Readable }> {
    const view = viewIdOf(id);
    if (view?.kind === "document") {
      await this.views.entry(principal, view, (await this.root(principal)).id);
      const { document, body } = await this.parts.documents.download(principal, view.documentId);
      return { name: document.name, size: document.size, body };
    }
    if (view) throw Invalid([{ field: "id", messageKey: "errors.file.folderNoDownload" }]);
    const node = await this.node(principal, id, "read");
    if (node.kind !== "file") throw Invalid([{ field: "id", messageKey: "errors.file.folderNoDownload" }]);
    return { name: node.name, size: node.size, body: node.storageKey ? await this.platform.storage.get(node.storageKey) : Readable.from([]) };
  }

  /** A file rendered for reading (a .knowledgebase/ file: its document), made once per stored object. */
  async preview(principal: SignedIn, id: string): Promise<Preview> {
    const view = viewIdOf(id);
    if (view?.kind === "document") {
      await this.views.entry(principal, view, (await this.root(principal)).id);
      const document = await this.parts.documents.accessible(principal, view.documentId);
      return this.parts.previews.of(document.storageKey, document.name, () => this.parts.documents.fileBytes(document));
    }
    if (view) throw Invalid([{ field: "id", messageKey: "errors.file.folderNoDownload" }]);
    const node = await this.node(principal, id, "read");
    if (node.kind !== "file") throw Invalid([{ field: "id", messageKey: "errors.file.folderNoDownload" }]);
    const { storageKey } = node;
    // A file made empty has no stored object; its preview is that of no bytes.
    if (!storageKey) return this.parts.previews.of(`${node.tenantId}/files/${node.id}`, node.name, async () => Buffer.alloc(0));
    return this.parts.previews.of(storageKey, node.name, () => this.platform.storage.getBuffer(storageKey));
  }

  // ── Deleting ─────────────────────────────────────────────────────────────────────────────────────────────────

  /** What deleting these would remove: files and folders below them too, and the documents linked to those files. */
  async deletionImpact(principal: SignedIn, ids: string[]): Promise<FileDeletionImpact> {
    return (await this.deletion(principal, ids)).impact;
  }

  /**
   * Moves files and folders into the recycle bin (the web app's delete), each with everything below it and the documents
   * they were linked as; answers what went. A document in a knowledge base the principal may not change (a team member
   * linked the file into theirs) stays, holding the bytes.
   */
  async delete(principal: SignedIn, ids: string[]): Promise<FileDeletionImpact> {
    const { impact, tops } = await this.deletion(principal, ids);
    const folderNames = new Map((await this.byIds([...new Set(tops.map((n) => n.parentId!))])).map((n) => [n.id, n.parentId ? n.name : ""]));
    const removable = impact.documents.filter((d) => d.removed);
    const items = [];
    for (const top of tops) {
      const below = new Set((await this.subtree([top.id])).map((n) => n.id));
      const related = [...new Set(removable.filter((d) => below.has(d.fileId)).map((d) => d.documentId))];
      items.push({ id: top.id, tenantId: top.tenantId, name: top.name, related, detail: { parentName: folderNames.get(top.parentId!) || undefined } });
    }
    await this.parts.bin.put(principal, WorkKind.file, items);
    return impact;
  }

  /** Destroys files and folders (recursively) and the documents they were linked as (the REST API's delete); answers what went. */
  async destroy(principal: SignedIn, ids: string[]): Promise<FileDeletionImpact> {
    const { impact, tops, subtree } = await this.deletion(principal, ids);
    // The documents first (each keeps the bytes the file still holds), then the rows, then the bytes nothing holds.
    const documentIds = [...new Set(impact.documents.filter((d) => d.removed).map((d) => d.documentId))];
    if (documentIds.length > 0) await this.parts.documents.destroy(principal, documentIds);
    await this.repository.delete({ id: In(tops.map((n) => n.id)) });
    await this.parts.storedBytes.release(subtree.flatMap((n) => (n.storageKey ? [n.storageKey] : [])));
    return impact;
  }

  private async deletion(principal: SignedIn, ids: string[]): Promise<{ impact: FileDeletionImpact; tops: FileNode[]; subtree: FileNode[] }> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => viewIdOf(id))) throw readOnly();
    const tops = await this.nodes(principal, unique, "delete");
    if (tops.some((n) => !n.parentId)) throw readOnly();
    const subtree = await this.subtree(tops.map((n) => n.id));
    const files = subtree.filter((n) => n.kind === "file");
    return {
      tops,
      subtree,
      impact: { files: files.length, folders: subtree.length - files.length, documents: (await this.linkRows(files.map((f) => f.id))).map((row) => linkedDocument(principal, row, files)) },
    };
  }

  /** These folders and files and everything below them. */
  private async subtree(ids: string[]): Promise<FileNode[]> {
    const rows: { id: string }[] = await this.platform.db.query(
      `WITH RECURSIVE tree(id) AS (SELECT id FROM file WHERE id = ANY($1) UNION SELECT f.id FROM file f JOIN tree ON f.parent_id = tree.id WHERE f.binned_in IS NULL) SELECT id FROM tree`,
      [ids],
    );
    return this.byIds(rows.map((r) => r.id));
  }

  // ── Links to knowledge bases ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Makes each file (a folder: every file below it that a knowledge base can take) a document of each knowledge base,
   * sharing the file's bytes, and starts parsing them as an upload's. A file already linked to one keeps that link;
   * with `replace` (RAGFlow's convert), the files' earlier links and their documents go first.
   */
  async link(principal: SignedIn, fileIds: string[], knowledgeBaseIds: string[], options: { replace?: boolean } = {}): Promise<FileEntry[]> {
    const unique = [...new Set(fileIds)];
    if (unique.some((id) => viewIdOf(id))) throw readOnly();
    if (unique.length === 0 || knowledgeBaseIds.length === 0) throw Invalid([{ field: knowledgeBaseIds.length === 0 ? "knowledgeBaseIds" : "fileIds", messageKey: "errors.file.linkNothing" }]);
    const chosen = await this.nodes(principal, unique, "use");
    // Every knowledge base is checked before anything is made, so that a refusal changes nothing.
    const kbs = await Promise.all([...new Set(knowledgeBaseIds)].map((id) => this.parts.knowledgeBases.accessible(principal, id, "manage")));
    const unreadable = chosen.find((n) => n.kind === "file" && DocumentService.refusalOf(n.name));
    if (unreadable) throw Invalid([{ field: "fileIds", messageKey: DocumentService.refusalOf(unreadable.name)!, params: { name: unreadable.name } }]);
    const below = await this.subtree(chosen.filter((n) => n.kind === "folder").map((n) => n.id));
    const files = [...new Map([...chosen, ...below].filter((n) => n.kind === "file" && n.storageKey && !DocumentService.refusalOf(n.name)).map((n) => [n.id, n])).values()];
    // A folder's files are used as the folder is: each must be usable by the principal too.
    await this.nodes(principal, files.map((f) => f.id), "use");
    let existing = await this.links.findBy({ fileId: In(files.map((f) => f.id)) });
    if (options.replace && existing.length > 0) {
      await this.parts.documents.destroy(principal, existing.map((l) => l.documentId));
      existing = [];
    }
    const made: string[] = [];
    for (const kb of kbs) {
      const missing = files.filter((f) => !existing.some((l) => l.fileId === f.id && l.knowledgeBaseId === kb.id));
      if (missing.length === 0) continue;
      const documents = await this.parts.documents.adopt(principal, kb.id, missing.map((f) => ({ name: f.name, storageKey: f.storageKey!, size: f.size })));
      try {
        await this.links.insert(missing.map((file, i) => ({ id: newId(), fileId: file.id, documentId: documents[i].id, knowledgeBaseId: kb.id })));
      } catch (error) {
        // Another request linked one of them meanwhile: its documents stand, these go.
        await this.parts.documents.destroy(principal, documents.map((d) => d.id));
        if (isUniqueViolation(error)) throw Conflict("errors.file.linkBusy");
        throw error;
      }
      made.push(...documents.map((d) => d.id));
    }
    if (made.length > 0) await this.parts.documents.runParsing(principal, made);
    return this.present(principal, await this.byIds(files.map((f) => f.id)));
  }

  /** Removes the document a file became in a knowledge base; the file and its bytes stay. */
  async unlink(principal: SignedIn, fileId: string, knowledgeBaseId: string): Promise<FileEntry> {
    if (viewIdOf(fileId)) throw readOnly();
    await this.node(principal, fileId, "use");
    const link = await this.links.findOneBy({ fileId, knowledgeBaseId });
    if (!link) throw NotFound("errors.file.linkNotFound");
    await this.parts.documents.destroy(principal, [link.documentId]);
    return this.entry(principal, fileId);
  }

  // ── Access and presentation ──────────────────────────────────────────────────────────────────────────────────

  /** A file or folder the principal may act on so: NOT_FOUND when it may not see it, FORBIDDEN when it may only see it. */
  private async node(principal: SignedIn, id: string, action: Action): Promise<FileNode> {
    const [node] = await this.nodes(principal, [id], action);
    return node;
  }

  private async nodes(principal: SignedIn, ids: string[], action: Action): Promise<FileNode[]> {
    const unique = [...new Set(ids)];
    const found = await this.byIds(unique);
    if (found.length !== unique.length) throw notFound();
    const shared = await this.inTeamKnowledgeBase(found.map((n) => n.id));
    for (const node of found) authorize(principal, action, fileResource(node, shared.has(node.id)));
    return found;
  }

  /** Rows by id, in the order asked. */
  private async byIds(ids: string[]): Promise<FileNode[]> {
    if (ids.length === 0) return [];
    const rows = new Map((await this.repository.findBy({ id: In(ids), binnedIn: IsNull() })).map((n) => [n.id, n]));
    return ids.flatMap((id) => rows.get(id) ?? []);
  }

  /** Those of these files linked to a knowledge base shared with its team. */
  private async inTeamKnowledgeBase(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { file_id: string }[] = await this.platform.db.query(
      `SELECT DISTINCT fd.file_id FROM file_document fd JOIN knowledge_base kb ON kb.id = fd.knowledge_base_id WHERE fd.file_id = ANY($1) AND kb.permission = 'team'`,
      [ids],
    );
    return new Set(rows.map((r) => r.file_id));
  }

  private async linkRows(fileIds: string[]): Promise<LinkRow[]> {
    if (fileIds.length === 0) return [];
    return this.platform.db.query(
      `SELECT fd.id, fd.created_at, fd.file_id, fd.document_id, d.name AS document_name, kb.id AS kb_id, kb.name AS kb_name, kb.tenant_id, kb.created_by, kb.permission
       FROM file_document fd JOIN knowledge_base kb ON kb.id = fd.knowledge_base_id JOIN document d ON d.id = fd.document_id
       WHERE fd.file_id = ANY($1) AND d.binned_in IS NULL AND kb.binned_in IS NULL ORDER BY fd.created_at, kb.name`,
      [fileIds],
    );
  }

  /** Entries as the client sees them: links to the knowledge bases the principal may see, folders' sizes, and what it may do. */
  private async present(principal: SignedIn, nodes: FileNode[]): Promise<FileEntry[]> {
    const folderIds = nodes.filter((n) => n.kind === "folder").map((n) => n.id);
    const [links, withSubfolders, sizes] = await Promise.all([
      this.linkRows(nodes.filter((n) => n.kind === "file").map((n) => n.id)),
      folderIds.length === 0 ? [] : (this.platform.db.query(`SELECT DISTINCT parent_id FROM file WHERE parent_id = ANY($1) AND kind = 'folder' AND binned_in IS NULL`, [folderIds]) as Promise<{ parent_id: string }[]>),
      this.folderSizes(folderIds),
    ]);
    const parentsWithFolders = new Set(withSubfolders.map((r) => r.parent_id));
    return nodes.map((node) => {
      const own = links.filter((l) => l.file_id === node.id);
      const resource = fileResource(node, own.some((l) => l.permission === "team"));
      const visible = own.filter((l) => can(principal, "read", knowledgeBaseOf(l)));
      return {
        id: node.id,
        name: node.name,
        kind: node.kind === "folder" ? FileKind.folder : FileKind.file,
        suffix: node.suffix,
        size: node.kind === "folder" ? (sizes.get(node.id) ?? 0) : node.size,
        parentId: node.parentId,
        createdAt: node.createdAt,
        updatedAt: node.updatedAt,
        tenantId: node.tenantId,
        createdBy: node.createdBy,
        type: node.type,
        readOnly: false,
        sourceType: node.sourceType,
        hasChildFolders: parentsWithFolders.has(node.id),
        documentId: null,
        knowledgeBases: visible.map((l): FileKnowledgeBaseLink => ({ id: l.kb_id, name: l.kb_name, documentId: l.document_id, linkId: l.id, linkedAt: l.created_at })),
        can: { read: can(principal, "read", resource), use: can(principal, "use", resource), manage: can(principal, "manage", resource), delete: can(principal, "delete", resource) },
      };
    });
  }

  /** The bytes of the files below each folder. */
  private async folderSizes(folderIds: string[]): Promise<Map<string, number>> {
    if (folderIds.length === 0) return new Map();
    const rows: { top: string; size: string }[] = await this.platform.db.query(
      `WITH RECURSIVE tree(top, id) AS (SELECT id, id FROM file WHERE id = ANY($1) UNION ALL SELECT tree.top, f.id FROM file f JOIN tree ON f.parent_id = tree.id WHERE f.binned_in IS NULL)
       SELECT tree.top, COALESCE(SUM(f.size), 0) AS size FROM tree JOIN file f ON f.id = tree.id GROUP BY tree.top`,
      [folderIds],
    );
    return new Map(rows.map((r) => [r.top, Number(r.size)]));
  }
}

function fileResource(node: FileNode, inTeamKnowledgeBase: boolean): FileResource {
  return { kind: "file", tenantId: node.tenantId, createdBy: node.createdBy, inTeamKnowledgeBase: node.kind === "file" && inTeamKnowledgeBase };
}

const knowledgeBaseOf = (row: LinkRow) => ({ kind: "knowledgeBase" as const, tenantId: row.tenant_id, createdBy: row.created_by, permission: row.permission });

/** A document that goes with its file, unless it is in a knowledge base the principal may not change: that one stays. */
function linkedDocument(principal: SignedIn, row: LinkRow, files: FileNode[]): LinkedDocument {
  return {
    removed: can(principal, "manage", knowledgeBaseOf(row)),
    fileId: row.file_id,
    fileName: files.find((f) => f.id === row.file_id)?.name ?? "",
    documentId: row.document_id,
    documentName: row.document_name,
    knowledgeBaseId: row.kb_id,
    knowledgeBaseName: row.kb_name,
  };
}
