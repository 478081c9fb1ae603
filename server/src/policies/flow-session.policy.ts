import { isSignedIn } from "./principal";
import { live, memberTenants, type Policy } from "./rules";

/**
 * A session of a flow (a conversation with it: the run drawer's, the service API's, a share page visitor's). A member
 * acts on the sessions of the flows they may read or run, which the flow policy decides (these rules only keep them in
 * their tenants); a visitor of a shared flow's page reads and continues their own sessions of that flow, and sees no
 * one else's.
 */
export interface FlowSessionResource {
  kind: "flowSession";
  tenantId: string;
  flowId: string;
  /** Where it was opened: "web", "api" or "share". */
  source: string;
  /** The share page's visitor id for a shared flow's session; the user or the API's `user_id` otherwise. */
  userId: string;
}

export const flowSessionPolicy: Policy = {
  rules(principal, action) {
    if (principal.kind === "flowShare") {
      if (!principal.visitorId || !(action === "read" || action === "use")) return [];
      return [{ tenantId: principal.tenantId, flowId: principal.flowId, source: "share", userId: principal.visitorId }];
    }
    if (!isSignedIn(principal)) return [];
    return live([{ tenantId: memberTenants(principal) }]);
  },
  notFound: "flow.errors.sessionNotFound",
  forbidden: "errors.forbidden",
};
