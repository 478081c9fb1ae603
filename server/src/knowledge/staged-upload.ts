import { Transform, type Readable } from "node:stream";
import { DomainError } from "../platform/errors";
import type { ObjectStore } from "../platform/storage";
import type { UploadPass } from "./upload-gate";

/** §9: a file up to 10 MB and at most 128 files at once. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 128;

const tooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413");

/**
 * The body as it flows on, `count` seeing each piece first. When `count` throws, the stream fails with its error
 * and the rest of the body is read and dropped, so that a multipart parser behind it reaches the end of the request.
 */
export function metered(body: Readable, count: (bytes: number) => void): Readable {
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        count(chunk.length);
        callback(null, chunk);
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  body.on("error", (error) => meter.destroy(error));
  meter.on("error", () => {
    body.unpipe(meter);
    body.resume();
  });
  return body.pipe(meter);
}

/**
 * Stores one file's bytes under `storageKey`, counting them as they arrive: past 10 MB (§9) or past the tenant's
 * quota (`storedBytes` being what it has stored already) the store fails with the reason, and what was counted is
 * given back. Answers the file's size.
 */
export async function putCounted(storage: ObjectStore, storageKey: string, body: Buffer | Readable, pass: UploadPass, storedBytes: number): Promise<number> {
  let size = 0;
  const count = (bytes: number) => {
    if (size + bytes > MAX_FILE_BYTES) throw tooLarge();
    pass.take(bytes, storedBytes);
    size += bytes;
  };
  try {
    if (Buffer.isBuffer(body)) count(body.length);
    await storage.put(storageKey, Buffer.isBuffer(body) ? body : metered(body, count));
  } catch (error) {
    pass.giveBack(size);
    throw error;
  }
  return size;
}

/**
 * An upload under way: files are stored one by one as they arrive (`receive`) and become rows only at `finish`,
 * all at once, so an upload is stored before it is acknowledged. An upload that fails or is refused is `abandon`ed,
 * which deletes whatever it had stored. Either ends its place at the upload gate, so every upload must end in one
 * of the two. Subclasses say how a file is stored, what its rows are, and how stored files are deleted.
 */
export abstract class StagedUpload<Staged, Result> {
  private readonly staged: (Staged | undefined)[] = [];
  private readonly receiving: Promise<void>[] = [];
  private open = true;

  constructor(protected readonly pass: UploadPass) {}

  /** Stores one file as its bytes arrive. Too many files refuse the whole upload: it throws, and the caller abandons it. */
  receive(name: string, body: Buffer | Readable): Promise<void> {
    const task = this.receiveFile(this.receiving.length, name, body);
    this.receiving.push(task);
    return task;
  }

  /** Stores one file; undefined for a file skipped (refused on its own, the others kept). */
  protected abstract stage(name: string, body: Buffer | Readable): Promise<Staged | undefined>;
  /** Makes the rows of every file stored, in the order they came. */
  protected abstract complete(staged: Staged[]): Promise<Result>;
  /** Deletes the stored files of an upload that has failed. */
  protected abstract discard(staged: Staged[]): Promise<void>;

  private async receiveFile(index: number, name: string, body: Buffer | Readable): Promise<void> {
    if (!this.open) throw new Error("This upload has ended");
    if (index >= MAX_FILES_PER_UPLOAD) throw tooLarge();
    const staged = await this.stage(name, body);
    if (staged !== undefined) this.staged[index] = staged;
  }

  /** Makes the rows of every file received, once all have arrived; a failure deletes what was stored. */
  async finish(): Promise<Result> {
    this.close();
    try {
      await Promise.all(this.receiving);
      return await this.complete(this.stagedFiles());
    } catch (error) {
      await Promise.allSettled(this.receiving);
      await this.discard(this.stagedFiles());
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
      await this.discard(this.stagedFiles());
    } finally {
      this.pass.leave();
    }
  }

  private close(): void {
    if (!this.open) throw new Error("This upload has ended");
    this.open = false;
  }

  private stagedFiles(): Staged[] {
    return this.staged.filter((file): file is Staged => file !== undefined);
  }
}
