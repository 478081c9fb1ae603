import { In, type EntityManager, type Repository } from "typeorm";
import type { SignedIn } from "../policies/principal";
import { MAX_CHUNK_TOKENS } from "../ingestion/chunkers/parser-params";
import { fileExtension } from "../ingestion/file-types";
import { countTokens } from "../models/tokens";
import { DomainError, FieldChecks } from "../platform/errors";
import { newId } from "../platform/ids";
import type { Platform } from "../platform";
import { Chunk } from "./chunk.entity";
import { ChunkService } from "./chunk.service";
import { insertChunks } from "./chunk-store";
import { ChunkMerge, MergeSourceAction, MergeTarget, type ChunkMergeSource } from "./chunk-merge.entity";
import type { Document } from "./document.entity";
import { MAX_NAME_BYTES, type DocumentService } from "./document.service";
import type { KnowledgeBase } from "./knowledge-base.entity";
import type { KnowledgeBaseService } from "./knowledge-base.service";

/** A merge is of two chunks at least; at most a page of search results' worth, which the merge page can still show and reorder. */
export const MIN_MERGE_SOURCES = 2;
export const MAX_MERGE_SOURCES = 100;
/** A merged text is kept in the page's memory and sent whole: a million characters is a long book, and far less than an upload's 10 MB. */
export const MAX_MERGED_TEXT_CHARS = 1_000_000;
/** The extensions a merged document keeps; any other name gets ".txt", since the text is plain text. */
const TEXT_EXTENSIONS = ["txt", "md"];

/** A chosen chunk with what the merge page shows of it. */
export interface MergeSource {
  chunk: Chunk;
  document: Document;
  knowledgeBase: KnowledgeBase;
}

export interface MergeInput {
  /** In the order their texts were joined. */
  chunkIds: string[];
  /** The merged text, as edited. */
  content: string;
  target: MergeTarget;
  /** target chunk: the document the merged chunk goes into. */
  documentId?: string;
  /** target document: the knowledge base of the new document, and its name. */
  knowledgeBaseId?: string;
  documentName?: string;
  /** target chunk: the merged chunk's; the sources' together when not given. */
  keywords?: string[];
  questions?: string[];
  sourceAction?: MergeSourceAction;
}

export interface MergeResult {
  merge: ChunkMerge;
  /** The merged chunk (target chunk). */
  chunk: Chunk | null;
  /** The document holding the result: the chunk's, or the new one (parsing). */
  document: Document;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** The name a merged document is stored under: the user's, as a text file. */
function mergedDocumentName(name: string): string {
  return TEXT_EXTENSIONS.includes(fileExtension(name)) ? name : `${name}.txt`;
}

/**
 * Merging chosen chunks (from search results or a document's chunk page) into one chunk of a document, or into a new
 * document of a knowledge base; each merge is recorded with a copy of its sources as they were.
 */
export class ChunkMergeService {
  private readonly repository: Repository<ChunkMerge>;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBases: KnowledgeBaseService,
    private readonly documents: DocumentService,
    private readonly chunks: ChunkService,
  ) {
    this.repository = platform.db.getRepository(ChunkMerge);
  }

  /** The chosen chunks in the order given (repeats dropped), each with its document and knowledge base; any the principal may not read is "chunk not found". */
  async sources(principal: SignedIn, chunkIds: string[]): Promise<MergeSource[]> {
    const ids = unique(chunkIds);
    if (ids.length > MAX_MERGE_SOURCES) throw new DomainError("BAD_REQUEST", "errors.merge.tooManyChunks", { max: MAX_MERGE_SOURCES });
    const chunks = await this.chunks.allOf(principal, ids, "read");
    const documents = new Map<string, Document>();
    const knowledgeBases = new Map<string, KnowledgeBase>();
    for (const chunk of chunks) {
      if (!documents.has(chunk.documentId)) documents.set(chunk.documentId, await this.documents.accessible(principal, chunk.documentId));
      if (!knowledgeBases.has(chunk.knowledgeBaseId)) knowledgeBases.set(chunk.knowledgeBaseId, await this.knowledgeBases.accessible(principal, chunk.knowledgeBaseId));
    }
    return chunks.map((chunk) => ({ chunk, document: documents.get(chunk.documentId)!, knowledgeBase: knowledgeBases.get(chunk.knowledgeBaseId)! }));
  }

  /** The tokens of a merged text, and the most one chunk may hold (MAX_MERGED_TEXT_CHARS bounds the counting). */
  textSize(text: string): { tokens: number; maxChunkTokens: number } {
    if (text.length > MAX_MERGED_TEXT_CHARS) throw new DomainError("PAYLOAD_TOO_LARGE", "errors.merge.textTooLong", { max: MAX_MERGED_TEXT_CHARS });
    return { tokens: countTokens(text), maxChunkTokens: MAX_CHUNK_TOKENS };
  }

