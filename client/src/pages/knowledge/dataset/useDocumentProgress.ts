import { useApolloClient, useSubscription } from "@apollo/client/react";
import { useCallback, useState } from "react";
import { DocumentProgressDocument, DocumentProgressFieldsFragmentDoc, KnowledgeBaseDocument, type DocumentProgressFieldsFragment } from "../../../graphql/gql/graphql";
import { RUN } from "../../../documents/runStatus";

type Progress = Omit<DocumentProgressFieldsFragment, "__typename">;

/**
 * The parsing state of a knowledge base's documents as the `documentProgress` subscription reports it:
 * first the documents being parsed now, then every change, in the server's order. There is no polling.
 *
 * The latest event per document is kept here and wins over fetched rows: a query or mutation answer can
 * arrive after newer events (a short parse finishes while the `runParsing` answer is on its way) and would
 * otherwise put the row back to an older state. Each event is also written into the cached Document, so
 * views that only read the cache (the chunk page's header) follow too.
 */
export function useDocumentProgress(knowledgeBaseId: string) {
  const client = useApolloClient();
  const [latest, setLatest] = useState<ReadonlyMap<string, Progress>>(new Map());

  useSubscription(DocumentProgressDocument, {
    variables: { knowledgeBaseId },
    skip: !knowledgeBaseId,
    onData: ({ data }) => {
      const event = data.data?.documentProgress;
      if (!event) return;
      // Not the event itself: its __typename (DocumentProgress) would retype the cached Document.
      const { run, progress, progressMsg, progressLog, chunkCount, tokenCount, processBeginAt, processDuration, pageCount, failure, queuePosition } = event;
      const fields: Progress = { run, progress, progressMsg, progressLog, chunkCount, tokenCount, processBeginAt, processDuration, pageCount, failure, queuePosition };
      setLatest((current) => new Map(current).set(event.documentId, fields));
      client.cache.writeFragment({
        id: client.cache.identify({ __typename: "Document", id: event.documentId }),
        fragment: DocumentProgressFieldsFragmentDoc,
        data: { __typename: "Document", ...fields } as DocumentProgressFieldsFragment,
      });
      // A parse that ended changed the knowledge base's counts: read them once, now.
      if (run === RUN.done || run === RUN.failed) void client.refetchQueries({ include: [KnowledgeBaseDocument] });
    },
  });

  /** The row with the newest reported state laid over it. */
  const current = useCallback(<T extends { id: string }>(row: T): T => {
    const live = latest.get(row.id);
    return live ? { ...row, ...live } : row;
  }, [latest]);

  /** Drops what was reported for a document whose state changed without an event (a new chunk method resets it). */
  const forget = useCallback((id: string) => {
    setLatest((previous) => {
      if (!previous.has(id)) return previous;
      const next = new Map(previous);
      next.delete(id);
      return next;
    });
  }, []);

  return { current, forget };
}
