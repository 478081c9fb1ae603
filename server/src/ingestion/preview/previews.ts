import { previewOf } from "./index";
import type { Preview } from "./preview.type";

/**
 * The server's way to a preview: a file's preview is made once per stored object and kept (a few, the most
 * recently asked), since the same file is opened again and again while its bytes never change under one key.
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
    let preview = this.cache.get(key);
    if (preview) {
      // the most recently asked stays longest
      this.cache.delete(key);
      this.cache.set(key, preview);
      return preview;
    }
    preview = read().then((bytes) => this.make(bytes, fileName));
    this.cache.set(key, preview);
    // a failure (the store unreachable) is not kept: the next ask tries again
    preview.catch(() => this.cache.delete(key));
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return preview;
  }
}
