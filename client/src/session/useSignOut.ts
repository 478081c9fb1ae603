import { useApolloClient, useMutation } from "@apollo/client/react";
import { useLocation } from "react-router-dom";
import { notify } from "../components/toaster";
import { LogoutDocument } from "../graphql/gql/graphql";
import { authStore } from "./authStore";

/** Ends the session on the server and here; the guard then shows /login (without a page to return to). */
export function useSignOut(): () => Promise<void> {
  const client = useApolloClient();
  const location = useLocation();
  const [logout] = useMutation(LogoutDocument);
  return async () => {
    try {
      await logout();
    } catch {
      // The server may already have ended the session; signing out locally is what the user asked for.
    }
    authStore.signOut(location.pathname + location.search + location.hash);
    await client.clearStore();
    notify.success("loggedOut");
  };
}
