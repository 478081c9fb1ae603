import type { Request, Response } from "express";
import multer from "multer";
import { DomainError } from "../../platform/errors";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, type UploadedFile } from "../document.service";

/**
 * Multipart bodies of the upload routes, held in memory. The limits stop reading as soon as a file
 * passes 10 MB or the 129th file starts, so an oversize upload is refused before anything is stored;
 * the refusal is the DocumentService's own (the §8 413 text), so both surfaces say the same.
 */
const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES_PER_UPLOAD },
  // Browsers and RAGFlow's SDK send UTF-8 file names; busboy would read them as Latin-1.
  defParamCharset: "utf8",
}).any();

export interface MultipartBody {
  /** The parts named `file`, in order. */
  files: UploadedFile[];
  /** Text fields. */
  fields: Record<string, string>;
}

export const payloadTooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413");

export function readMultipart(req: Request, res: Response): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    parser(req, res, (error?: unknown) => {
      if (error instanceof multer.MulterError && (error.code === "LIMIT_FILE_SIZE" || error.code === "LIMIT_FILE_COUNT")) return reject(payloadTooLarge());
      // A broken multipart body is read as one without files ("No file part!").
      if (error) return resolve({ files: [], fields: {} });
      const parts = (req.files as Express.Multer.File[] | undefined) ?? [];
      const body = (req.body ?? {}) as Record<string, unknown>;
      resolve({
        files: parts.filter((part) => part.fieldname === "file").map((part) => ({ name: part.originalname, data: part.buffer })),
        fields: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(Array.isArray(value) ? value[0] : value)])),
      });
    });
  });
}
