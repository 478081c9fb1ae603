import { isSignedIn } from "./principal";
import { home, live, type Policy } from "./rules";

/**
 * A chat assistant. Assistants are not shared with a team (RAGFlow v0.14 shares only knowledge bases): the members
 * of its tenant read and use (chat with) it, a share token's bearer reads and uses exactly the shared one, and
 * changing or deleting it is for the tenant's owner and admins and for whoever made it.
 */
export interface AssistantResource {
  kind: "assistant";
  id: string;
  tenantId: string;
  createdBy: string;
}

export const assistantPolicy: Policy = {
  rules(principal, action) {
    if (principal.kind === "share") return action === "read" || action === "use" ? [{ tenantId: principal.tenantId, id: principal.assistantId }] : [];
    if (!isSignedIn(principal)) return [];
    if (action === "read" || action === "use") return live([{ tenantId: home(principal, "member") }]);
    return live([{ tenantId: home(principal, "manager") }, { tenantId: home(principal, "member"), createdBy: principal.user.id }]);
  },
  notFound: "errors.chat.notFound",
  forbidden: "errors.forbidden",
};
