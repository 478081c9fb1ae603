import { authStore } from "../session/authStore";

/** §9: a file up to 10 MB and at most 128 files in one upload; the server refuses more with HTTP 413. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 128;

function authorization(): Record<string, string> {
  const credential = authStore.getCredential();
  return credential ? { Authorization: `Bearer ${credential}` } : {};
}

/** A failed transfer: the HTTP status (0 when the network failed), the server's message and, when it sent one, its message key. */
export class TransferError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly messageKey?: string,
    readonly params?: Record<string, unknown>,
  ) {
    super(message);
  }
}

interface EnvelopeAnswer<T> {
  code: number;
  message?: string;
  messageKey?: string;
  params?: Record<string, unknown>;
  data?: T;
}

/**
 * Posts a multipart form to one of the server's RAGFlow-style upload routes and resolves with the envelope's `data`.
 * XMLHttpRequest rather than fetch, because only it reports how much of the body has been sent.
 */
export function postForm<T>(url: string, body: FormData, onProgress: (fraction: number) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    for (const [name, value] of Object.entries(authorization())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onerror = () => reject(new TransferError(0, ""));
    request.onload = () => {
      let answer: EnvelopeAnswer<T> | null = null;
      try {
        answer = JSON.parse(request.responseText) as EnvelopeAnswer<T>;
      } catch {
        answer = null;
      }
      if (request.status >= 200 && request.status < 300 && answer && answer.code === 0) resolve(answer.data);
      else reject(new TransferError(request.status, answer?.message ?? "", answer?.messageKey, answer?.params));
    };
    request.send(body);
  });
}

/** Uploads files to a knowledge base (`POST /v1/document/upload`, fields `kb_id` and `file`). */
export async function uploadDocuments(knowledgeBaseId: string, files: File[], onProgress: (fraction: number) => void): Promise<{ id: string; name: string }[]> {
  const body = new FormData();
  body.append("kb_id", knowledgeBaseId);
  for (const file of files) body.append("file", file, file.name);
  return (await postForm<{ id: string; name: string }[]>("/v1/document/upload", body, onProgress)) ?? [];
}

/** Where a document's stored bytes are downloaded from (`GET /v1/document/get/{id}`). */
export function documentDownloadUrl(documentId: string): string {
  return `/v1/document/get/${encodeURIComponent(documentId)}`;
}

/** The stored bytes of a document. */
export function fetchDocumentBlob(documentId: string): Promise<Blob> {
  return fetchBlob(documentDownloadUrl(documentId));
}

/** A file's bytes from this server, fetched with the session's bearer credential. */
export async function fetchBlob(url: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { headers: authorization() });
  } catch {
    throw new TransferError(0, "");
  }
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let answer: Partial<EnvelopeAnswer<unknown>> = {};
    try {
      answer = JSON.parse(text) as EnvelopeAnswer<unknown>;
    } catch {
      answer = {};
    }
    throw new TransferError(response.status, answer.message ?? "", answer.messageKey, answer.params);
  }
  return response.blob();
}

/** Saves a document under its name through a temporary blob URL. */
export function downloadDocument(documentId: string, name: string): Promise<void> {
  return downloadFile(documentDownloadUrl(documentId), name);
}

/** Saves a file of this server (fetched with the session's credential) under `name`. */
export async function downloadFile(downloadUrl: string, name: string): Promise<void> {
  const url = URL.createObjectURL(await fetchBlob(downloadUrl));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The sentence for a failed transfer: the §8 text of its HTTP status, else the server's message, else `fallbackKey`. */
export function describeTransferError(error: unknown, t: (key: string) => string, exists: (key: string) => boolean, fallbackKey: string): string {
  if (!(error instanceof TransferError)) return t(fallbackKey);
  if (error.status === 0) return t("errors.networkAnomaly");
  if (exists(`httpStatus.${error.status}`) && error.status !== 400 && error.status !== 500) return t(`httpStatus.${error.status}`);
  return error.message || t(fallbackKey);
}

/** Bytes as B, KB or MB with §9's number format. */
export function formatBytes(bytes: number, number: (value: number, decimals?: number) => string): string {
  if (bytes < 1024) return `${number(bytes)} B`;
  if (bytes < 1024 * 1024) return `${number(Math.round((bytes / 1024) * 10) / 10, 1)} KB`;
  return `${number(Math.round((bytes / 1024 / 1024) * 100) / 100)} MB`;
}
