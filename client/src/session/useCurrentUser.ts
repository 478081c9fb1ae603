import { useQuery } from "@apollo/client/react";
import { MeDocument, type SignedInUserFragment } from "../graphql/gql/graphql";

/** The signed-in user, as the guard loaded it; pages under the main layout can rely on it being there. */
export function useCurrentUser(): SignedInUserFragment | undefined {
  const { data } = useQuery(MeDocument, { fetchPolicy: "cache-first" });
  return data?.me;
}
