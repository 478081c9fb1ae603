/** The search page's rules that need no browser: what is remembered, what a search asks for, where merging goes. */

/** The knowledge bases last searched, remembered in the browser so that the next visit starts with them. */
export const LAST_KNOWLEDGE_BASES_KEY = "cairn.search.knowledgeBases";

export const CHUNK_PAGE_SIZE = 10;

export interface SearchParams {
  question: string;
  knowledgeBaseIds: string[];
  documentIds: string[] | null;
}

/** The filters narrowing the chunk list of a search: one knowledge base, one document, or neither. */
export interface ChunkFilters {
  knowledgeBaseId: string | null;
  documentId: string | null;
}

export const NO_FILTERS: ChunkFilters = { knowledgeBaseId: null, documentId: null };

/** The remembered choice, keeping only knowledge bases that still exist (a deleted one is dropped silently). */
export function rememberedKnowledgeBases(stored: string | null, existing: string[]): string[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    const live = new Set(existing);
    return parsed.filter((id): id is string => typeof id === "string" && live.has(id));
  } catch {
    return [];
  }
}

/** The chunk query's input for a search, narrowed by the filters and at a page. */
export function chunkQueryInput(search: SearchParams, filters: ChunkFilters, page: number) {
  return {
    question: search.question,
    knowledgeBaseIds: filters.knowledgeBaseId ? [filters.knowledgeBaseId] : search.knowledgeBaseIds,
    documentIds: filters.documentId ? [filters.documentId] : search.documentIds,
    page,
    pageSize: CHUNK_PAGE_SIZE,
  };
}

/** Ticks a chunk on or off, keeping the order in which chunks were ticked (the merge page merges in that order). */
export function toggleTicked(ticked: string[], chunkId: string, on: boolean): string[] {
  const without = ticked.filter((id) => id !== chunkId);
  return on ? [...without, chunkId] : without;
}

/** As the server allows (server/src/search/search.service.ts). */
export const QUESTION_MAX_LENGTH = 1000;

/** Whether a kept search is the one shown (so reopening it does not reset the filters and ticks). */
export function sameSearch(a: SearchParams, b: SearchParams): boolean {
  const ids = (list: string[] | null) => [...(list ?? [])].sort().join(",");
  return a.question === b.question && ids(a.knowledgeBaseIds) === ids(b.knowledgeBaseIds) && ids(a.documentIds) === ids(b.documentIds);
}
