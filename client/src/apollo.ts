import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache, ServerError } from "@apollo/client";
import { SetContextLink } from "@apollo/client/link/context";
import { ErrorLink } from "@apollo/client/link/error";
import { getMainDefinition } from "@apollo/client/utilities";
import { Kind, OperationTypeNode } from "graphql";
import { Observable } from "rxjs";
import { authStore } from "./session/authStore";
import { isSharedPage, visitorHeaders } from "./session/visitorId";

const GRAPHQL_PATH = "/graphql";

function bearer(): string | undefined {
  const credential = authStore.getCredential();
  return credential ? `Bearer ${credential}` : undefined;
}

/** Subscriptions go over graphql-ws; its client is fetched with the first subscription, not with the first page. */
class DeferredSubscriptionLink extends ApolloLink {
  request(operation: ApolloLink.Operation): Observable<ApolloLink.Result> {
    return new Observable<ApolloLink.Result>((subscriber) => {
      let inner: { unsubscribe(): void } | undefined;
      let closed = false;
      import("./subscriptionLink").then(
        ({ subscriptionLink }) => {
          if (!closed) inner = subscriptionLink.request(operation).subscribe(subscriber);
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        closed = true;
        inner?.unsubscribe();
      };
    });
  }
}

const withAuthorization = new SetContextLink((previous) => {
  const authorization = bearer();
  const visitor = visitorHeaders();
  return { headers: { ...previous.headers, ...visitor, ...(authorization ? { authorization } : {}) } };
});

/** Operations that are expected to run without a session; their refusals are the user's typing, not an expired session. */
const SIGNED_OUT_OPERATIONS = new Set(["Login", "Register"]);

const endSessionWhenRefused = new ErrorLink(({ error, operation }) => {
  // A refused shared id (a revoked share) says nothing about the session stored in this browser.
  if (SIGNED_OUT_OPERATIONS.has(operation.operationName ?? "") || isSharedPage()) return;
  const refused =
    (CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === "UNAUTHENTICATED")) ||
    (ServerError.is(error) && error.statusCode === 401);
  // The guard sees the cleared token and sends the user to /login, remembering where they were.
  if (refused) authStore.signOut();
});

const isSubscription = ({ query }: ApolloLink.Operation): boolean => {
  const definition = getMainDefinition(query);
  return definition.kind === Kind.OPERATION_DEFINITION && definition.operation === OperationTypeNode.SUBSCRIPTION;
};

const transport = ApolloLink.split(isSubscription, new DeferredSubscriptionLink(), new HttpLink({ uri: GRAPHQL_PATH }));

export const apolloClient = new ApolloClient({
  link: ApolloLink.from([endSessionWhenRefused, withAuthorization, transport]),
  cache: new InMemoryCache({
    typePolicies: {
      // One model name may be added as several types (a chat and an embedding model of the same name share an id).
      AvailableModelType: { keyFields: ["id", "modelType"] },
      ModelProvider: { keyFields: ["name"] },
    },
  }),
  defaultOptions: {
    watchQuery: { fetchPolicy: "cache-and-network" },
  },
});
