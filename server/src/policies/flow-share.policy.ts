import { isSignedIn } from "./principal";
import { home, live, type Policy } from "./rules";

/**
 * The share link of a flow (its token is the flow share principal's credential), as an assistant's share link: the
 * tenant's members read it; `use` is running the flow through it, which its own bearer may; revoking it (`delete`) is
 * for the tenant's owner and admins and for whoever made it. Making one is changing who can reach the flow, which
 * the flow policy's `manage` decides.
 */
export interface FlowShareResource {
  kind: "flowShare";
  id: string;
  tenantId: string;
  flowId: string;
  createdBy: string;
}

export const flowSharePolicy: Policy = {
  rules(principal, action) {
    if (principal.kind === "flowShare") return action === "use" ? [{ id: principal.shareId, tenantId: principal.tenantId, flowId: principal.flowId }] : [];
    if (!isSignedIn(principal)) return [];
    if (action === "read" || action === "use") return live([{ tenantId: home(principal, "member") }]);
    return live([{ tenantId: home(principal, "manager") }, { tenantId: home(principal, "member"), createdBy: principal.user.id }]);
  },
  notFound: "errors.notFound",
  forbidden: "errors.forbidden",
};
