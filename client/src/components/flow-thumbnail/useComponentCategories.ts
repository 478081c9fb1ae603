import { useQuery } from "@apollo/client/react";
import { useMemo } from "react";
import { FlowComponentsDocument } from "../../graphql/gql/graphql";

/** Each component's category (core, knowledge, tools…) by its name, from the registry; empty until it has loaded. */
export function useComponentCategories(): ReadonlyMap<string, string> {
  const { data } = useQuery(FlowComponentsDocument, { fetchPolicy: "cache-first" });
  return useMemo(() => new Map((data?.flowComponents ?? []).map((component) => [component.name, component.category])), [data]);
}
