import { isSignedIn, type Principal } from "./principal";
import { home, live, managedTenants, memberTenants, type Action, type Clause } from "./rules";

/**
 * The rules of things a tenant may share with its team (knowledge bases, flows, files), as RAGFlow has them
 * (reference §4.3) and the specification (§6: "With team, all team members can manage it"): the tenant's own members
 * read, use and change all of them, and members of the team those marked `shared`; deleting is for the owner and
 * admins of the tenant, and for whoever made the thing, while they can still read it.
 */
export function teamSharedRules(principal: Principal, action: Action, shared: Clause): Clause[] {
  const readable: Clause[] = [{ tenantId: home(principal, "member") }, { tenantId: memberTenants(principal), ...shared }];
  if (action !== "delete") return live(readable);
  if (!isSignedIn(principal)) return [];
  const userId = principal.user.id;
  return live([{ tenantId: home(principal, "manager") }, { tenantId: managedTenants(principal), ...shared }, ...readable.map((c) => ({ ...c, createdBy: userId }))]);
}
