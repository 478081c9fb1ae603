import type { BinService } from "./bin.service";

declare module "../platform/services" {
  interface Services {
    /** The recycle bin of deleted knowledge bases, documents, assistants, conversations, flows and files. */
    bin: BinService;
  }
}
