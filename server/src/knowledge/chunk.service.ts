import { xxh64 } from "@node-rs/xxhash";
import { In, type EntityManager, type Repository, type SelectQueryBuilder } from "typeorm";
import type { Action } from "../policies";
import type { SignedIn } from "../policies/principal";
import { embedWithName } from "../ingestion/pipeline";
import type { ModelsService } from "../models/models.service";
import { countTokens } from "../models/tokens";
import { DomainError, FieldChecks, NotFound } from "../platform/errors";
import type { Platform } from "../platform";
import { Chunk } from "./chunk.entity";
import { deleteChunks, ensureVectorIndex, insertChunks, type StoredChunk } from "./chunk-store";
import type { Document } from "./document.entity";
import type { DocumentService } from "./document.service";
import { KnowledgeBase } from "./knowledge-base.entity";
import { highlight, queryTerms, TITLE_WEIGHT } from "./search-terms";

export interface ChunkQuery {
  /** Words to look for (analysed like the index: stems, Chinese words). */
  search?: string;
  /** true = enabled only, false = disabled only. */
  available?: boolean;
  /** original = from parsing or added by hand, raptor = RAPTOR summaries; all when absent. */
  origin?: ChunkOrigin;
  page?: number;
  /** 0 = all. */
  pageSize?: number;
  id?: string;
}

export const CHUNK_ORIGINS = ["original", "raptor"] as const;
export type ChunkOrigin = (typeof CHUNK_ORIGINS)[number];

export interface ChunkInput {
  content?: string;
  keywords?: string[];
  questions?: string[];
  available?: boolean;
}

export interface ChunkPage {
  total: number;
  items: (Chunk & { highlighted: string | null })[];
  document: Document;
}

/** RAGFlow's id of a chunk added by hand: xxHash64 of its text and document id. */
export function manualChunkId(content: string, documentId: string): string {
  return xxh64(`${content}${documentId}`).toString(16).padStart(16, "0");
}

/**
 * RAGFlow's keyword search of a document's chunks (contract §4.2, its full-text query with
 * minimum_should_match 30 %): a chunk matches when enough of the query's terms are in its text, title,
 * keywords or questions — or, for chunks that parsing produced (not those added by hand), in the
 * document's name, as RAGFlow's title field holds it. The best matches come first.
 */
function matchKeywords(builder: SelectQueryBuilder<Chunk>, terms: string[], documentName: string): void {
  const inName = new Set(queryTerms(documentName));
  const params: Record<string, string> = {};
  const matched: string[] = [];
  const scored: string[] = [];
  terms.forEach((term, i) => {
    params[`term${i}`] = term;
    const fromName = inName.has(term) ? " OR c.kind <> 'manual'" : "";
    matched.push(`CASE WHEN c.terms ? :term${i}${fromName} THEN 1 ELSE 0 END`);
    scored.push(`coalesce((c.terms ->> :term${i})::real, 0)${inName.has(term) ? ` + CASE WHEN c.kind <> 'manual' THEN ${TITLE_WEIGHT} ELSE 0 END` : ""}`);
  });
  const required = Math.max(1, Math.floor(terms.length * 0.3));
  builder.andWhere(`(${matched.join(" + ")}) >= ${required}`, params).orderBy(`(${scored.join(" + ")})`, "DESC");
}

const noChunkSelected = () => new DomainError("BAD_REQUEST", "errors.selectChunk");

/** A chunk of a document the principal may not see is not found, like a chunk that does not exist. */
function chunkNotFoundIfUnseen(error: unknown): never {
  if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("errors.knowledge.chunkNotFound");
  throw error;
}

/** Chunks of documents: reading, searching, editing, enabling and removing them by hand. */
export class ChunkService {
  private readonly repository: Repository<Chunk>;

  constructor(
    private readonly platform: Platform,
    private readonly documents: DocumentService,
    private readonly models: ModelsService,
  ) {
    this.repository = platform.db.getRepository(Chunk);
  }

