import type { FailureReason, ParsedDocument } from "../types";

/**
 * What the server and a parse process say to each other over the IPC channel (structured clone: a Buffer
 * arrives as a Uint8Array).
 */

export interface ParseRequest {
  type: "parse";
  /** The registry name of the parser. */
  parser: string;
  data: Uint8Array;
  fileName: string;
  pages?: [number, number][];
  layoutRecognize: boolean;
  language: string;
}

export type ParseReply =
  | { type: "progress"; fraction: number; message?: string }
  | { type: "parsed"; document: ParsedDocument }
  | { type: "failed"; message: string; reason?: FailureReason; unexpected: boolean };

export function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** The pictures of a parsed document are Buffers again after the trip (parsers and chunkers rely on Buffer). */
export function reviveBuffers(document: ParsedDocument): ParsedDocument {
  for (const block of document.blocks) if (block.kind === "image") block.image.data = asBuffer(block.image.data);
  for (const attachment of document.attachments ?? []) reviveBuffers(attachment.document);
  return document;
}
