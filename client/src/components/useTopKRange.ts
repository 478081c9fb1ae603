import { useQuery } from "@apollo/client/react";
import { RetrievalParamsDocument } from "../graphql/gql/graphql";
import type { TopKRange } from "./topKRange";

/** Top-K's limits from the server's `retrievalParams`. */
export function useTopKRange(): TopKRange {
  const { data } = useQuery(RetrievalParamsDocument);
  const spec = data?.retrievalParams.find((param) => param.key === "topK");
  return { min: spec?.min ?? undefined, max: spec?.max ?? undefined };
}
