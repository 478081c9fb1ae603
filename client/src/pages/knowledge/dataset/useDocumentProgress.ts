import { useApolloClient, useSubscription } from "@apollo/client/react";
import { DocumentProgressDocument, DocumentProgressFieldsFragmentDoc, KnowledgeBaseDocument } from "../../../graphql/gql/graphql";
import { RUN } from "./runStatus";

/**
 * Keeps the documents of a knowledge base current while they are parsed: each `documentProgress` event
 * is written into the cached Document, so every list and row showing it re-renders. There is no polling;
 * the subscription first replays the documents being parsed, then every change.
 */
export function useDocumentProgress(knowledgeBaseId: string): void {
  const client = useApolloClient();
  useSubscription(DocumentProgressDocument, {
    variables: { knowledgeBaseId },
    skip: !knowledgeBaseId,
    onData: ({ data }) => {
      const event = data.data?.documentProgress;
      if (!event) return;
      // Not the event itself: its __typename (DocumentProgress) would retype the cached Document.
      const { run, progress, progressMsg, chunkCount, tokenCount, processBeginAt, processDuration, pageCount } = event;
      client.cache.writeFragment({
        id: client.cache.identify({ __typename: "Document", id: event.documentId }),
        fragment: DocumentProgressFieldsFragmentDoc,
        data: { run, progress, progressMsg, chunkCount, tokenCount, processBeginAt, processDuration, pageCount },
      });
      // A parse that ended changed the knowledge base's counts: read them once, now.
      if (event.run === RUN.done || event.run === RUN.failed) void client.refetchQueries({ include: [KnowledgeBaseDocument] });
    },
  });
}
