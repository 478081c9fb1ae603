import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { FileDeletionImpact, FileEntry, FileImport, FilePage, FileSort, S3ObjectPage, S3SourceInput } from "./file.types";
import type { FileImportEvent } from "./s3-import";
import type { Preview } from "../ingestion/preview/preview";
import { PreviewType } from "../ingestion/preview/preview.type";

/** The file manager over GraphQL, for the /file page: thin over FileService and the S3 imports. */
@Resolver(() => FileEntry)
export class FileResolver {
  @Query(() => FilePage, { description: "A folder's entries (folders first), with breadcrumbs. No parentId: the user's root folder, made on first use." })
  files(
    @Ctx() context: GraphQLContext,
    @Arg("parentId", () => ID, { nullable: true }) parentId: string | null,
    @Arg("search", () => String, { nullable: true, description: "Case-insensitive part of the name, within this folder." }) search: string | null,
    @Arg("sort", () => FileSort, { nullable: true, description: "Default updatedAt." }) sort: FileSort | null,
    @Arg("desc", () => Boolean, { nullable: true, description: "Default true." }) desc: boolean | null,
    @Arg("page", () => Int, { nullable: true, description: "From 1." }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true, description: "Default 15, at most 100." }) pageSize: number | null,
  ): Promise<FilePage> {
    return context.services.files.list(signedIn(context), { parentId, search, sort, desc, page, pageSize });
  }

  @Query(() => FileEntry, { description: "One file or folder." })
  file(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<FileEntry> {
    return context.services.files.entry(signedIn(context), id);
  }

  @Query(() => PreviewType, { description: "A file rendered for reading (see PreviewKind); a .knowledgebase/ file: its document's." })
  filePreview(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<Preview> {
    return context.services.files.preview(signedIn(context), id);
  }

  @Query(() => [FileEntry], { description: "The sub-folders of a folder, for the destination picker (read lazily, level by level). No parentId: the root folder itself." })
  fileFolders(@Ctx() context: GraphQLContext, @Arg("parentId", () => ID, { nullable: true }) parentId: string | null): Promise<FileEntry[]> {
    return context.services.files.folders(signedIn(context), parentId);
  }

  @Mutation(() => FileEntry, { description: "A new folder; its name is required, has no \"/\" and is unique in its folder. No parentId: in the root." })
  createFolder(@Ctx() context: GraphQLContext, @Arg("name") name: string, @Arg("parentId", () => ID, { nullable: true }) parentId: string | null): Promise<FileEntry> {
    return context.services.files.createFolder(signedIn(context), parentId, name);
  }

  @Mutation(() => FileEntry, { description: "Renames a file (its extension stays) or a folder; the name stays unique in its folder." })
  renameFile(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string, @Arg("name") name: string): Promise<FileEntry> {
    return context.services.files.rename(signedIn(context), id, name);
  }

  @Mutation(() => [FileEntry], { description: "Moves files and folders into a folder (never a folder into itself or below itself; a name already there is refused)." })
  moveFiles(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[], @Arg("targetId", () => ID) targetId: string): Promise<FileEntry[]> {
    return context.services.files.move(signedIn(context), ids, targetId);
  }

  @Query(() => FileDeletionImpact, { description: "What deleting these would remove, folders counted recursively, with the knowledge-base documents that would go too." })
  fileDeletionImpact(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<FileDeletionImpact> {
    return context.services.files.deletionImpact(signedIn(context), ids);
  }

  @Mutation(() => FileDeletionImpact, { description: "Deletes files and folders (recursively) with the documents linked to them; answers what went." })
  deleteFiles(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<FileDeletionImpact> {
    return context.services.files.delete(signedIn(context), ids);
  }

  @Mutation(() => [FileEntry], {
    description: "Makes each file (a folder: every file under it) a document of each knowledge base, sharing the file's bytes, and starts parsing it. A file already linked to one of them keeps that link. Answers the files with their links.",
  })
  linkFiles(@Ctx() context: GraphQLContext, @Arg("fileIds", () => [ID]) fileIds: string[], @Arg("knowledgeBaseIds", () => [ID]) knowledgeBaseIds: string[]): Promise<FileEntry[]> {
    return context.services.files.link(signedIn(context), fileIds, knowledgeBaseIds);
  }

  @Mutation(() => FileEntry, { description: "Removes the document a file became in a knowledge base; the file stays." })
  unlinkFile(@Ctx() context: GraphQLContext, @Arg("fileId", () => ID) fileId: string, @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string): Promise<FileEntry> {
    return context.services.files.unlink(signedIn(context), fileId, knowledgeBaseId);
  }

  @Mutation(() => S3ObjectPage, {
    description: "Lists a page of a bucket's objects under the prefix. A mutation, not a query, so that the keys never sit in a client's query cache.",
  })
  listS3Objects(
    @Ctx() context: GraphQLContext,
    @Arg("source", () => S3SourceInput) source: S3SourceInput,
    @Arg("continuationToken", () => String, { nullable: true }) continuationToken: string | null,
  ): Promise<S3ObjectPage> {
    return context.services.fileImports.list(signedIn(context), source, continuationToken);
  }

  @Mutation(() => FileImport, { description: "Starts copying these objects into a folder (no parentId: the root); follow it with fileImportProgress." })
  importFromS3(
    @Ctx() context: GraphQLContext,
    @Arg("source", () => S3SourceInput) source: S3SourceInput,
    @Arg("keys", () => [String]) keys: string[],
    @Arg("parentId", () => ID, { nullable: true }) parentId: string | null,
  ): Promise<FileImport> {
    return context.services.fileImports.start(signedIn(context), source, keys, parentId);
  }

  @Query(() => FileImport, { description: "An import as it is now." })
  fileImport(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<FileImport> {
    return context.services.fileImports.state(signedIn(context), id);
  }

  @Subscription(() => FileImport, {
    description: "An import's progress: first as it is now, then every change, until it ends.",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, { importId: string }, GraphQLContext>) => context.services.fileImports.progress(signedIn(context), args.importId),
  })
  fileImportProgress(@Root() event: FileImportEvent, @Arg("importId", () => ID) _importId: string): FileImport {
    return event;
  }
}
