import { isSignedIn, type TenantRole } from "./principal";
import { live, managedTenants, memberTenants, ownedTenants, type Policy } from "./rules";

/**
 * One person's place in a team (a tenant): a member with a role, or an invitation (role "invite", RAGFlow's
 * `user_tenant.role`), whose `userId` is null while it waits for its address to sign up.
 * `read`: the team's members see each other and who is invited; everyone sees their own invitations.
 * `use`: agreeing to an invitation, which only the invited person may.
 * `manage`: inviting (a new row of role "invite") and changing a role, before and after: the owner changes any
 * row, admins every row but the owner's, so that only the owner hands ownership on (and so changes the owner's row).
 * `delete`: removing a member or cancelling an invitation (owner and admins), leaving a team or refusing an
 * invitation (the person themself); nobody removes the owner, who cannot leave their own team.
 */
export interface TeamMembershipResource {
  kind: "teamMembership";
  tenantId: string;
  userId: string | null;
  role: TenantRole;
}

const ALL_BUT_OWNER: TenantRole[] = ["admin", "normal", "invite"];

export const teamMembershipPolicy: Policy = {
  rules(principal, action) {
    if (!isSignedIn(principal)) return [];
    const me = principal.user.id;
    switch (action) {
      case "read":
        return live([{ tenantId: memberTenants(principal) }, { userId: me }]);
      case "use":
        return [{ userId: me, role: "invite" }];
      case "manage":
        return live([{ tenantId: ownedTenants(principal) }, { tenantId: managedTenants(principal), role: ALL_BUT_OWNER }]);
      case "delete":
        return live([{ tenantId: managedTenants(principal), role: ALL_BUT_OWNER }, { userId: me, role: ALL_BUT_OWNER }]);
    }
  },
  notFound: "errors.userNotFound",
  forbidden: "errors.team.forbidden",
};
