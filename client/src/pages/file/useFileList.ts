import { useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { FilesDocument, type FileSort as ServerSort } from "../../graphql/gql/graphql";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSelection } from "../../hooks/useSelection";
import { DEFAULT_SORT, sortAfterClick, type FileSort, type SortColumn } from "./fileSort";

export const FILES_PAGE_SIZE = 15;
/** The server searches once the user pauses typing. */
const SEARCH_PAUSE_MS = 300;

/**
 * One page of the open folder (named in the address as `?folder=`, so that the back button and a shared link work),
 * searched and sorted by the server, with the rows ticked. Opening another folder, searching or sorting starts
 * from the first page and a clean selection.
 */
export function useFileList() {
  const [params, setParams] = useSearchParams();
  const folderId = params.get("folder");
  // A search belongs to the folder it was typed in: another folder (opened here, or by the back button) starts unsearched.
  const [typed, setTyped] = useState({ folderId, text: "" });
  const settled = useDebouncedValue(typed, SEARCH_PAUSE_MS);
  const search = typed.folderId === folderId ? typed.text : "";
  const settledSearch = settled.folderId === folderId ? settled.text.trim() : "";
  const [sort, setSort] = useState<FileSort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const selection = useSelection();
  const { data, previousData, loading, error, refetch } = useQuery(FilesDocument, {
    variables: { parentId: folderId, search: settledSearch || null, sort: sort.column as ServerSort, desc: sort.descending, page, pageSize: FILES_PAGE_SIZE },
    fetchPolicy: "cache-and-network",
  });
  // While the next page or folder loads, the last one stays on screen rather than a flash of nothing.
  const shown = (data ?? previousData)?.files;

  const { clear } = selection;
  useEffect(() => {
    setPage(1);
    clear();
    // A new folder, search or order: the selection of the old one means nothing there.
  }, [folderId, settledSearch, sort]);

  return {
    folderId,
    /** The folder on screen, as the server describes it: its id, name, way from the root, and whether it is read-only. */
    folder: shown?.folder ?? null,
    path: shown?.path ?? [],
    openFolder: (id: string | null) => setParams(id ? { folder: id } : {}),
    search,
    setSearch: (text: string) => setTyped({ folderId, text }),
    searching: settledSearch !== "",
    sort,
    sortBy: (column: SortColumn) => setSort((current) => sortAfterClick(current, column)),
    page,
    setPage(next: number) {
      setPage(next);
      selection.clear();
    },
    loaded: shown !== undefined,
    /** The rows on screen are the answer for the folder, search, order and page asked (not the last ones kept while it loads). */
    fresh: data !== undefined,
    total: shown?.total ?? 0,
    files: shown?.items ?? [],
    selection,
    loading,
    error,
    refetch,
  };
}

export type FileList = ReturnType<typeof useFileList>;
