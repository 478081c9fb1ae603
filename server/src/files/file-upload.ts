import type { Readable } from "node:stream";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, metered } from "../knowledge/document.service";
import type { UploadPass } from "../knowledge/upload-gate";
import { DomainError } from "../platform/errors";
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

const tooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413");

/**
 * An upload into a folder under way (FileService.startUpload): each file is streamed to the object store as its bytes
 * arrive, counted against 10 MB and the tenant's quota, and only `finish` makes the folders of the relative paths and
 * the files' rows, all at once. An upload refused or failed is `abandon`ed: what it stored is deleted and no row was
 * made, so nothing is left partly stored. Either ends its place at the upload gate.
 */
export class FileUpload {
  private readonly staged: (StagedFile | undefined)[] = [];
  private readonly receiving: Promise<void>[] = [];
  private open = true;

  constructor(
    private readonly platform: Platform,
    private readonly tenantId: string,
    private readonly pass: UploadPass,
    /** The tenant's stored bytes when the quota counts them, read once for the whole upload. */
    private readonly storedBytes: number,
    private readonly createRows: (staged: StagedFile[]) => Promise<FileNode[]>,
  ) {}

  /** Stores one file, named by its path relative to the upload's folder ("a/b/report.pdf" makes a/ and a/b/). */
  receive(path: string, body: Buffer | Readable): Promise<void> {
    const task = this.receiveFile(this.receiving.length, path, body);
    this.receiving.push(task);
    return task;
  }

  private async receiveFile(index: number, path: string, body: Buffer | Readable): Promise<void> {
    if (!this.open) throw new Error("This upload has ended");
    if (index >= MAX_FILES_PER_UPLOAD) throw tooLarge();
    // Throws for a bad path before a byte is stored.
    const segments = pathSegments(path);
    const id = newId();
    const storageKey = `${this.tenantId}/files/${id}`;
    let size = 0;
    const count = (bytes: number) => {
      if (size + bytes > MAX_FILE_BYTES) throw tooLarge();
      this.pass.take(bytes, this.storedBytes);
      size += bytes;
    };
    try {
      if (Buffer.isBuffer(body)) count(body.length);
      await this.platform.storage.put(storageKey, Buffer.isBuffer(body) ? body : metered(body, count));
    } catch (error) {
      this.pass.giveBack(size);
      throw error;
    }
    this.staged[index] = { id, storageKey, size, segments };
  }

  /** Makes the folders and rows of every file received, in the order they came; answers the rows. */
  async finish(): Promise<FileNode[]> {
    this.close();
    try {
      await Promise.all(this.receiving);
      return await this.createRows(this.stagedFiles());
    } catch (error) {
      await Promise.allSettled(this.receiving);
      await this.discard();
      throw error;
    } finally {
      this.pass.leave();
    }
  }

  /** Deletes what the upload stored, once the files still arriving have settled. Harmless once the upload has ended. */
  async abandon(): Promise<void> {
    if (!this.open) return;
    this.close();
    try {
      await Promise.allSettled(this.receiving);
      await this.discard();
    } finally {
      this.pass.leave();
    }
  }

  private close(): void {
    if (!this.open) throw new Error("This upload has ended");
    this.open = false;
  }

  private async discard(): Promise<void> {
    // Fresh keys of this upload's own: no row names them, so they go straight away.
    await Promise.all(this.stagedFiles().map((file) => this.platform.storage.delete(file.storageKey).catch(() => undefined)));
  }

  private stagedFiles(): StagedFile[] {
    return this.staged.filter((file): file is StagedFile => file !== undefined);
  }
}
