import { isSignedIn } from "./principal";
import { home, live, type Policy } from "./rules";

/**
 * A conversation with an assistant (the service API calls it a session). The members of the assistant's tenant
 * read, continue (`use`), rename (`manage`) and delete the conversations held in the app and over the API; a visitor
 * of a share page does so with their own conversations of the shared assistant, and sees no one else's.
 */
export interface ConversationResource {
  kind: "conversation";
  tenantId: string;
  assistantId: string;
  /** Where it was held: "web", "api" or "share". */
  source: string;
  /** The share page's visitor id for a shared conversation; the user otherwise. */
  userId: string | null;
}

export const conversationPolicy: Policy = {
  rules(principal) {
    if (principal.kind === "share") {
      if (!principal.visitorId) return [];
      return [{ tenantId: principal.tenantId, assistantId: principal.assistantId, source: "share", userId: principal.visitorId }];
    }
    if (!isSignedIn(principal)) return [];
    return live([{ tenantId: home(principal, "member"), source: ["web", "api"] }]);
  },
  notFound: "errors.conversation.notFound",
  forbidden: "errors.forbidden",
};