  async list(principal: SignedIn, documentId: string, query: ChunkQuery = {}): Promise<ChunkPage> {
    const document = await this.documents.accessible(principal, documentId);
    const builder = this.repository.createQueryBuilder("c").where("c.documentId = :documentId", { documentId });
    if (query.available !== undefined) builder.andWhere("c.available = :available", { available: query.available });
    if (query.origin) builder.andWhere(query.origin === "raptor" ? "c.kind = 'raptor'" : "c.kind <> 'raptor'");
    if (query.id) builder.andWhere("c.id = :id", { id: query.id });
    const terms = queryTerms(query.search ?? "");
    if (terms.length > 0) matchKeywords(builder, terms, document.name);
    else if (query.search?.trim()) builder.andWhere("false");
    // Best matches of a keyword search first (when there is one), then RAPTOR summaries after the chunks they summarise (they have no page).
    builder.addOrderBy("c.kind = 'raptor'", "ASC").addOrderBy("c.page", "ASC", "NULLS FIRST").addOrderBy("c.top", "ASC", "NULLS FIRST").addOrderBy("c.ordinal", "ASC").addOrderBy("c.createdAt", "DESC");
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    if (pageSize > 0) builder.skip((page - 1) * pageSize).take(pageSize);
    const [chunks, total] = await builder.getManyAndCount();
    const termSet = new Set(terms);
    return { total, document, items: chunks.map((c) => Object.assign(c, { highlighted: terms.length > 0 ? highlight(c.content, termSet) : null })) };
  }

  /** One chunk of a document the principal may read: what a citation points at. */
  async get(principal: SignedIn, id: string): Promise<Chunk> {
    const [chunk] = await this.owned(principal, [id], "read");
    if (!chunk) throw NotFound("errors.knowledge.chunkNotFound");
    return chunk;
  }

  /**
   * Every one of these chunks, in the order asked, when the principal may act so on their documents; an id that is
   * missing or unseen is "chunk not found", whichever it is.
   */
  async allOf(principal: SignedIn, ids: string[], action: Action): Promise<Chunk[]> {
    const chunks = new Map((await this.owned(principal, ids, action).catch(chunkNotFoundIfUnseen)).map((c) => [c.id, c]));
    return ids.map((id) => chunks.get(id) ?? chunkNotFoundIfUnseen(NotFound()));
  }

  /** The chunks, when the principal may act so on their documents (chunks are answered by their knowledge base's policy). */
  private async owned(principal: SignedIn, ids: string[], action: Action): Promise<Chunk[]> {
    if (ids.length === 0) throw noChunkSelected();
    const chunks = await this.repository.findBy({ id: In([...new Set(ids)]) });
    for (const documentId of new Set(chunks.map((c) => c.documentId))) await this.documents.accessible(principal, documentId, action);
    return chunks;
  }

  private checkInput(input: ChunkInput, requireContent: boolean): void {
    const checks = new FieldChecks();
    if (requireContent || input.content !== undefined) checks.check((input.content ?? "").trim().length > 0, "content", "errors.knowledge.chunkContentRequired");
    checks.throwIfAny();
  }

  private async vectorFor(document: Document, content: string, questions: string[]): Promise<number[]> {
    const kb = await this.platform.db.getRepository(KnowledgeBase).findOneByOrFail({ id: document.knowledgeBaseId });
    const model = await this.models.client(kb.tenantId, "embedding", kb.embeddingModel);
    const name = { text: document.name, vector: null, weight: document.parserConfig.filename_embd_weight ?? 0.1 };
    const [vector] = (await embedWithName(model, [questions.length ? questions.join("\n") : content], name)).vectors;
    await ensureVectorIndex(this.platform.db, vector.length, kb.id);
    return vector;
  }

  /**
   * Adds a chunk by hand, under RAGFlow's id. RAGFlow overwrites the first chunk when the same text is added
   * twice yet counts two (its suite checks the +2); here the second is stored beside the first, under an id
   * that also holds its place, so that the count and the rows agree.
   */
  async add(principal: SignedIn, documentId: string, input: ChunkInput): Promise<Chunk> {
    const document = await this.documents.accessible(principal, documentId, "manage");
    const chunk = await this.manualChunk(document, input);
    await insertChunks(this.platform.db.manager, [chunk]);
    return this.repository.findOneByOrFail({ id: chunk.id });
  }

