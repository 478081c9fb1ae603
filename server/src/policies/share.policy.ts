import { isSignedIn } from "./principal";
import { home, live, type Policy } from "./rules";

/**
 * A share link of an assistant (its token is the share principal's credential). The tenant's members read the
 * links; `use` is chatting through one, which its own bearer may; creating and revoking links (`manage`,
 * `delete`) is for the tenant's owner and admins and for whoever made the link.
 */
export interface ShareResource {
  kind: "share";
  id: string;
  tenantId: string;
  assistantId: string;
  createdBy: string;
}

export const sharePolicy: Policy = {
  rules(principal, action) {
    if (principal.kind === "share") return action === "use" ? [{ id: principal.shareId, tenantId: principal.tenantId, assistantId: principal.assistantId }] : [];
    if (!isSignedIn(principal)) return [];
    if (action === "read" || action === "use") return live([{ tenantId: home(principal, "member") }]);
    return live([{ tenantId: home(principal, "manager") }, { tenantId: home(principal, "member"), createdBy: principal.user.id }]);
  },
  notFound: "errors.notFound",
  forbidden: "errors.forbidden",
};
