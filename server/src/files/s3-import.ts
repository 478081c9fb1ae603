import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import type { FileImport, S3ObjectPage, S3SourceInput } from "./file.types";
import type { FileService } from "./file.service";

/** An import's state as its subscribers receive it. */
export type FileImportEvent = FileImport;

/** Copies objects of an S3-compatible bucket into the file manager, with progress; the bucket's keys are never stored. */
export class S3ImportService {
  constructor(
    readonly platform: Platform,
    readonly files: FileService,
  ) {}

  async list(_principal: SignedIn, _source: S3SourceInput, _continuationToken: string | null): Promise<S3ObjectPage> {
    throw new Error("not built yet");
  }

  async start(_principal: SignedIn, _source: S3SourceInput, _keys: string[], _parentId: string | null): Promise<FileImport> {
    throw new Error("not built yet");
  }

  async state(_principal: SignedIn, _id: string): Promise<FileImport> {
    throw new Error("not built yet");
  }

  async progress(_principal: SignedIn, _id: string): Promise<AsyncIterable<FileImportEvent>> {
    throw new Error("not built yet");
  }
}
