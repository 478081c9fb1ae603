import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Client as MinioClient } from "minio";
import type { S3Config } from "../config";
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

/** Local disk under DATA_DIR/objects: written to a temporary file, flushed, then renamed into place; readable by the server's user only. */
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
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    const temp = `${target}.${randomToken(6)}.partial`;
    // flush: the stream fsyncs before it closes, and pipeline resolves only once it has closed. (A stream made by
    // FileHandle.createWriteStream({ autoClose: false }) keeps a reference to its handle, so handle.close() never resolved.)
    const file = fs.createWriteStream(temp, { flush: true, mode: PRIVATE_FILE_MODE });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, file);
      await fsp.rename(temp, target);
    } catch (error) {
      // pipeline rejects as soon as the body fails, maybe before the file is even open; an open still under way
      // would create the file after rm, so wait until the stream has closed.
      if (!file.closed) await new Promise<void>((resolve) => file.once("close", () => resolve()));
      await fsp.rm(temp, { force: true });
      throw error;
    }
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

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<StoredObject> {
    await this.ensureBucket();
    const data = Buffer.isBuffer(body) ? body : await toBuffer(body);
    await this.client.putObject(this.config.bucket, checkKey(key), data, data.length, contentType ? { "Content-Type": contentType } : {});
    return { key, size: data.length, contentType };
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
