import type { Response } from "express";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileExtension } from "../../ingestion/file-types";
import { API_POLICY } from "../../rest/security-headers";

/**
 * Types a browser shows without running anything inside them: what the document viewer shows inline. Anything
 * else — HTML, SVG, XHTML, XML with its stylesheets, and every type not listed — could run script on Cairn's origin
 * if a browser opened it, so it only ever leaves as an attachment of no particular type.
 */
const PASSIVE_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  ico: "image/x-icon",
  tif: "image/tiff",
  tiff: "image/tiff",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
};

/** `attachment`/`inline` with the name, in the RFC 6266 form a non-ASCII name needs. */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (kind === "inline") return `inline; filename*=UTF-8''${encoded}`;
  // eslint-disable-next-line no-control-regex
  return /^[\x20-\x7e]*$/.test(name) && !/[";\\]/.test(name) ? `attachment; filename=${name}` : `attachment; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a stored file's bytes, whole or streamed: inline with its type when asked and the type is passive, else as an
 * attachment of application/octet-stream; always unsniffable and sandboxed, whatever the route's other headers say.
 */
export async function sendStoredFile(res: Response, name: string, bytes: Buffer | Readable, wanted: "inline" | "attachment", size?: number): Promise<void> {
  const passive = PASSIVE_TYPES[fileExtension(name)];
  const inline = wanted === "inline" && passive !== undefined;
  res.type(inline ? passive : "application/octet-stream");
  res.setHeader("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", name));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", API_POLICY);
  if (Buffer.isBuffer(bytes)) {
    res.send(bytes);
    return;
  }
  if (size !== undefined) res.setHeader("Content-Length", String(size));
  await pipeline(bytes, res);
}
