import { isSignedIn, type Principal, type SignedIn } from "../policies/principal";
import { Unauthenticated } from "../platform/errors";
import type { Services } from "../platform/services";

export interface GraphQLContext {
  services: Services;
  principal: Principal;
  /** The share page's visitor id (header or graphql-ws connection parameter `x-visitor-id`): scopes a share principal's conversations. */
  visitorId?: string | null;
  /** The client's address as express reads it (`trust proxy`), for the sign-in and sign-up throttles. */
  clientAddress?: string | null;
}

/**
 * The signed-in principal of a request; anything else is refused with the catalogue's 401, including
 * the bearer of a share token, which only the shared-chat operations accept.
 */
export function signedIn(context: GraphQLContext): SignedIn {
  if (!isSignedIn(context.principal)) throw Unauthenticated();
  return context.principal;
}
