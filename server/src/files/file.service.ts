import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import type { FileDeletionImpact, FileEntry, FilePage, FileSort } from "./file.types";

export interface FileQuery {
  parentId?: string | null;
  search?: string | null;
  sort?: FileSort | null;
  desc?: boolean | null;
  page?: number | null;
  pageSize?: number | null;
}

/** The file manager: a folder tree per tenant, its files' bytes in the object store, and their links to knowledge bases. */
export class FileService {
  constructor(readonly platform: Platform) {}

  async list(_principal: SignedIn, _query: FileQuery): Promise<FilePage> {
    throw new Error("not built yet");
  }

  async entry(_principal: SignedIn, _id: string): Promise<FileEntry> {
    throw new Error("not built yet");
  }

  async folders(_principal: SignedIn, _parentId: string | null): Promise<FileEntry[]> {
    throw new Error("not built yet");
  }

  async createFolder(_principal: SignedIn, _parentId: string | null, _name: string): Promise<FileEntry> {
    throw new Error("not built yet");
  }

  async rename(_principal: SignedIn, _id: string, _name: string): Promise<FileEntry> {
    throw new Error("not built yet");
  }

  async move(_principal: SignedIn, _ids: string[], _targetId: string): Promise<FileEntry[]> {
    throw new Error("not built yet");
  }

  async deletionImpact(_principal: SignedIn, _ids: string[]): Promise<FileDeletionImpact> {
    throw new Error("not built yet");
  }

  async delete(_principal: SignedIn, _ids: string[]): Promise<FileDeletionImpact> {
    throw new Error("not built yet");
  }

  async link(_principal: SignedIn, _fileIds: string[], _knowledgeBaseIds: string[]): Promise<FileEntry[]> {
    throw new Error("not built yet");
  }

  async unlink(_principal: SignedIn, _fileId: string, _knowledgeBaseId: string): Promise<FileEntry> {
    throw new Error("not built yet");
  }
}
