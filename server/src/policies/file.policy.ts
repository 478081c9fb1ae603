import type { Policy } from "./rules";
import { teamSharedRules } from "./team-shared";

/**
 * A file or folder of the file manager, ready for the files issue. RAGFlow v0.24 (reference §3.5) lets team members
 * at a file that is linked to a team knowledge base; here they read and use it (add it to a knowledge base of
 * theirs), while moving, renaming and deleting stay with its tenant's owner and admins and its maker.
 */
export interface FileResource {
  kind: "file";
  tenantId: string;
  createdBy: string;
  /** Whether the file is linked to a knowledge base shared with the team. */
  inTeamKnowledgeBase: boolean;
}

export const filePolicy: Policy = {
  rules: (principal, action) => teamSharedRules(principal, action, { inTeamKnowledgeBase: true }),
  notFound: "errors.notFound",
  forbidden: "errors.forbidden",
};
