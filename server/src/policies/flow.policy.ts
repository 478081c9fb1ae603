import type { Policy } from "./rules";
import { teamSharedRules } from "./team-shared";

/**
 * An agent flow (RAGFlow's canvas), ready for the flow issues: `use` is running it; `manage` is editing its graph
 * and settings. Like a knowledge base, `permission` "team" (RAGFlow v0.18) lets the team run it, and only its
 * tenant's owner and admins and its maker change it ("Only owner of canvas authorized for this operation.").
 * The bearer of a flow's share token reads and runs exactly the shared flow, and changes nothing.
 */
export interface FlowResource {
  kind: "flow";
  /** Absent for a flow not made yet (creating one). */
  id?: string;
  tenantId: string;
  createdBy: string;
  permission: string;
}

export const flowPolicy: Policy = {
  rules(principal, action) {
    if (principal.kind === "flowShare") return action === "read" || action === "use" ? [{ tenantId: principal.tenantId, id: principal.flowId }] : [];
    return teamSharedRules(principal, action, { permission: "team" });
  },
  notFound: "errors.notFound",
  forbidden: "errors.forbidden",
};
