import { decodeText } from "../parsers/plain-text";
import { PreviewKind, type Preview, type PreviewReason } from "./preview";

/** One way of previewing files, for the types it names (the file name's extension, lower-case, without its dot). */
export interface PreviewMaker {
  /** What it renders, for whoever reads the registry. */
  name: string;
  extensions: readonly string[];
  make(bytes: Buffer, fileName: string): Promise<Preview>;
}

export function unsupported(fileName: string, messageKey: string, params: Record<string, unknown> = {}): Preview {
  return { kind: PreviewKind.unsupported, fileName, truncated: false, reason: { messageKey, params } satisfies PreviewReason };
}

/** The first `limit` characters, cut at the last line break before it when there is one not too far back. */
export function cut(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const lineEnd = text.lastIndexOf("\n", limit);
  return { text: text.slice(0, lineEnd > limit * 0.9 ? lineEnd : limit), truncated: true };
}

const SAMPLE_BYTES = 8192;

/**
 * Whether bytes are not text at all (a picture or an archive renamed to .txt): text of any encoding has no NUL
 * byte and few control characters. A UTF-16 text starts with its byte-order mark, which decodeText reads.
 */
export function looksBinary(bytes: Buffer): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) control += 1;
  }
  return control > sample.length * 0.05;
}

/** A text file's characters, or null when its bytes are not text. */
export function textOf(bytes: Buffer): string | null {
  return looksBinary(bytes) ? null : decodeText(bytes).replace(/\r\n?/g, "\n");
}
