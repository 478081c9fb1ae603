import type { Policy } from "./rules";
import { teamSharedRules } from "./team-shared";

/**
 * An agent flow (RAGFlow's canvas), ready for the flow issues: `use` is running it; `manage` is editing its graph
 * and settings. Like a knowledge base, `permission` "team" (RAGFlow v0.18) lets the team run it, and only its
 * tenant's owner and admins and its maker change it ("Only owner of canvas authorized for this operation.").
 */
export interface FlowResource {
  kind: "flow";
  tenantId: string;
  createdBy: string;
  permission: string;
}

export const flowPolicy: Policy = {
  rules: (principal, action) => teamSharedRules(principal, action, { permission: "team" }),
  notFound: "errors.notFound",
  forbidden: "errors.forbidden",
};
