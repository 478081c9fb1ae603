import { xxh64 } from "@node-rs/xxhash";
import { In, type Repository } from "typeorm";
import type { SignedIn } from "../auth/principal";
import { embedWithName } from "../ingestion/pipeline";
import type { ModelsService } from "../models/models.service";
import { countTokens } from "../models/tokens";
import { DomainError, FieldChecks, NotFound } from "../platform/errors";
import type { Platform } from "../platform";
import { Chunk } from "./chunk.entity";
import { deleteChunks, ensureVectorIndex, insertChunks, moveCounters } from "./chunk-store";
import type { Document } from "./document.entity";
import type { DocumentService } from "./document.service";
import { KnowledgeBase } from "./knowledge-base.entity";
import { highlight, queryTerms } from "./search-terms";

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

const noChunkSelected = () => new DomainError("BAD_REQUEST", "errors.selectChunk");

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
    if (terms.length > 0) builder.andWhere("c.terms ?| CAST(:terms AS text[])", { terms });
    else if (query.search?.trim()) builder.andWhere("false");
    // RAPTOR summaries after the chunks they summarise (they have no page).
    builder.orderBy("c.kind = 'raptor'", "ASC").addOrderBy("c.page", "ASC", "NULLS FIRST").addOrderBy("c.top", "ASC", "NULLS FIRST").addOrderBy("c.ordinal", "ASC").addOrderBy("c.createdAt", "DESC");
    const pageSize = Math.max(0, query.pageSize ?? 30);
    const page = Math.max(1, query.page ?? 1);
    if (pageSize > 0) builder.skip((page - 1) * pageSize).take(pageSize);
    const [chunks, total] = await builder.getManyAndCount();
    const termSet = new Set(terms);
    return { total, document, items: chunks.map((c) => Object.assign(c, { highlighted: terms.length > 0 ? highlight(c.content, termSet) : null })) };
  }

  /** One chunk of a document the principal may read: what a citation points at. */
  async get(principal: SignedIn, id: string): Promise<Chunk> {
    const [chunk] = await this.owned(principal, [id]);
    if (!chunk) throw NotFound("errors.knowledge.chunkNotFound");
    return chunk;
  }

  private async owned(principal: SignedIn, ids: string[]): Promise<Chunk[]> {
    if (ids.length === 0) throw noChunkSelected();
    const chunks = await this.repository.findBy({ id: In([...new Set(ids)]) });
    for (const documentId of new Set(chunks.map((c) => c.documentId))) await this.documents.accessible(principal, documentId);
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
    await ensureVectorIndex(this.platform.db, vector.length);
    return vector;
  }

  /** Adds a chunk by hand; adding the same text twice replaces the first (RAGFlow's id rule) yet counts twice, as RAGFlow does. */
  async add(principal: SignedIn, documentId: string, input: ChunkInput): Promise<Chunk> {
    const document = await this.documents.accessible(principal, documentId);
    this.checkInput(input, true);
    const content = input.content!;
    const questions = (input.questions ?? []).map((q) => q.trim()).filter(Boolean);
    const keywords = input.keywords ?? [];
    const vector = await this.vectorFor(document, content, questions);
    const id = manualChunkId(content, document.id);
    const tokenCount = countTokens(content);
    const { max } = (await this.platform.db.query(`SELECT coalesce(max(ordinal), -1) + 1 AS max FROM chunk WHERE document_id = $1`, [document.id]))[0];
    await this.platform.db.transaction(async (manager) => {
      await insertChunks(manager, [
        {
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
        },
      ]);
      await moveCounters(manager, document.id, document.knowledgeBaseId, 1, tokenCount);
    });
    return this.repository.findOneByOrFail({ id });
  }

  /** Edits a chunk's text, keywords, questions or availability; changed text is embedded again. */
  async update(principal: SignedIn, id: string, input: ChunkInput): Promise<Chunk> {
    const [chunk] = await this.owned(principal, [id]);
    if (!chunk) throw NotFound("errors.knowledge.chunkNotFound");
    this.checkInput(input, false);
    const document = await this.documents.accessible(principal, chunk.documentId);
    const content = input.content ?? chunk.content;
    const questions = input.questions ? input.questions.map((q) => q.trim()).filter(Boolean) : chunk.questions;
    const keywords = input.keywords ?? chunk.keywords;
    const textChanged = content !== chunk.content || JSON.stringify(questions) !== JSON.stringify(chunk.questions) || JSON.stringify(keywords) !== JSON.stringify(chunk.keywords);
    if (textChanged) {
      const vector = await this.vectorFor(document, content, questions);
      const tokenCount = countTokens(content);
      await this.platform.db.transaction(async (manager) => {
        await insertChunks(manager, [{ ...chunk, kind: chunk.kind as "text", content, keywords, questions, available: input.available ?? chunk.available, tokenCount, vector }]);
        await moveCounters(manager, document.id, document.knowledgeBaseId, 0, tokenCount - chunk.tokenCount);
      });
    } else if (input.available !== undefined) {
      await this.repository.update({ id }, { available: input.available });
    }
    return this.repository.findOneByOrFail({ id });
  }

  /** The stored image of a chunk (a picture, or a figure or table cut from its page), or null when it has none. */
  async image(principal: SignedIn, id: string): Promise<Buffer | null> {
    const [chunk] = await this.owned(principal, [id]);
    if (!chunk?.imageKey) return null;
    return this.platform.storage.getBuffer(chunk.imageKey).catch(() => null);
  }

  /** Enables or disables chunks; a disabled chunk is never retrieved. */
  async setAvailable(principal: SignedIn, ids: string[], available: boolean): Promise<number> {
    const chunks = await this.owned(principal, ids);
    if (chunks.length > 0) await this.repository.update({ id: In(chunks.map((c) => c.id)) }, { available });
    return chunks.length;
  }

  async delete(principal: SignedIn, ids: string[]): Promise<number> {
    const chunks = await this.owned(principal, ids);
    let deleted = 0;
    const byDocument = new Map<string, Chunk[]>();
    for (const chunk of chunks) byDocument.set(chunk.documentId, [...(byDocument.get(chunk.documentId) ?? []), chunk]);
    for (const [documentId, group] of byDocument) {
      deleted += await this.platform.db.transaction((manager) => deleteChunks(manager, documentId, group[0].knowledgeBaseId, group.map((c) => c.id)));
      await Promise.all(group.filter((c) => c.imageKey).map((c) => this.platform.storage.delete(c.imageKey!).catch(() => undefined)));
    }
    return deleted;
  }
}