  /**
   * A chunk written by hand for a document the caller may manage, checked, embedded with its knowledge base's model
   * and placed after the document's chunks, ready for insertChunks (a merge stores it inside its own transaction).
   */
  async manualChunk(document: Document, input: ChunkInput): Promise<StoredChunk> {
    this.checkInput(input, true);
    const content = input.content!;
    const questions = (input.questions ?? []).map((q) => q.trim()).filter(Boolean);
    const keywords = input.keywords ?? [];
    const vector = await this.vectorFor(document, content, questions);
    const tokenCount = countTokens(content);
    const { max } = (await this.platform.db.query(`SELECT coalesce(max(ordinal), -1) + 1 AS max FROM chunk WHERE document_id = $1`, [document.id]))[0];
    const ragflowId = manualChunkId(content, document.id);
    const id = (await this.repository.existsBy({ id: ragflowId })) ? manualChunkId(`${content}${max}`, document.id) : ragflowId;
    return {
      id,
      knowledgeBaseId: document.knowledgeBaseId,
      documentId: document.id,
      tenantId: document.tenantId,
      ordinal: Number(max),
      kind: "manual",
      content,
      title: "",
      keywords,
      questions,
      fields: null,
      positions: [],
      imageKey: null,
      available: input.available ?? true,
      tokenCount,
      producedBy: {},
      vector,
    };
  }

  /** Edits a chunk's text, keywords, questions or availability; changed text is embedded again. */
  async update(principal: SignedIn, id: string, input: ChunkInput): Promise<Chunk> {
    const [chunk] = await this.owned(principal, [id], "manage");
    if (!chunk) throw NotFound("errors.knowledge.chunkNotFound");
    this.checkInput(input, false);
    const document = await this.documents.accessible(principal, chunk.documentId, "manage");
    const content = input.content ?? chunk.content;
    const questions = input.questions ? input.questions.map((q) => q.trim()).filter(Boolean) : chunk.questions;
    const keywords = input.keywords ?? chunk.keywords;
    const textChanged = content !== chunk.content || JSON.stringify(questions) !== JSON.stringify(chunk.questions) || JSON.stringify(keywords) !== JSON.stringify(chunk.keywords);
    if (textChanged) {
      const vector = await this.vectorFor(document, content, questions);
      const tokenCount = countTokens(content);
      await insertChunks(this.platform.db.manager, [{ ...chunk, kind: chunk.kind as "text", content, keywords, questions, available: input.available ?? chunk.available, tokenCount, vector }]);
    } else if (input.available !== undefined) {
      await this.repository.update({ id }, { available: input.available });
    }
    return this.repository.findOneByOrFail({ id });
  }

  /** The stored image of a chunk (a picture, or a figure or table cut from its page), or null when it has none. */
  async image(principal: SignedIn, id: string): Promise<Buffer | null> {
    const [chunk] = await this.owned(principal, [id], "read");
    if (!chunk?.imageKey) return null;
    return this.platform.storage.getBuffer(chunk.imageKey).catch(() => null);
  }

  /** Enables or disables chunks; a disabled chunk is never retrieved. */
  async setAvailable(principal: SignedIn, ids: string[], available: boolean): Promise<number> {
    const chunks = await this.owned(principal, ids, "manage");
    if (chunks.length > 0) await this.repository.update({ id: In(chunks.map((c) => c.id)) }, { available });
    return chunks.length;
  }

  async delete(principal: SignedIn, ids: string[]): Promise<number> {
    const chunks = await this.owned(principal, ids, "manage");
    const deleted = await this.platform.db.transaction((manager) => ChunkService.deleteRows(manager, chunks));
    await this.forgetImages(chunks);
    return deleted;
  }

  /** Deletes the rows of chunks already checked (inside the caller's transaction); their images go with forgetImages once it is done. */
  static async deleteRows(manager: EntityManager, chunks: Chunk[]): Promise<number> {
    let deleted = 0;
    const byDocument = new Map<string, Chunk[]>();
    for (const chunk of chunks) byDocument.set(chunk.documentId, [...(byDocument.get(chunk.documentId) ?? []), chunk]);
    for (const [documentId, group] of byDocument) deleted += await deleteChunks(manager, documentId, group.map((c) => c.id));
    return deleted;
  }

  /** Removes the stored images of deleted chunks. */
  async forgetImages(chunks: Chunk[]): Promise<void> {
    await Promise.all(chunks.filter((c) => c.imageKey).map((c) => this.platform.storage.delete(c.imageKey!).catch(() => undefined)));
  }
}
