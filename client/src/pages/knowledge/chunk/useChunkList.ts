import { useQuery } from "@apollo/client/react";
import { useDeferredValue, useState } from "react";
import { ChunksDocument } from "../../../graphql/gql/graphql";
import { useSelection } from "../../../hooks/useSelection";

export const CHUNKS_PAGE_SIZE = 30;
export type ChunkFilter = "all" | "enabled" | "disabled";
/** Which chunks by where they come from: all, those of the document (parsed or added by hand), or RAPTOR summaries. */
export type ChunkOrigin = "all" | "original" | "raptor";

/** One page of a document's chunks, filtered by text, availability and origin, and the chunks ticked on it. */
export function useChunkList(documentId: string, initialSearch = "") {
  const [search, setSearchText] = useState(initialSearch);
  const deferredSearch = useDeferredValue(search.trim());
  const [filter, setFilterValue] = useState<ChunkFilter>("all");
  const [origin, setOriginValue] = useState<ChunkOrigin>("all");
  const [page, setPageNumber] = useState(1);
  const selection = useSelection();
  const { data, loading, error, refetch } = useQuery(ChunksDocument, {
    variables: { documentId, search: deferredSearch || null, available: filter === "all" ? null : filter === "enabled", origin: origin === "all" ? null : origin, page, pageSize: CHUNKS_PAGE_SIZE },
  });

  const chunks = data?.chunks.items ?? [];
  const filterBy = (change: () => void) => {
    change();
    setPageNumber(1);
    selection.clear();
  };

  return {
    search,
    setSearch: (value: string) => filterBy(() => setSearchText(value)),
    searching: Boolean(deferredSearch),
    filter,
    setFilter: (value: ChunkFilter) => filterBy(() => setFilterValue(value)),
    origin,
    setOrigin: (value: ChunkOrigin) => filterBy(() => setOriginValue(value)),
    /** True when a filter narrows the list, i.e. an empty list means "no match" rather than "no chunks". */
    filtered: Boolean(deferredSearch) || filter !== "all" || origin !== "all",
    page,
    setPage: (next: number) => {
      setPageNumber(next);
      selection.clear();
    },
    loaded: data !== undefined,
    loading,
    error,
    refetch,
    total: data?.chunks.total ?? 0,
    /** The document the chunks belong to, once loaded. */
    document: data?.chunks.document,
    chunks,
    selection,
    selectedIds: chunks.filter((chunk) => selection.has(chunk.id)).map((chunk) => chunk.id),
  };
}

export type ChunkList = ReturnType<typeof useChunkList>;
