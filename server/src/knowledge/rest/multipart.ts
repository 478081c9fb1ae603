import type { Request, Response } from "express";
import multer from "multer";
import type { Readable } from "node:stream";
import { DomainError } from "../../platform/errors";

/** An upload that takes files as their bytes stream in (a DocumentUpload, the file manager's FileUpload). */
export interface StreamedUpload {
  receive(name: string, body: Readable): Promise<void>;
  /** Deletes whatever it stored; harmless once it has ended. */
  abandon(): Promise<void>;
}

/** The text fields of a multipart body, first value of each. */
export type MultipartFields = Record<string, string>;

export interface ReceivedUpload<U extends StreamedUpload> {
  fields: MultipartFields;
  /** The upload the `file` parts went to, or null when the body carried none. */
  upload: U | null;
}

export interface UploadHooks<U extends StreamedUpload> {
  /** Opens the upload when the first file starts, from the fields sent before it (the browser sends kb_id first). */
  open(fields: MultipartFields): Promise<U>;
  /** Refuses the whole request for a file's name before any of its bytes are read, by throwing. */
  checkName?(name: string): void;
  /** Keep the folders in a file part's name ("docs/a.pdf", a folder upload) instead of only its last part. */
  preservePath?: boolean;
}

function fieldsOf(body: unknown): MultipartFields {
  return Object.fromEntries(Object.entries((body ?? {}) as Record<string, unknown>).map(([key, value]) => [key, String(Array.isArray(value) ? value[0] : value)]));
}

/**
 * Reads the multipart body of an upload route, streaming each `file` part into the upload as it arrives:
 * nothing of a file is held in memory, and the upload's own rules (10 MB, 128 files, the quota, how many uploads
 * at once) refuse it mid-stream. On any failure the upload is abandoned, which deletes what it stored, and the
 * failure is thrown; a body the parser cannot read is answered as one without files ("No file part!").
 */
export async function receiveUpload<U extends StreamedUpload>(req: Request, res: Response, hooks: UploadHooks<U>): Promise<ReceivedUpload<U>> {
  let opened: Promise<U> | undefined;
  let refusal: { error: unknown } | undefined;
  const engine: multer.StorageEngine = {
    _handleFile(request, file, callback) {
      if (file.fieldname !== "file") {
        file.stream.resume();
        return callback(null, {});
      }
      const receive = async () => {
        hooks.checkName?.(file.originalname);
        opened ??= hooks.open(fieldsOf(request.body));
        await (await opened).receive(file.originalname, file.stream);
      };
      receive().then(
        () => callback(null, {}),
        (error: unknown) => {
          refusal ??= { error };
          file.stream.resume();
          callback(error as Error);
        },
      );
    },
    // The upload deletes what it stored when it is abandoned.
    _removeFile: (_request, _file, callback) => callback(null),
  };
  const parser = multer({
    storage: engine,
    preservePath: hooks.preservePath ?? false,
    // Text fields are held in memory: the routes need a few short ones (kb_id).
    limits: { fields: 100, fieldSize: 64 * 1024 },
    // Browsers and RAGFlow's SDK send UTF-8 file names; busboy would read them as Latin-1.
    defParamCharset: "utf8",
  }).any();
  try {
    await new Promise<void>((resolve, reject) => parser(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
  } catch (error) {
    await (await opened?.catch(() => undefined))?.abandon();
    if (refusal) throw refusal.error;
    if (error instanceof multer.MulterError && error.code.startsWith("LIMIT_")) throw new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413");
    return { fields: {}, upload: null };
  }
  return { fields: fieldsOf(req.body), upload: opened ? await opened : null };
}
