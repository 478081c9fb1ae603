import { authorize, scope, scopeSql } from "../policies";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { NotFound } from "../platform/errors";
import { escapeLike } from "../platform/sql";
import { SearchRecord } from "./search-record.entity";

/**
 * The search page (issue 19; RAGFlow v0.14's search): the chunks matching a question over the knowledge bases a
 * user chose, with highlights, paging and filters (no model call: shown within the retrieval latency); a summary
 * answer with citations streamed after them by the chat's answer pipeline (RAGFlow's `ask`); related questions
 * (the service of `/sessions/related_questions`); a mind map of the answer. Every search is kept in its maker's
 * history with what was made for it, so reopening one asks no model again.
 */

export interface HistoryQuery {
  /** Words the question contains. */
  search?: string;
  page?: number;
  pageSize?: number;
}

const DEFAULT_HISTORY_PAGE_SIZE = 30;

const resourceOf = (record: SearchRecord) => ({ kind: "searchRecord" as const, tenantId: record.tenantId, createdBy: record.createdBy });

export class SearchService {
  constructor(private readonly platform: Platform) {}

  private get records() {
    return this.platform.db.getRepository(SearchRecord);
  }

  /** The principal's searches, newest first, with their total (the history panel, and my space's works). */
  async history(principal: SignedIn, query: HistoryQuery = {}): Promise<{ items: SearchRecord[]; total: number }> {
    const { sql, params } = scopeSql(scope(principal, "read", "searchRecord"), "record");
    const builder = this.records.createQueryBuilder("record").where(sql, params);
    if (query.search?.trim()) builder.andWhere("record.question ILIKE :search", { search: `%${escapeLike(query.search.trim())}%` });
    const pageSize = Math.max(0, Math.min(query.pageSize ?? DEFAULT_HISTORY_PAGE_SIZE, 100));
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

  /** Removes searches from the principal's history; an answer still streaming stops being written. */
  async delete(principal: SignedIn, ids: string[]): Promise<void> {
    const records = await Promise.all([...new Set(ids)].map((id) => this.record(principal, id)));
    for (const record of records) authorize(principal, "delete", resourceOf(record));
    if (records.length > 0) await this.records.delete(records.map((r) => r.id));
  }
}
