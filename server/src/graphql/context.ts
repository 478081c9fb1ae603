import type { Principal, SignedIn } from "../auth/principal";
import { Unauthenticated } from "../platform/errors";
import type { Services } from "../services";

export interface GraphQLContext {
  services: Services;
  principal: Principal;
}

/** The signed-in principal of a request; anything else is refused with the catalogue's 401. */
export function signedIn(context: GraphQLContext): SignedIn {
  if (context.principal.kind === "anonymous") throw Unauthenticated();
  return context.principal;
}
