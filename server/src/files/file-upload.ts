import type { Readable } from "node:stream";
import { putCounted, StagedUpload } from "../knowledge/staged-upload";
import type { UploadPass } from "../knowledge/upload-gate";
import { newId } from "../platform/ids";
import type { Platform } from "../platform";
import { pathSegments } from "./file-names";
import type { FileNode } from "./file.entity";

/** A file whose bytes are in the object store and that has no row yet. */
export interface StagedFile {
  id: string;
  storageKey: string;
  size: number;
  /** The folders below the upload's folder, then the file's name. */
  segments: string[];
}

/**
 * An upload into a folder under way (FileService.startUpload): each file is streamed to the object store as its bytes
 * arrive, counted against 10 MB and the tenant's quota, and only `finish` makes the folders of the relative paths and
 * the files' rows, all at once. An upload refused or failed is `abandon`ed: what it stored is deleted and no row was
 * made, so nothing is left partly stored.
 */
export class FileUpload extends StagedUpload<StagedFile, FileNode[]> {
  constructor(
    private readonly platform: Platform,
    private readonly tenantId: string,
    pass: UploadPass,
    /** The tenant's stored bytes when the quota counts them, read once for the whole upload. */
    private readonly storedBytes: number,
    private readonly createRows: (staged: StagedFile[]) => Promise<FileNode[]>,
  ) {
    super(pass);
  }

  /** Stores one file, named by its path relative to the upload's folder ("a/b/report.pdf" makes a/ and a/b/). */
  protected async stage(path: string, body: Buffer | Readable): Promise<StagedFile> {
    // Throws for a bad path before a byte is stored.
    const segments = pathSegments(path);
    const id = newId();
    const storageKey = `${this.tenantId}/files/${id}`;
    const size = await putCounted(this.platform.storage, storageKey, body, this.pass, this.storedBytes);
    return { id, storageKey, size, segments };
  }

  protected complete(staged: StagedFile[]): Promise<FileNode[]> {
    return this.createRows(staged);
  }

  protected async discard(staged: StagedFile[]): Promise<void> {
    // Fresh keys of this upload's own: no row names them, so they go straight away.
    await Promise.all(staged.map((file) => this.platform.storage.delete(file.storageKey).catch(() => undefined)));
  }
}
