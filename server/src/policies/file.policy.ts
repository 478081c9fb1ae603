import type { Policy } from "./rules";
import { teamSharedRules } from "./team-shared";

/**
 * A file or folder of the file manager. RAGFlow v0.14 checked no owner at all, and v0.24 (reference §3.5) lets team
 * members act on a file linked to a team knowledge base. Here the tenant's members read and use its files (preview,
 * download, link to a knowledge base of theirs), and team members those linked to a team knowledge base; managing
 * (rename, move, upload into, unlink) and deleting stay with the tenant's owner and admins and the file's maker, as
 * deleting a team knowledge base does.
 */
export interface FileResource {
  kind: "file";
  tenantId: string;
  createdBy: string;
  /** Whether the file is linked to a knowledge base shared with the team (a folder never is). */
  inTeamKnowledgeBase: boolean;
}

const SHARED = { inTeamKnowledgeBase: true };

export const filePolicy: Policy = {
  rules: (principal, action) => teamSharedRules(principal, action === "read" || action === "use" ? "read" : "delete", SHARED),
  notFound: "errors.file.notFound",
  forbidden: "errors.file.forbidden",
};
