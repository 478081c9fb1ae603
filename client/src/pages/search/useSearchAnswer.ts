import { useApolloClient, useQuery, useSubscription } from "@apollo/client/react";
import { useRef } from "react";
import { SearchAnswerStreamDocument, SearchRecordDocument, SearchRecordFieldsFragmentDoc } from "../../graphql/gql/graphql";

/** A summary answer still being written: it is subscribed to, whether it was started now or before the page was (re)loaded. */
const LIVE_STATUSES = new Set(["searching", "streaming"]);

export const isLiveAnswer = (status: string) => LIVE_STATUSES.has(status);

/**
 * A kept search, with its summary answer followed over `searchAnswerStream` while it is written, as the chat follows
 * an answer (pages/chat/conversation/useAnswerStream.ts): the first event is a snapshot, later ones add `delta`s in
 * `seq` order, repeats are dropped, and the final event carries the whole answer with its citations. Once it ends,
 * the record is read again for what the stream does not carry (the per-document counts of the reference list).
 */
export function useSearchAnswer(recordId: string | null) {
  const client = useApolloClient();
  const lastSeq = useRef({ recordId: "", seq: -1 });
  const query = useQuery(SearchRecordDocument, { variables: { id: recordId ?? "" }, skip: !recordId });
  const record = query.data?.searchRecord.id === recordId ? query.data.searchRecord : null;
  const live = record ? isLiveAnswer(record.status) : false;

  useSubscription(SearchAnswerStreamDocument, {
    variables: { recordId: recordId ?? "" },
    skip: !recordId || !live,
    onData: ({ data }) => {
      const event = data.data?.searchAnswerStream;
      if (!event || !recordId) return;
      if (lastSeq.current.recordId !== recordId) lastSeq.current = { recordId, seq: -1 };
      const id = client.cache.identify({ __typename: "SearchRecord", id: recordId });
      const current = client.cache.readFragment({ id, fragment: SearchRecordFieldsFragmentDoc, fragmentName: "SearchRecordFields" });
      if (!current) return;
      let answer: string;
      if (event.content != null) answer = event.content;
      else if (event.seq <= lastSeq.current.seq) return;
      else answer = current.answer + (event.delta ?? "");
      lastSeq.current.seq = event.seq;
      client.cache.writeFragment({
        id,
        fragment: SearchRecordFieldsFragmentDoc,
        fragmentName: "SearchRecordFields",
        data: { ...current, answer, status: event.status, error: event.error ?? current.error, references: event.references ?? current.references },
      });
      if (!isLiveAnswer(event.status)) void query.refetch();
    },
    // The socket gave up (graphql-ws retries first): show what the server has stored instead.
    onError: () => void query.refetch(),
  });

  return { record, loading: query.loading && !record, error: query.error, refetch: query.refetch };
}
