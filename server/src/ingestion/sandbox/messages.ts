import type { LogMessage } from "../parse-log";
import type { Chunked } from "../chunking";
import type { Preview } from "../preview/preview";
import type { FailureReason, ParsedDocument, ParserConfig } from "../types";

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
  /** The chunk method to apply after parsing, when it calls no model. */
  chunking?: { method: string; config: ParserConfig };
}

/** A file to preview (ingestion/preview) rather than parse. */
export interface PreviewRequest {
  type: "preview";
  data: Uint8Array;
  fileName: string;
}

export type ParsePhase = "parse" | "chunk";

export type ParseReply =
  | { type: "progress"; phase: ParsePhase; fraction: number; message?: LogMessage }
  /** With `chunked`, the document's blocks stay behind: only its notes, title and page count come back. */
  | { type: "parsed"; document: ParsedDocument; chunked?: Chunked }
  | { type: "previewed"; preview: Preview }
  /** A ParseError's reason; none when the parser failed unexpectedly (the parse process logs why). */
  | { type: "failed"; reason?: FailureReason };

export function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Pictures are Buffers again after the trip (parsers, chunkers and the object store rely on Buffer). */
export function reviveBuffers(reply: { document: ParsedDocument; chunked?: Chunked }): void {
  const revive = (document: ParsedDocument) => {
    for (const block of document.blocks) if (block.kind === "image") block.image.data = asBuffer(block.image.data);
    for (const attachment of document.attachments ?? []) revive(attachment.document);
  };
  revive(reply.document);
  for (const draft of reply.chunked?.drafts ?? []) if (draft.image) draft.image.data = asBuffer(draft.image.data);
}
