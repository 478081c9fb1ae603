import { useQuery } from "@apollo/client/react";
import { useDeferredValue, useState } from "react";
import { DocumentsDocument } from "../../../graphql/gql/graphql";
import { useDocumentProgress } from "./useDocumentProgress";
import { useSelection } from "../../../hooks/useSelection";

export const DOCUMENTS_PAGE_SIZE = 20;

/**
 * One page of a knowledge base's documents, filtered by name and parsing status, with live parsing progress and the
 * rows ticked. Changing a filter or the page starts from a clean selection.
 */
export function useDocumentList(knowledgeBaseId: string) {
  const [search, setSearchText] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [status, setStatusFilter] = useState("");
  const [page, setPageNumber] = useState(1);
  const selection = useSelection();
  const progress = useDocumentProgress(knowledgeBaseId);
  const { data, loading, error, refetch } = useQuery(DocumentsDocument, {
    variables: { knowledgeBaseId, search: deferredSearch || null, runs: status ? [status] : null, page, pageSize: DOCUMENTS_PAGE_SIZE },
  });

  const documents = (data?.documents.items ?? []).map(progress.current);
  const filterBy = (change: () => void) => {
    change();
    setPageNumber(1);
    selection.clear();
  };

  return {
    search,
    setSearch: (value: string) => filterBy(() => setSearchText(value)),
    status,
    setStatus: (value: string) => filterBy(() => setStatusFilter(value)),
    /** True when a filter narrows the list, i.e. an empty list means "no match" rather than "no documents". */
    filtered: Boolean(deferredSearch || status),
    page,
    setPage: (next: number) => {
      setPageNumber(next);
      selection.clear();
    },
    /** False until the first answer arrives. */
    loaded: data !== undefined,
    total: data?.documents.total ?? 0,
    documents,
    selection,
    selectedDocuments: documents.filter((document) => selection.has(document.id)),
    loading,
    error,
    refetch,
    /** Drops the live state kept for a document, e.g. after its parser changed and it starts over. */
    forgetProgress: progress.forget,
  };
}

export type DocumentList = ReturnType<typeof useDocumentList>;
