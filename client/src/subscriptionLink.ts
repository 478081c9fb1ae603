import { GraphQLWsLink } from "@apollo/client/link/subscriptions";
import { createClient } from "graphql-ws";
import { authStore } from "./session/authStore";
import { visitorHeaders } from "./session/visitorId";

const GRAPHQL_PATH = "/graphql";

const wsClient = createClient({
  url: () => `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}${GRAPHQL_PATH}`,
  connectionParams: () => {
    const credential = authStore.getCredential();
    return { ...visitorHeaders(), ...(credential ? { authorization: `Bearer ${credential}` } : {}) };
  },
  retryAttempts: 5,
});

// Connection parameters are read once per socket; a new session needs a new socket.
authStore.subscribe(() => wsClient.terminate());

export const subscriptionLink = new GraphQLWsLink(wsClient);
