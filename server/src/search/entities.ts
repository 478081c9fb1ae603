import { SearchRecord } from "./search-record.entity";

/** The search domain's tables (migrations/1764500000001-search.ts). */
export const SEARCH_ENTITIES = [SearchRecord];
