import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Client as MinioClient } from "minio";
import type { S3Config } from "./config";
import { randomToken } from "./ids";
import { ensurePrivateDirectory, PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "./private-files";

export interface StoredObject {
  key: string;
  size: number;
  contentType?: string;
}

/** Where uploaded files live. `put` resolves only once the object is durable, so an upload is acknowledged after it is safe. */
export interface ObjectStore {
  readonly description: string;
  put(key: string, body: Buffer | Readable, contentType?: string): Promise<StoredObject>;
  get(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
}

export class ObjectNotFound extends Error {
  constructor(key: string) {
    super(`No stored object "${key}"`);
  }
}

/** Keys are "tenant/…/name" paths; anything that could climb out of the store is refused. */
function checkKey(key: string): string {
  if (!key || key.startsWith("/") || key.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new Error(`Invalid object key "${key}"`);
  }
  return key;
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Writes a body into a new owner-only file. `durable` fsyncs before resolving. On failure nothing is left at `file`.
 */
async function writeFileFrom(body: Buffer | Readable, file: string, durable: boolean): Promise<void> {
  // flush: the stream fsyncs before it closes, and pipeline resolves only once it has closed. (A stream made by
  // FileHandle.createWriteStream({ autoClose: false }) keeps a reference to its handle, so handle.close() never resolved.)
  const stream = fs.createWriteStream(file, { flush: durable, mode: PRIVATE_FILE_MODE });
  try {
    await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, stream);
  } catch (error) {
    // pipeline rejects as soon as the body fails, maybe before the file is even open; an open still under way
    // would create the file after rm, so wait until the stream has closed.
    if (!stream.closed) await new Promise<void>((resolve) => stream.once("close", () => resolve()));
    await fsp.rm(file, { force: true });
    throw error;
  }
}

/**
 * Flushes a folder's entries (names created or renamed in it) to the disk, as PostgreSQL's durable_rename does.
 * Windows opens no folder as a file, and its file system journals names itself; a file system that cannot flush a
 * folder (EINVAL, EBADF) is let be, as PostgreSQL lets it be.
 */
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await fsp.open(directory, "r");
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EINVAL" && code !== "EBADF") throw error;
  } finally {
    await handle.close();
  }
}

/** Local disk under DATA_DIR/objects: written to a temporary file, flushed, then renamed into place and its folder flushed; readable by the server's user only. */
export class DiskObjectStore implements ObjectStore {
  readonly description: string;
  private rootReady = false;

  constructor(private readonly root: string) {
    this.description = `local disk (${root})`;
  }

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<StoredObject> {
    const target = this.file(key);
    if (!this.rootReady) {
      ensurePrivateDirectory(this.root);
      this.rootReady = true;
    }
    const folder = path.dirname(target);
    const created = await fsp.mkdir(folder, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    // Folders made here are entries of their parents, which must reach the disk too: every parent up to the first made's.
    if (created) {
      const last = path.dirname(path.resolve(created));
      for (let parent = path.dirname(path.resolve(folder)); ; parent = path.dirname(parent)) {
        await syncDirectory(parent);
        if (parent === last || parent === path.dirname(parent)) break;
      }
    }
    const temp = `${target}.${randomToken(6)}.partial`;
    await writeFileFrom(body, temp, true);
    await fsp.rename(temp, target);
    // The new name is an entry of the folder: without this, a crash soon after could leave the bytes under the temporary name.
    await syncDirectory(folder);
    const { size } = await fsp.stat(target);
    return { key, size, contentType };
  }

  async get(key: string): Promise<Readable> {
    if (!(await this.stat(key))) throw new ObjectNotFound(key);
    return fs.createReadStream(this.file(key));
  }

  async getBuffer(key: string): Promise<Buffer> {
    return toBuffer(await this.get(key));
  }

  async stat(key: string): Promise<StoredObject | null> {
    // Outside the try: an invalid key is refused, as by every other operation, not reported as missing.
    const file = this.file(key);
    try {
      const stats = await fsp.stat(file);
      // A folder that holds objects ("tenant/kb") is not an object itself, as in S3.
      return stats.isFile() ? { key, size: stats.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }
}

/** MinIO or any S3-compatible service, through the `minio` client. The bucket is created on first use. */
export class S3ObjectStore implements ObjectStore {
  readonly description: string;
  private readonly client: MinioClient;
  private bucketReady?: Promise<void>;

  constructor(private readonly config: S3Config) {
    this.client = new MinioClient({
      endPoint: config.endPoint,
      port: config.port,
      useSSL: config.useSSL,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: config.region,
      pathStyle: true,
    });
    this.description = `S3 (${config.useSSL ? "https" : "http"}://${config.endPoint}:${config.port}/${config.bucket})`;
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.config.bucket))) {
        await this.client.makeBucket(this.config.bucket, this.config.region);
      }
    })().catch((error) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }

  /**
   * S3 wants an object's length before its bytes, and the minio client given a stream of unknown length buffers a
   * whole multipart part (hundreds of MB) and leaves an unfinished upload behind when the stream fails. So a stream
   * is spooled to an owner-only temporary file at the pace it arrives, then sent with its length: a slow or failed
   * upload holds no memory and never reaches the bucket. (minio still reads an object under 64 MB into memory to
   * sign it, for the moment of the PUT; uploads are at most 10 MB and bounded in number.)
   */
  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<StoredObject> {
    checkKey(key);
    await this.ensureBucket();
    const metadata = contentType ? { "Content-Type": contentType } : {};
    if (Buffer.isBuffer(body)) {
      await this.client.putObject(this.config.bucket, key, body, body.length, metadata);
      return { key, size: body.length, contentType };
    }
    const spool = await fsp.mkdtemp(path.join(os.tmpdir(), "cairn-upload-"));
    try {
      const file = path.join(spool, "body");
      await writeFileFrom(body, file, false);
      const { size } = await fsp.stat(file);
      await this.client.putObject(this.config.bucket, key, fs.createReadStream(file), size, metadata);
      return { key, size, contentType };
    } finally {
      await fsp.rm(spool, { recursive: true, force: true });
    }
  }

  async get(key: string): Promise<Readable> {
    await this.ensureBucket();
    try {
      return await this.client.getObject(this.config.bucket, checkKey(key));
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFound(key);
      throw error;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    return toBuffer(await this.get(key));
  }

  async stat(key: string): Promise<StoredObject | null> {
    await this.ensureBucket();
    try {
      const stat = await this.client.statObject(this.config.bucket, checkKey(key));
      return { key, size: stat.size, contentType: stat.metaData?.["content-type"] };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.ensureBucket();
    await this.client.removeObject(this.config.bucket, checkKey(key));
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "NoSuchKey" || code === "NotFound";
}
