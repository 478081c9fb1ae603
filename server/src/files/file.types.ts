import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";

/** The GraphQL shapes of the file manager: what leaves the server about files, folders, links and imports. */

export enum FileKind {
  folder = "folder",
  file = "file",
}
registerEnumType(FileKind, { name: "FileKind" });

export enum FileSort {
  name = "name",
  size = "size",
  updatedAt = "updatedAt",
  createdAt = "createdAt",
}
registerEnumType(FileSort, { name: "FileSort", description: "Folders always come before files; within each, this order." });

export enum FileImportStatus {
  running = "running",
  done = "done",
  failed = "failed",
}
registerEnumType(FileImportStatus, { name: "FileImportStatus", description: "done: every object was tried (some may have failed, see errors); failed: the import stopped." });

@ObjectType({ description: "What the user may do to a file or folder, as the server's policies decide (the client's filePermissionMap caches it)." })
export class FileActions {
  @Field({ description: "See it, preview and download it." })
  read: boolean;

  @Field({ description: "Link it to a knowledge base." })
  use: boolean;

  @Field({ description: "Rename it, move it, upload or create into it (a folder)." })
  manage: boolean;

  @Field()
  delete: boolean;
}

@ObjectType({ description: "A knowledge base a file is linked to, through the document it became there." })
export class FileKnowledgeBaseLink {
  @Field(() => ID, { description: "The knowledge base's id." })
  id: string;

  @Field()
  name: string;

  @Field(() => ID)
  documentId: string;

  /** The link's own id and time, for the REST facade (RAGFlow's file2document rows). */
  linkId: string;
  linkedAt: Date;
}

@ObjectType({ description: "A folder or a file of the file manager. Entries under .knowledgebase/ are read-only views of documents uploaded straight into a knowledge base." })
export class FileEntry {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => FileKind)
  kind: FileKind;

  @Field({ description: "Lower-case extension without the dot; empty for folders." })
  suffix: string;

  @Field(() => Float, { description: "Bytes; a folder's is the sum of the files under it." })
  size: number;

  @Field(() => ID, { nullable: true, description: "None for the root folder." })
  parentId: string | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field({ description: "A .knowledgebase/ entry: no rename, move, delete, link or upload." })
  readOnly: boolean;

  @Field({ description: "\"\" (uploaded or made here), \"s3\" (imported from a bucket) or \"knowledgebase\" (a .knowledgebase/ view)." })
  sourceType: string;

  @Field({ description: "A folder with sub-folders (the destination tree shows an expander)." })
  hasChildFolders: boolean;

  @Field(() => ID, { nullable: true, description: "For a .knowledgebase/ file: the document it shows." })
  documentId: string | null;

  @Field(() => [FileKnowledgeBaseLink], { description: "The knowledge bases this file is linked to; empty for folders." })
  knowledgeBases: FileKnowledgeBaseLink[];

  @Field(() => FileActions)
  can: FileActions;

  /** What only the REST facade shows (RAGFlow's file rows): the tenant, who made it, and RAGFlow's file type. */
  tenantId: string;
  createdBy: string;
  type: string;
}

@ObjectType()
export class FilePage {
  @Field(() => [FileEntry])
  items: FileEntry[];

  @Field(() => Int, { description: "Entries of the folder that match the search, on every page." })
  total: number;

  @Field(() => FileEntry, { description: "The folder listed." })
  folder: FileEntry;

  @Field(() => [FileEntry], { description: "Breadcrumbs: the root first, the listed folder last." })
  path: FileEntry[];
}

@ObjectType({ description: "A knowledge-base document that goes when a file is deleted (or a folder holding it)." })
export class LinkedDocument {
  @Field(() => ID)
  fileId: string;

  @Field()
  fileName: string;

  @Field(() => ID)
  documentId: string;

  @Field()
  documentName: string;

  @Field(() => ID)
  knowledgeBaseId: string;

  @Field()
  knowledgeBaseName: string;

  @Field({ description: "False for a document of a knowledge base the user may not change (a team member linked the file there): it stays, with the bytes it shares." })
  removed: boolean;
}

@ObjectType({ description: "What deleting some files and folders removes (before: a preview; after: what went)." })
export class FileDeletionImpact {
  @Field(() => Int, { description: "Files, counting those inside the folders." })
  files: number;

  @Field(() => Int, { description: "Folders, counting those inside the folders." })
  folders: number;

  @Field(() => [LinkedDocument])
  documents: LinkedDocument[];
}

@InputType({ description: "An S3-compatible bucket. The keys are used for this one request and never stored nor logged." })
export class S3SourceInput {
  @Field({ description: "http(s)://host[:port] of the S3 service (e.g. https://s3.eu-west-1.amazonaws.com or a MinIO)." })
  endpoint: string;

  @Field(() => String, { nullable: true, description: "Default us-east-1." })
  region?: string | null;

  @Field()
  bucket: string;

  @Field(() => String, { nullable: true, description: "Only keys that start with this." })
  prefix?: string | null;

  @Field()
  accessKey: string;

  @Field()
  secretKey: string;
}

@ObjectType()
export class S3ObjectEntry {
  @Field()
  key: string;

  @Field(() => Float)
  size: number;

  @Field(() => Date, { nullable: true })
  lastModified: Date | null;

  @Field({ description: "Over 10 MB: the import would refuse it." })
  tooLarge: boolean;
}

@ObjectType()
export class S3ObjectPage {
  @Field(() => [S3ObjectEntry])
  objects: S3ObjectEntry[];

  @Field(() => String, { nullable: true, description: "Give it back for the next page; none on the last page." })
  nextContinuationToken: string | null;
}

@ObjectType({ description: "Why one object of an import was not copied." })
export class FileImportError {
  @Field()
  key: string;

  @Field()
  messageKey: string;

  @Field({ description: "In the reader's language." })
  message: string;
}

@ObjectType({ description: "An import of objects from an S3 bucket into a folder, and how far it got." })
export class FileImport {
  @Field(() => ID)
  id: string;

  @Field(() => ID, { description: "The folder the objects go to." })
  parentId: string;

  @Field(() => FileImportStatus)
  status: FileImportStatus;

  @Field(() => Int)
  total: number;

  @Field(() => Int, { description: "Objects copied." })
  done: number;

  @Field(() => Int, { description: "Objects that could not be copied (see errors)." })
  failed: number;

  @Field(() => [FileImportError])
  errors: FileImportError[];

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}
