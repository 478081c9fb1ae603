import { fileExtension } from "../ingestion/file-types";
import type { Document } from "../knowledge/document.entity";
import type { DocumentService } from "../knowledge/document.service";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import type { SignedIn } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { FileKind, FileSort, type FileEntry } from "./file.types";
import { KNOWLEDGE_BASE_FOLDER } from "./file-names";

/**
 * The read-only `.knowledgebase/<name>/` folders of the root: the documents uploaded (or crawled, or made empty)
 * straight into each knowledge base of the tenant, as RAGFlow shows them. They are views, never rows: they follow the
 * knowledge bases as they are renamed, filled and deleted. Their ids say what they show.
 */

const ROOT_ID = "knowledgebase";
const FOLDER_PREFIX = "knowledgebase.";
const DOCUMENT_PREFIX = "document.";
/** The sources of documents that came straight into a knowledge base; a linked file's document shows as the file. */
const DIRECT_SOURCES = ["local", "empty", "web"];

export type ViewId = { kind: "root" } | { kind: "knowledgeBase"; knowledgeBaseId: string } | { kind: "document"; documentId: string };

export function viewIdOf(id: string): ViewId | null {
  if (id === ROOT_ID) return { kind: "root" };
  if (id.startsWith(FOLDER_PREFIX)) return { kind: "knowledgeBase", knowledgeBaseId: id.slice(FOLDER_PREFIX.length) };
  if (id.startsWith(DOCUMENT_PREFIX)) return { kind: "document", documentId: id.slice(DOCUMENT_PREFIX.length) };
  return null;
}

/** Refused for every change to a view: nothing under .knowledgebase/ is renamed, moved, deleted, linked or uploaded to. */
export const readOnly = () => new DomainError("FORBIDDEN", "errors.file.readOnly");

const READ_ONLY_ACTIONS = { read: true, use: false, manage: false, delete: false };

export interface ViewListing {
  items: FileEntry[];
  total: number;
  folder: FileEntry;
  /** Below the root folder: .knowledgebase, and the knowledge base's folder when it is listed. */
  path: FileEntry[];
}

export interface ViewQuery {
  search: string;
  sort: FileSort;
  desc: boolean;
  page: number;
  pageSize: number;
}

export class KnowledgeBaseViews {
  constructor(
    private readonly knowledgeBases: KnowledgeBaseService,
    private readonly documents: DocumentService,
  ) {}

  /** The knowledge bases of the principal's own tenant that it may read: the folders of .knowledgebase/. */
  private async ownKnowledgeBases(principal: SignedIn): Promise<KnowledgeBase[]> {
    const { items } = await this.knowledgeBases.list(principal, { pageSize: 10_000, orderBy: "createdAt", desc: false });
    return items.filter((kb) => kb.tenantId === principal.tenantId);
  }

  /** .knowledgebase itself, when the tenant has a knowledge base the principal may read. */
  async rootEntry(principal: SignedIn, rootFolderId: string): Promise<FileEntry | null> {
    const kbs = await this.ownKnowledgeBases(principal);
    if (kbs.length === 0) return null;
    const newest = kbs.reduce((a, b) => (a.updatedAt > b.updatedAt ? a : b));
    return this.folderEntry(ROOT_ID, KNOWLEDGE_BASE_FOLDER, rootFolderId, kbs[0], newest.updatedAt, true);
  }

  async entry(principal: SignedIn, id: ViewId, rootFolderId: string): Promise<FileEntry> {
    if (id.kind === "root") {
      const root = await this.rootEntry(principal, rootFolderId);
      if (!root) throw notFound();
      return root;
    }
    if (id.kind === "knowledgeBase") return this.knowledgeBaseEntry(await this.ownKnowledgeBase(principal, id.knowledgeBaseId));
    const document = await this.documents.accessible(principal, id.documentId).catch(hideAsFile);
    if (!DIRECT_SOURCES.includes(document.sourceType)) throw notFound();
    return documentEntry(document);
  }

