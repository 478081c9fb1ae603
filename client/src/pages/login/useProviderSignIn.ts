import { useApolloClient, useQuery } from "@apollo/client/react";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { MeDocument, SignInProvidersDocument, type SignedInUserFragment } from "../../graphql/gql/graphql";
import { safeReturnTo } from "../../session/returnTo";
import { claimProviderSignIn, PROVIDER_RETURN_PARAM } from "./providerSignIn";

export type ProviderSignInState = { status: "idle" } | { status: "claiming" } | { status: "failed"; messageKey: string; params: Record<string, unknown> };

type Enter = (session: { token: string; user: SignedInUserFragment }, toast: "loggedIn", destination: string) => Promise<void>;

/**
 * The identity providers the login page offers, and the end of a provider's sign-in: back on /login?sso=…, the page
 * claims the session the server opened (or learns why there is none) and goes on signed in like after a password.
 */
export function useProviderSignIn(enter: Enter) {
  const client = useApolloClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const returned = searchParams.get(PROVIDER_RETURN_PARAM) !== null;
  const [state, setState] = useState<ProviderSignInState>(returned ? { status: "claiming" } : { status: "idle" });
  // The outcome can be claimed once: React's development double effects must not claim it a second time.
  const claimed = useRef(false);
  const { data } = useQuery(SignInProvidersDocument);

  useEffect(() => {
    if (!returned || claimed.current) return;
    claimed.current = true;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(PROVIDER_RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
    void (async () => {
      try {
        const outcome = await claimProviderSignIn();
        if (!outcome.ok) return setState({ status: "failed", messageKey: outcome.messageKey, params: outcome.params });
        const { data: me } = await client.query({ query: MeDocument, fetchPolicy: "network-only", context: { headers: { authorization: `Bearer ${outcome.token}` } } });
        if (!me) throw new Error("no account in the answer");
        await enter({ token: outcome.token, user: me.me }, "loggedIn", safeReturnTo(outcome.redirect));
      } catch {
        setState({ status: "failed", messageKey: "errors.networkAnomaly", params: {} });
      }
    })();
  }, [returned, client, enter, setSearchParams]);

  return { providers: data?.signInProviders ?? [], state };
}