  /** Merges: everything is checked before anything changes, so a refusal leaves the sources and targets as they were. */
  async merge(principal: SignedIn, input: MergeInput): Promise<MergeResult> {
    const ids = unique(input.chunkIds);
    const content = input.content.trim();
    const sourceAction = input.sourceAction ?? MergeSourceAction.keep;
    const checks = new FieldChecks();
    checks.check(ids.length >= MIN_MERGE_SOURCES, "chunkIds", "errors.merge.tooFewChunks", { min: MIN_MERGE_SOURCES });
    checks.check(ids.length <= MAX_MERGE_SOURCES, "chunkIds", "errors.merge.tooManyChunks", { max: MAX_MERGE_SOURCES });
    checks.check(content.length > 0, "content", "errors.merge.textRequired");
    checks.check(content.length <= MAX_MERGED_TEXT_CHARS, "content", "errors.merge.textTooLong", { max: MAX_MERGED_TEXT_CHARS });
    const name = input.documentName?.trim() ?? "";
    if (input.target === MergeTarget.chunk) {
      checks.check(Boolean(input.documentId), "documentId", "errors.merge.documentRequired");
      // One chunk holds no more than the largest chunk parsing makes (chunk_token_num's limit); longer text is a document.
      const tokens = content.length > 0 && content.length <= MAX_MERGED_TEXT_CHARS ? countTokens(content) : 0;
      checks.check(tokens <= MAX_CHUNK_TOKENS, "content", "errors.merge.chunkTooLong", { tokens, max: MAX_CHUNK_TOKENS });
    } else {
      checks.check(Boolean(input.knowledgeBaseId), "knowledgeBaseId", "errors.merge.knowledgeBaseRequired");
      checks.check(name.length > 0, "documentName", "errors.knowledge.documentNameRequired");
      checks.check(Buffer.byteLength(mergedDocumentName(name)) <= MAX_NAME_BYTES, "documentName", "errors.knowledge.nameTooLongBytes");
    }
    checks.throwIfAny();

    const sources = await this.sources(principal, ids);
    if (sourceAction !== MergeSourceAction.keep) {
      for (const documentId of unique(sources.map((s) => s.document.id))) await this.documents.accessible(principal, documentId, "manage");
    }
    const record = (target: MergeTarget, document: Document, chunkId: string | null): ChunkMerge =>
      this.repository.create({
        id: newId(),
        tenantId: document.tenantId,
        createdBy: principal.user.id,
        target,
        targetKnowledgeBaseId: document.knowledgeBaseId,
        targetDocumentId: document.id,
        targetChunkId: chunkId,
        sourceAction,
        sources: sources.map(({ chunk, document: of }): ChunkMergeSource => ({ chunkId: chunk.id, documentId: of.id, documentName: of.name, knowledgeBaseId: chunk.knowledgeBaseId, content: chunk.content })),
      });

    if (input.target === MergeTarget.chunk) {
      const document = await this.documents.accessible(principal, input.documentId!, "manage");
      const knowledgeBase = await this.knowledgeBases.accessible(principal, document.knowledgeBaseId, "manage");
      const models = unique([knowledgeBase.embeddingModel, ...sources.map((s) => s.knowledgeBase.embeddingModel)]);
      if (models.length > 1) throw new DomainError("BAD_REQUEST", "errors.merge.embeddingModelsDiffer", { models: models.join(", ") });
      const stored = await this.chunks.manualChunk(document, {
        content,
        keywords: input.keywords ?? unique(sources.flatMap((s) => s.chunk.keywords)),
        questions: input.questions ?? unique(sources.flatMap((s) => s.chunk.questions)),
      });
      const merge = record(MergeTarget.chunk, document, stored.id);
      await this.platform.db.transaction(async (manager) => {
        await insertChunks(manager, [stored]);
        await this.recordAndSettle(manager, merge, sources);
      });
      await this.afterSettling(merge, sources);
      return { merge, chunk: await this.platform.db.getRepository(Chunk).findOneByOrFail({ id: stored.id }), document: await this.documents.accessible(principal, document.id) };
    }

    // A new document is a text file like any upload, parsed with its knowledge base's chunk method: it can be read,
    // downloaded and parsed again like the others, and text longer than one chunk is cut the way the user set.
    const uploaded = await this.documents.upload(principal, input.knowledgeBaseId!, [{ name: mergedDocumentName(name), data: Buffer.from(content) }]);
    const [document] = uploaded.documents;
    const merge = record(MergeTarget.document, document, null);
    await this.platform.db.transaction((manager) => this.recordAndSettle(manager, merge, sources));
    await this.afterSettling(merge, sources);
    const [parsing] = await this.documents.runParsing(principal, [document.id]);
    return { merge, chunk: null, document: parsing };
  }

  /** Stores the record and disables or deletes the sources in the transaction that stores the result. */
  private async recordAndSettle(manager: EntityManager, merge: ChunkMerge, sources: MergeSource[]): Promise<void> {
    await manager.insert(ChunkMerge, merge);
    const chunks = sources.map((s) => s.chunk);
    if (merge.sourceAction === MergeSourceAction.disable) await manager.update(Chunk, { id: In(chunks.map((c) => c.id)) }, { available: false });
    if (merge.sourceAction === MergeSourceAction.remove) await ChunkService.deleteRows(manager, chunks);
  }

  private async afterSettling(merge: ChunkMerge, sources: MergeSource[]): Promise<void> {
    if (merge.sourceAction === MergeSourceAction.remove) await this.chunks.forgetImages(sources.map((s) => s.chunk));
  }

  /** The merges whose result is in this document (a merged chunk, or the document itself), oldest first. */
  async ofDocument(principal: SignedIn, documentId: string): Promise<ChunkMerge[]> {
    const document = await this.documents.accessible(principal, documentId);
    return this.repository.find({ where: { targetDocumentId: document.id }, order: { createdAt: "ASC", id: "ASC" } });
  }
}
