import type { FileService } from "./file.service";
import type { S3ImportService } from "./s3-import";

declare module "../platform/services" {
  interface Services {
    /** The file manager. */
    files: FileService;
    /** Imports from S3-compatible buckets into the file manager. */
    fileImports: S3ImportService;
  }
}
