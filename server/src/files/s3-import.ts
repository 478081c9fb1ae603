import http from "node:http";
import https from "node:https";
import { Client as MinioClient } from "minio";
import type { Repository } from "typeorm";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "../knowledge/staged-upload";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { DomainError, FieldChecks, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { isLanguage, localizedMessage, type Locale } from "../platform/messages";
import { guardedConnection, outboundPolicy } from "../platform/outbound";
import { CancellableRuns } from "../platform/runs/cancellable-runs";
import { snapshotThenLive } from "../platform/runs/event-stream";
import { FileImportRow, type ImportProblem } from "./file-import.entity";
import type { FileService } from "./file.service";
import { FileImportStatus, type FileImport, type S3ObjectPage, type S3SourceInput } from "./file.types";

/** An import's state as its subscribers receive it. */
export type FileImportEvent = FileImport;

/** Objects listed per page. */
const PAGE_SIZE = 200;
const DEFAULT_REGION = "us-east-1";

/** What travels on the pub/sub (possibly through Redis): JSON only, read out in each subscriber's language. */
interface ImportState {
  id: string;
  parentId: string;
  status: FileImportRow["status"];
  total: number;
  done: number;
  failed: number;
  errors: ImportProblem[];
  createdAt: string;
  updatedAt: string;
}

const topicOf = (importId: string) => `files.import.${importId}`;

const stateOf = (row: FileImportRow): ImportState => ({
  id: row.id,
  parentId: row.parentId,
  status: row.status,
  total: row.total,
  done: row.done,
  failed: row.failed,
  errors: row.errors,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

const localeOf = (principal: SignedIn): Locale => (isLanguage(principal.user.language) ? (principal.user.language as Locale) : "en");

/** A bucket the user named, reached through the outbound guard, and what to list of it. */
interface Bucket {
  client: MinioClient;
  name: string;
  prefix: string;
}

/** S3's error codes for credentials it does not take. */
const ACCESS_DENIED = ["AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "AllAccessDisabled"];
/** Node's codes for a service that cannot be reached. */
const UNREACHABLE = ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"];

/**
 * Why talking to a bucket failed, said without its credentials: only S3's or the network's error code is read, never
 * the message or the request (the secret key never reaches a log, a row or a client).
 */
function s3Failure(error: unknown, bucket: string): DomainError {
  if (error instanceof DomainError) return error;
  const code = String((error as { code?: unknown }).code ?? (error as { name?: unknown }).name ?? "");
  if (ACCESS_DENIED.includes(code)) return new DomainError("OUTSIDE_SERVICE", "errors.file.s3AccessDenied");
  if (code === "NoSuchBucket") return new DomainError("OUTSIDE_SERVICE", "errors.file.s3NoSuchBucket", { bucket });
  if (code === "NoSuchKey" || code === "NotFound") return new DomainError("OUTSIDE_SERVICE", "errors.file.s3ObjectMissing");
  if (code === "InvalidBucketNameError") return new DomainError("BAD_REQUEST", "errors.file.s3BucketInvalid", { bucket });
  if (UNREACHABLE.includes(code)) return new DomainError("OUTSIDE_SERVICE", "errors.file.s3Unreachable");
  return new DomainError("OUTSIDE_SERVICE", "errors.file.s3Failed", { code: code.replace(/[^\w.-]/g, "").slice(0, 64) || "unknown" });
}

/** An object's path below the folder it is imported into: its key after the prefix ("reports/2024/q1.pdf"). */
function pathOf(key: string, prefix: string): string {
  return key.startsWith(prefix) && key.length > prefix.length ? key.slice(prefix.length) : key;
}

/**
 * Copies objects of an S3-compatible bucket into the file manager: list a page of a prefix, choose keys, copy them
 * into a folder with progress that any process can follow. The endpoint is reached only through the outbound guard (a
 * user-typed address must not probe the server's network; S3_IMPORT_PRIVATE_ADDRESSES lets a private MinIO in). The
 * keys stay in the memory of the request and of the run that copies: never in a row, a job, an event or a log.
 */
export class S3ImportService {
  private readonly repository: Repository<FileImportRow>;
  private readonly runs: CancellableRuns;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly platform: Platform,
    private readonly files: FileService,
  ) {
    this.repository = platform.db.getRepository(FileImportRow);
    this.runs = CancellableRuns.on(platform.pubsub, "files.import.cancel");
  }

  /** A client for the bucket named, after checking what was typed; connections go through the guard. */
  private bucket(source: S3SourceInput): Bucket {
    let url: URL | null = null;
    try {
      url = new URL(source.endpoint.trim());
    } catch {
      url = null;
    }
    const secure = url?.protocol === "https:";
    new FieldChecks()
      .check(url !== null && (url.protocol === "http:" || secure) && (url.pathname === "/" || url.pathname === ""), "endpoint", "errors.file.s3EndpointInvalid")
      .check(source.bucket.trim().length > 0, "bucket", "errors.file.s3BucketRequired")
      .check(source.accessKey.length > 0 && source.secretKey.length > 0, source.accessKey.length > 0 ? "secretKey" : "accessKey", "errors.file.s3KeysRequired")
      .throwIfAny();
    const policy = outboundPolicy({ privateNetworks: this.platform.config.s3ImportPrivateAddresses, redirects: "same-class" });
    const { lookup } = guardedConnection(url!, policy);
    const agentOptions = { keepAlive: false, lookup };
    const client = new MinioClient({
      endPoint: url!.hostname.replace(/^\[|\]$/g, ""),
      port: url!.port ? Number(url!.port) : secure ? 443 : 80,
      useSSL: secure,
      accessKey: source.accessKey,
      secretKey: source.secretKey,
      // Given, so that the client never asks the bucket's location first.
      region: source.region?.trim() || DEFAULT_REGION,
      pathStyle: true,
      transportAgent: secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions),
    });
    return { client, name: source.bucket.trim(), prefix: source.prefix ?? "" };
  }

  /** A page of the objects under the prefix (folders' placeholder keys left out). */
  async list(_principal: SignedIn, source: S3SourceInput, continuationToken: string | null): Promise<S3ObjectPage> {
    const bucket = this.bucket(source);
    try {
      const page = await bucket.client.listObjectsV2Query(bucket.name, bucket.prefix, continuationToken ?? "", "", PAGE_SIZE, "");
      return {
        objects: page.objects
          .filter((o) => o.name && !o.name.endsWith("/"))
          .map((o) => ({ key: o.name!, size: o.size ?? 0, lastModified: o.lastModified ? new Date(o.lastModified) : null, tooLarge: (o.size ?? 0) > MAX_FILE_BYTES })),
        nextContinuationToken: page.isTruncated ? page.nextContinuationToken : null,
      };
    } catch (error) {
      throw s3Failure(error, bucket.name);
    }
  }

  /** Starts copying these objects into a folder (none: the root); the copy runs on, followed by `progress`. */
  async start(principal: SignedIn, source: S3SourceInput, keys: string[], parentId: string | null): Promise<FileImport> {
    const chosen = [...new Set(keys.filter((key) => key.length > 0))];
    new FieldChecks()
      .check(chosen.length > 0, "keys", "errors.file.s3KeysEmpty")
      .check(chosen.length <= MAX_FILES_PER_UPLOAD, "keys", "errors.file.s3TooManyObjects", { max: MAX_FILES_PER_UPLOAD })
      .throwIfAny();
    const bucket = this.bucket(source);
    const parent = await this.files.targetFolder(principal, parentId);
    const row = this.repository.create({ id: newId(), tenantId: parent.tenantId, createdBy: principal.user.id, parentId: parent.id, status: "running", total: chosen.length, done: 0, failed: 0, errors: [] });
    await this.repository.insert(row as never);
    const run = this.runs.run(row.id, (signal) => this.copy(principal, row.id, bucket, chosen, parent.id, signal));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return this.present(stateOf(await this.repository.findOneByOrFail({ id: row.id })), localeOf(principal));
  }

  /** Copies each object in turn; one that fails is noted with its reason and the others go on. */
  private async copy(principal: SignedIn, importId: string, bucket: Bucket, keys: string[], parentId: string, signal: AbortSignal): Promise<void> {
    let done = 0;
    let failed = 0;
    const errors: ImportProblem[] = [];
    try {
      for (const key of keys) {
        if (signal.aborted) break;
        try {
          await this.copyOne(principal, bucket, key, parentId);
          done++;
        } catch (error) {
          const failure = s3Failure(error, bucket.name);
          failed++;
          errors.push({ key, messageKey: failure.messageKey, params: failure.params });
        }
        await this.save(importId, { done, failed, errors });
      }
      await this.save(importId, { status: signal.aborted ? "failed" : "done" });
    } catch {
      // The database went away (the server is stopping): the import stays as far as it was saved.
    }
  }

  private async copyOne(principal: SignedIn, bucket: Bucket, key: string, parentId: string): Promise<void> {
    const stat = await bucket.client.statObject(bucket.name, key);
    if (stat.size > MAX_FILE_BYTES) throw new DomainError("PAYLOAD_TOO_LARGE", "errors.file.s3ObjectTooLarge", { max: MAX_FILE_BYTES / (1024 * 1024) });
    const upload = await this.files.startUpload(principal, parentId, { sourceType: "s3" });
    try {
      const body = await bucket.client.getObject(bucket.name, key);
      await upload.receive(pathOf(key, bucket.prefix), body);
    } catch (error) {
      await upload.abandon();
      throw error;
    }
    await upload.finish();
  }

  private async save(importId: string, change: Partial<Pick<FileImportRow, "status" | "done" | "failed" | "errors">>): Promise<void> {
    await this.repository.update({ id: importId }, change as never);
    this.platform.pubsub.publish(topicOf(importId), stateOf(await this.repository.findOneByOrFail({ id: importId })));
  }

  /** An import of the principal's tenant, or one it started. */
  private async row(principal: SignedIn, id: string): Promise<FileImportRow> {
    const row = await this.repository.findOneBy({ id });
    if (!row || (row.tenantId !== principal.tenantId && row.createdBy !== principal.user.id)) throw NotFound("errors.file.importNotFound");
    return row;
  }

  async state(principal: SignedIn, id: string): Promise<FileImport> {
    return this.present(stateOf(await this.row(principal, id)), localeOf(principal));
  }

  /** The import as it is, then each change, until it ends. */
  async progress(principal: SignedIn, id: string): Promise<AsyncIterable<FileImportEvent>> {
    const locale = localeOf(principal);
    const events = await snapshotThenLive<ImportState>(this.platform.pubsub, topicOf(id), async () => [stateOf(await this.row(principal, id))]);
    const present = (state: ImportState) => this.present(state, locale);
    return (async function* () {
      try {
        for await (const state of events) {
          yield present(state);
          if (state.status !== "running") return;
        }
      } finally {
        await events.return(undefined);
      }
    })();
  }

  /** Stops the imports of this process (the server is stopping); what they copied stays. */
  async close(): Promise<void> {
    await this.runs.cancelAll();
    await Promise.allSettled([...this.running]);
  }

  private present(state: ImportState, locale: Locale): FileImport {
    return {
      ...state,
      status: FileImportStatus[state.status],
      errors: state.errors.map((problem) => ({ key: problem.key, messageKey: problem.messageKey, message: localizedMessage(locale, problem.messageKey, problem.params) })),
      createdAt: new Date(state.createdAt),
      updatedAt: new Date(state.updatedAt),
    };
  }
}