  /** The breadcrumbs below the root folder down to a view (itself included). */
  async path(principal: SignedIn, id: ViewId, rootFolderId: string): Promise<FileEntry[]> {
    const root = await this.entry(principal, { kind: "root" }, rootFolderId);
    if (id.kind === "root") return [root];
    const kbId = id.kind === "knowledgeBase" ? id.knowledgeBaseId : (await this.documents.accessible(principal, id.documentId).catch(hideAsFile)).knowledgeBaseId;
    const folder = this.knowledgeBaseEntry(await this.ownKnowledgeBase(principal, kbId));
    return id.kind === "knowledgeBase" ? [root, folder] : [root, folder, await this.entry(principal, id, rootFolderId)];
  }

  /** A view folder's entries: the knowledge bases' folders, or a knowledge base's documents. */
  async list(principal: SignedIn, id: ViewId, query: ViewQuery, rootFolderId: string): Promise<Omit<ViewListing, "path">> {
    if (id.kind === "document") throw notFound();
    const folder = await this.entry(principal, id, rootFolderId);
    if (id.kind === "root") {
      const search = query.search.toLowerCase();
      const all = (await this.ownKnowledgeBases(principal)).map((kb) => this.knowledgeBaseEntry(kb)).filter((e) => e.name.toLowerCase().includes(search));
      const key = (e: FileEntry) => (query.sort === FileSort.name ? e.name.toLowerCase() : query.sort === FileSort.size ? e.size : query.sort === FileSort.createdAt ? e.createdAt.getTime() : e.updatedAt.getTime());
      all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (query.desc ? -1 : 1));
      return { folder, total: all.length, items: all.slice((query.page - 1) * query.pageSize, query.page * query.pageSize) };
    }
    const { items, total } = await this.documents.list(principal, id.knowledgeBaseId, {
      search: query.search,
      sourceTypes: DIRECT_SOURCES,
      orderBy: query.sort,
      desc: query.desc,
      page: query.page,
      pageSize: query.pageSize,
    });
    return { folder, total, items: items.map(documentEntry) };
  }

  private async ownKnowledgeBase(principal: SignedIn, id: string): Promise<KnowledgeBase> {
    const kb = await this.knowledgeBases.accessible(principal, id).catch(hideAsFile);
    if (kb.tenantId !== principal.tenantId) throw notFound();
    return kb;
  }

  private knowledgeBaseEntry(kb: KnowledgeBase): FileEntry {
    return this.folderEntry(FOLDER_PREFIX + kb.id, kb.name, ROOT_ID, kb, kb.updatedAt, false);
  }

  /** A view folder; `kb` the knowledge base it shows (for .knowledgebase itself: the tenant's first). */
  private folderEntry(id: string, name: string, parentId: string, kb: KnowledgeBase, updatedAt: Date, hasChildFolders: boolean): FileEntry {
    return {
      id,
      name,
      kind: FileKind.folder,
      suffix: "",
      size: 0,
      parentId,
      createdAt: kb.createdAt,
      updatedAt,
      tenantId: kb.tenantId,
      createdBy: kb.createdBy,
      type: "folder",
      readOnly: true,
      sourceType: "knowledgebase",
      hasChildFolders,
      documentId: null,
      knowledgeBases: [],
      can: READ_ONLY_ACTIONS,
    };
  }
}

function documentEntry(document: Document): FileEntry {
  return {
    id: DOCUMENT_PREFIX + document.id,
    name: document.name,
    kind: FileKind.file,
    suffix: document.suffix || fileExtension(document.name),
    size: document.size,
    parentId: FOLDER_PREFIX + document.knowledgeBaseId,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    tenantId: document.tenantId,
    createdBy: document.createdBy,
    type: document.type,
    readOnly: true,
    sourceType: "knowledgebase",
    hasChildFolders: false,
    documentId: document.id,
    knowledgeBases: [],
    can: READ_ONLY_ACTIONS,
  };
}

const notFound = () => new DomainError("NOT_FOUND", "errors.file.notFound");

/** A knowledge base or document the principal may not see is, here, a file that does not exist. */
function hideAsFile(error: unknown): never {
  if (error instanceof DomainError && error.kind === "NOT_FOUND") throw notFound();
  throw error;
}
