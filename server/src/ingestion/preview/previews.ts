import { ParseError } from "../types";
import { previewOf } from "./index";
import { unsupported } from "./maker";
import type { Preview } from "./preview";

/**
 * The server's way to a preview: made by `make` (in the server, a parse process with time and memory limits), once
 * per stored object, and kept (the most recently asked few), since a file is opened again and again while its bytes
 * never change under one key. A file past a limit previews as "unsupported" with the limit as its reason.
 */
export class Previews {
  private readonly cache = new Map<string, Promise<Preview>>();

  constructor(
    private readonly make: (bytes: Buffer, fileName: string) => Promise<Preview> = previewOf,
    private readonly cacheSize = 32,
  ) {}

  /** The preview of the object stored under `storageKey`; `read` fetches its bytes when no preview is kept. */
  of(storageKey: string, fileName: string, read: () => Promise<Buffer>): Promise<Preview> {
    const key = `${storageKey}\u0000${fileName}`;
    const kept = this.cache.get(key);
    if (kept) {
      // the most recently asked stays longest
      this.cache.delete(key);
      this.cache.set(key, kept);
      return kept;
    }
    const made = read().then((bytes) => this.make(bytes, fileName));
    this.cache.set(key, made);
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    // a failure is not kept: a busy machine's time limit or an unreachable store may pass
    return made.catch((error: unknown) => {
      this.cache.delete(key);
      if (error instanceof ParseError) return unsupported(fileName, error.reason.messageKey, error.reason.params);
      throw error;
    });
  }
}
