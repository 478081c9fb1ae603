import { In } from "typeorm";
import { askKnowledgeBases } from "../chat/ask";
import { isFinal, resumableAnswer, type AnswerEvent } from "../chat/answer-stream";
import { ABANDONED_AFTER_MS, AnswerWriter, type FinalAnswer } from "../chat/answer/answer-writer";
import { isAbort } from "../chat/answer/pipeline";
import type { AssistantService } from "../chat/assistant.service";
import { relatedQuestions } from "../chat/related-questions";
import { Document } from "../knowledge/document.entity";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import type { ModelsService } from "../models/models.service";
import { authorize, scope, scopeSql } from "../policies";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { DomainError, FieldChecks, messageForClient, NotFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { englishMessage } from "../platform/messages";
import { CancellableRuns } from "../platform/runs/cancellable-runs";
import { escapeLike } from "../platform/sql";
import type { RetrievalHit, RetrievalService } from "../retrieval/retrieval.service";
import { extractiveMindMap, modelMindMap } from "./mind-map";
import { SearchRecord, type StoredMindMap } from "./search-record.entity";

/**
 * The search page (issue 19; RAGFlow v0.14's search): the chunks matching a question over the knowledge bases a
 * user chose, with highlights, paging and filters (no model call: shown within the retrieval latency); a summary
 * answer with citations streamed after them by the chat's answer pipeline (RAGFlow's `ask`, chat/ask.ts), written
 * and streamed as a chat answer is (chat/answer/answer-writer.ts, chat/answer-stream.ts); related questions (the
 * service of `/sessions/related_questions`); a mind map of the answer (mind-map.ts). Every search is kept in its
 * maker's history with what was made for it, so reopening one asks no model again.
 */

export interface SearchInput {
  question: string;
  knowledgeBaseIds: string[];
  /** Only these documents; none: every document of the knowledge bases. */
  documentIds?: string[] | null;
}

export interface ChunkSearchInput extends SearchInput {
  page?: number;
  pageSize?: number;
}

export interface SearchHit extends RetrievalHit {
  knowledgeBaseName: string;
  /** The content with the question's terms in <em>…</em>, HTML-escaped (retrieval's highlight). */
  highlight: string;
}

export interface CountOf {
  id: string;
  name: string;
  /** The knowledge base a document belongs to (documents only). */
  knowledgeBaseId?: string;
  count: number;
}

export interface ChunkSearchResult {
  /** Matching chunks over all pages. */
  total: number;
  hits: SearchHit[];
  /** Matches per document and per knowledge base, most first: the filters. */
  documents: CountOf[];
  knowledgeBases: CountOf[];
  retrievalMs: number;
}

export interface HistoryQuery {
  /** Words the question contains. */
  search?: string;
  page?: number;
  pageSize?: number;
}

export interface SearchDeps {
  models: ModelsService;
  knowledgeBases: KnowledgeBaseService;
  retrieval: RetrievalService;
  assistants: AssistantService;
}

/** A question is a search, not a document: RAGFlow's box takes a line; this leaves room for a long one. */
export const QUESTION_MAX_LENGTH = 1000;
/** Knowledge bases searched at once; each is scored in full, so the list is bounded. */
export const MAX_KNOWLEDGE_BASES = 30;
const MAX_DOCUMENTS = 200;
const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;
const DEFAULT_HISTORY_PAGE_SIZE = 30;
/** Stop requests for summary answers reach the process writing them through this topic. */
const STOP_TOPIC = "search.answer.stop";

const resourceOf = (record: SearchRecord) => ({ kind: "searchRecord" as const, tenantId: record.tenantId, createdBy: record.createdBy });

export class SearchService {
  private readonly writer: AnswerWriter;
  /** The summary answers being written: deleting a search, taken by any process, stops the one writing it. */
  private readonly runs: CancellableRuns;

  constructor(
    private readonly platform: Platform,
    private readonly deps: SearchDeps,
  ) {
    this.writer = new AnswerWriter(platform, "search_record");
    this.runs = CancellableRuns.on(platform.pubsub, STOP_TOPIC);
  }

  private get records() {
    return this.platform.db.getRepository(SearchRecord);
  }

  // ---- input and permissions --------------------------------------------------------------------

  private checked(input: SearchInput, paging?: { page?: number; pageSize?: number }): Required<SearchInput> {
    const question = (input.question ?? "").trim();
    const knowledgeBaseIds = [...new Set(input.knowledgeBaseIds ?? [])];
    const documentIds = input.documentIds && input.documentIds.length > 0 ? [...new Set(input.documentIds)] : null;
    const checks = new FieldChecks()
      .check(question !== "", "question", "errors.search.questionRequired")
      .check(question.length <= QUESTION_MAX_LENGTH, "question", "errors.search.questionTooLong", { max: QUESTION_MAX_LENGTH })
      .check(knowledgeBaseIds.length > 0, "knowledgeBaseIds", "errors.search.knowledgeBaseRequired")
      .check(knowledgeBaseIds.length <= MAX_KNOWLEDGE_BASES, "knowledgeBaseIds", "errors.search.tooManyKnowledgeBases", { max: MAX_KNOWLEDGE_BASES })
      .check((documentIds?.length ?? 0) <= MAX_DOCUMENTS, "documentIds", "errors.knowledge.atMost", { limit: MAX_DOCUMENTS });
    if (paging?.page !== undefined) checks.check(Number.isInteger(paging.page) && paging.page >= 1, "page", "errors.knowledge.atLeast", { limit: 1 });
    if (paging?.pageSize !== undefined) {
      checks.check(Number.isInteger(paging.pageSize) && paging.pageSize >= 1, "pageSize", "errors.knowledge.atLeast", { limit: 1 });
      checks.check(paging.pageSize <= MAX_PAGE_SIZE, "pageSize", "errors.knowledge.atMost", { limit: MAX_PAGE_SIZE });
    }
    checks.throwIfAny();
    return { question, knowledgeBaseIds, documentIds };
  }

  /** The knowledge bases the principal may search (KnowledgeBaseService decides: live ones it may use). */
  private usable(principal: SignedIn, ids: string[]): Promise<KnowledgeBase[]> {
    return Promise.all(ids.map((id) => this.deps.knowledgeBases.accessible(principal, id, "use")));
  }

  // ---- the chunks -------------------------------------------------------------------------------

  /** One page of the matching chunks with highlights, and the filters' counts: retrieval only, no model call. */
  async chunks(principal: SignedIn, input: ChunkSearchInput): Promise<ChunkSearchResult> {
    const { question, knowledgeBaseIds, documentIds } = this.checked(input, input);
    const kbs = await this.usable(principal, knowledgeBaseIds);
    const result = await this.deps.retrieval.search(kbs, {
      question,
      knowledgeBaseIds,
      documentIds: documentIds ?? undefined,
      page: input.page ?? 1,
      pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
      highlight: true,
    });
    const kbNames = new Map(kbs.map((kb) => [kb.id, kb.name]));
    const documentIdsFound = result.documents.map((d) => d.documentId);
    const owners = documentIdsFound.length === 0 ? [] : await this.platform.db.getRepository(Document).find({ where: { id: In(documentIdsFound) }, select: { id: true, knowledgeBaseId: true } });
    const kbOf = new Map(owners.map((d) => [d.id, d.knowledgeBaseId]));
    const documents: CountOf[] = result.documents.map((d) => ({ id: d.documentId, name: d.documentName, knowledgeBaseId: kbOf.get(d.documentId) ?? "", count: d.count }));
    const perKb = new Map<string, number>();
    for (const d of documents) if (d.knowledgeBaseId) perKb.set(d.knowledgeBaseId, (perKb.get(d.knowledgeBaseId) ?? 0) + d.count);
    return {
      total: result.total,
      hits: result.hits.map((hit) => ({ ...hit, highlight: hit.highlight ?? "", knowledgeBaseName: kbNames.get(hit.chunk.knowledgeBaseId) ?? "" })),
      documents,
      knowledgeBases: [...perKb.entries()].map(([id, count]) => ({ id, name: kbNames.get(id) ?? "", count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
      retrievalMs: result.timings.totalMs,
    };
  }

  // ---- the summary answer -----------------------------------------------------------------------

  /**
   * Keeps the search in the principal's history and starts its summary answer; returns at once, with the answer in
   * status 'searching': follow it with `answerStream`.
   */
  async start(principal: SignedIn, input: SearchInput): Promise<SearchRecord> {
    const { question, knowledgeBaseIds, documentIds } = this.checked(input);
    const kbs = await this.usable(principal, knowledgeBaseIds);
    const record = this.records.create({
      id: newId(),
      tenantId: principal.tenantId,
      createdBy: principal.user.id,
      question,
      knowledgeBaseIds,
      documentIds,
      content: "",
      status: "searching",
      seq: 0,
    });
    await this.records.insert(record);
    void this.summarise(record, kbs);
    return this.records.findOneByOrFail({ id: record.id });
  }

  /** Runs the chat's answer pipeline for a record in status 'searching', writing and publishing as it goes. */
  private summarise(record: SearchRecord, kbs: KnowledgeBase[]): Promise<void> {
    const run = this.runs.start(record.id);
    const state = this.writer.begin(record.id, () => run.abort());
    return (async () => {
      let final: FinalAnswer;
      try {
        const outcome = await askKnowledgeBases(
          this.deps,
          record.tenantId,
          kbs,
          record.question,
          { reference: async (reference) => void (await this.writer.reference(state, reference)), delta: (text) => this.writer.delta(state, text) },
          run.signal,
          record.documentIds ?? undefined,
        );
        final = {
          status: outcome.stopped ? "stopped" : "done",
          content: outcome.stopped ? state.content : outcome.content,
          reference: outcome.reference,
          prompt: outcome.prompt,
          promptTokens: outcome.promptTokens,
          completionTokens: outcome.completionTokens,
          firstTokenMs: outcome.firstTokenMs,
          durationMs: outcome.durationMs,
        };
      } catch (error) {
        final = isAbort(error, run.signal) ? { status: "stopped", content: state.content } : { status: "failed", content: state.content, error: messageForClient(`search answer ${record.id}`, error) };
      }
      await this.writer.finish(state, final);
    })()
      .catch((error) => console.error(`[search] could not finish the answer of ${record.id}:`, error))
      .finally(() => run.end());
  }

  /** The summary answer's events for this subscriber: what it missed first, then the rest live (as a chat answer's). */
  async answerStream(principal: SignedIn, id: string): Promise<AsyncIterable<AnswerEvent>> {
    const record = await this.record(principal, id);
    return resumableAnswer(this.platform, record.id, () =>
      this.records.findOne({ where: { id: record.id }, select: { id: true, seq: true, status: true, content: true, reference: true, error: true } }),
    );
  }

  // ---- related questions and the mind map -------------------------------------------------------

  /** Related questions (RAGFlow's related search terms), made once and kept with the search. */
  async relatedQuestions(principal: SignedIn, id: string): Promise<string[]> {
    const record = await this.record(principal, id);
    authorize(principal, "use", resourceOf(record));
    if (record.relatedQuestions) return record.relatedQuestions;
    const questions = await relatedQuestions(this.deps, principal, record.question, "", record.knowledgeBaseIds);
    await this.platform.db.query(`UPDATE search_record SET related_questions = $2::jsonb WHERE id = $1`, [record.id, JSON.stringify(questions)]);
    return questions;
  }

  /** The answer's mind map, made once the answer is finished and kept with the search. */
  async mindMap(principal: SignedIn, id: string): Promise<StoredMindMap> {
    const record = await this.record(principal, id);
    authorize(principal, "use", resourceOf(record));
    if (record.mindMap) return record.mindMap;
    if (!isFinal(record.status)) throw new DomainError("CONFLICT", "errors.search.answerNotReady");
    const modelId = (await this.deps.models.defaults(record.tenantId)).chat;
    const model = await this.deps.models.client(record.tenantId, "chat", modelId);
    const withModel = !model.extractive && model.capabilities?.structuredOutput === true && record.status === "done";
    const map = withModel ? await modelMindMap(model, record.question, record.content, record.reference) : await extractiveMindMap(record.question, record.reference);
    await this.platform.db.query(`UPDATE search_record SET mind_map = $2::jsonb WHERE id = $1`, [record.id, JSON.stringify(map)]);
    return map;
  }

  // ---- the history ------------------------------------------------------------------------------

  /** The principal's searches, newest first, with their total (the history panel, and my space's works). */
  async history(principal: SignedIn, query: HistoryQuery = {}): Promise<{ items: SearchRecord[]; total: number }> {
    const { sql, params } = scopeSql(scope(principal, "read", "searchRecord"), "record");
    const builder = this.records.createQueryBuilder("record").where(sql, params);
    if (query.search?.trim()) builder.andWhere("record.question ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    const pageSize = Math.max(0, Math.min(query.pageSize ?? DEFAULT_HISTORY_PAGE_SIZE, MAX_PAGE_SIZE));
    const page = Math.max(1, query.page ?? 1);
    builder.orderBy("record.createdAt", "DESC").addOrderBy("record.id", "DESC").skip((page - 1) * pageSize).take(pageSize);
    const [items, total] = pageSize === 0 ? [[], await builder.getCount()] : await builder.getManyAndCount();
    return { items, total };
  }

  /** One kept search, as it was stored. */
  async record(principal: SignedIn, id: string): Promise<SearchRecord> {
    const record = await this.records.findOneBy({ id });
    if (!record) throw NotFound("errors.search.notFound");
    authorize(principal, "read", resourceOf(record));
    return record;
  }

  /** Removes searches from the principal's history; an answer still being written stops. */
  async delete(principal: SignedIn, ids: string[]): Promise<void> {
    const records = await Promise.all([...new Set(ids)].map((id) => this.record(principal, id)));
    for (const record of records) authorize(principal, "delete", resourceOf(record));
    if (records.length === 0) return;
    await this.records.delete(records.map((r) => r.id));
    for (const record of records) if (!isFinal(record.status)) this.runs.cancel(record.id);
  }

  // ---- crashes and shutdown ---------------------------------------------------------------------

  /**
   * Summary answers a server was writing when it stopped: marked failed with a reason, never left 'streaming'
   * (a subscriber reads the closed row on its next look at the store). With Redis, only rows no process has
   * touched for a while.
   */
  async closeInterruptedAnswers(): Promise<number> {
    const params: unknown[] = [englishMessage("errors.conversation.interrupted")];
    let where = `status IN ('searching', 'streaming')`;
    if (this.platform.config.redisUrl) {
      params.push(new Date(Date.now() - ABANDONED_AFTER_MS));
      where += ` AND updated_at < $2`;
    }
    const result: unknown = await this.platform.db.query(`UPDATE search_record SET status = 'failed', error = $1, seq = seq + 1, updated_at = now() WHERE ${where} RETURNING id`, params);
    const rows = Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result;
    return Array.isArray(rows) ? rows.length : 0;
  }

  /** Stops every answer this process is writing (each keeps what was written, as 'stopped'). */
  async close(): Promise<void> {
    await this.runs.cancelAll();
    await this.writer.drain();
    this.writer.close();
    await this.runs.close();
  }
}
