import type { Policy } from "./rules";
import { teamSharedRules } from "./team-shared";

/**
 * A knowledge base with its documents and chunks: a document or chunk is answered by its knowledge base. `use`
 * is retrieving from it and linking it to an assistant; `manage` is its settings, uploads, parsing and chunk edits.
 * `permission` "team" shares it with the members of its tenant's team, who may use and change it but not delete it.
 */
export interface KnowledgeBaseResource {
  kind: "knowledgeBase";
  tenantId: string;
  createdBy: string;
  permission: string;
}

export const knowledgeBasePolicy: Policy = {
  rules: (principal, action) => teamSharedRules(principal, action, { permission: "team" }),
  notFound: "errors.knowledge.notFound",
  forbidden: "errors.knowledge.ownerOnly",
};
