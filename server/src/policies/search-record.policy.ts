import { isSignedIn } from "./principal";
import type { Policy } from "./rules";

/**
 * A search kept in the search page's history. It is its maker's own: only they read it again, reopen it
 * (`use`: its related questions and mind map are made on demand) and delete it; RAGFlow v0.14 kept no history.
 */
export interface SearchRecordResource {
  kind: "searchRecord";
  tenantId: string;
  createdBy: string;
}

export const searchRecordPolicy: Policy = {
  rules(principal) {
    if (!isSignedIn(principal)) return [];
    return [{ tenantId: principal.tenantId, createdBy: principal.user.id }];
  },
  notFound: "errors.search.notFound",
  forbidden: "errors.forbidden",
};
