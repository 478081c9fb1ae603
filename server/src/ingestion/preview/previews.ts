import { ParseError } from "../types";
import { previewOf } from "./index";
import { unsupported } from "./maker";
import type { Preview } from "./preview";

interface Kept {
  preview: Promise<Preview>;
  /** Characters of the preview once made (its text, HTML, cells…): what keeping it costs. */
  size: number;
}

/** About what a preview holds in memory, in characters. */
function sizeOf(preview: Preview): number {
  const cells = (preview.sheets ?? []).reduce((sum, sheet) => sum + sheet.rows.reduce((rows, row) => rows + row.reduce((length, cell) => length + cell.length + 8, 0), 0), 0);
  const email = preview.email ? (preview.email.html?.length ?? 0) + (preview.email.text?.length ?? 0) : 0;
  const slides = (preview.slides ?? []).reduce((sum, slide) => sum + slide.text.length, 0);
  return 256 + (preview.html?.length ?? 0) + (preview.markdown?.length ?? 0) + (preview.text?.length ?? 0) + cells + email + slides;
}

/**
 * The server's way to a preview: made by `make` (in the server, a parse process with time and memory limits), once
 * per stored object, and kept (the most recently asked, up to a total size), since a file is opened again and again
 * while its bytes never change under one key. A file past a limit previews as "unsupported" with the limit as its reason.
 */
export class Previews {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly make: (bytes: Buffer, fileName: string) => Promise<Preview> = previewOf,
    /** Characters of previews kept: a few large documents, or many small ones. */
    private readonly keptCharacters = 32_000_000,
  ) {}

  /** The preview of the object stored under `storageKey`; `read` fetches its bytes when no preview is kept. */
  of(storageKey: string, fileName: string, read: () => Promise<Buffer>): Promise<Preview> {
    const key = `${storageKey}\u0000${fileName}`;
    const found = this.kept.get(key);
    if (found) {
      // the most recently asked stays longest
      this.kept.delete(key);
      this.kept.set(key, found);
      return found.preview;
    }
    const entry: Kept = { preview: read().then((bytes) => this.make(bytes, fileName)), size: 0 };
    this.kept.set(key, entry);
    return entry.preview.then(
      (preview) => {
        entry.size = sizeOf(preview);
        this.evict();
        return preview;
      },
      (error: unknown) => {
        // a failure is not kept: a busy machine's time limit or an unreachable store may pass
        if (this.kept.get(key) === entry) this.kept.delete(key);
        if (error instanceof ParseError) return unsupported(fileName, error.reason.messageKey, error.reason.params);
        throw error;
      },
    );
  }

  private evict(): void {
    let total = [...this.kept.values()].reduce((sum, entry) => sum + entry.size, 0);
    for (const [key, entry] of this.kept) {
      if (total <= this.keptCharacters) break;
      total -= entry.size;
      this.kept.delete(key);
    }
  }
}
