import { isSignedIn } from "./principal";
import { live, memberTenants, ownedTenants, type Policy } from "./rules";

/**
 * An entry of the recycle bin: a deleted item of a tenant. The user who deleted it (while still a member of its
 * tenant) and the tenant's owner see it, restore it and delete it for good; nobody else learns it exists.
 */
export interface BinEntryResource {
  kind: "binEntry";
  tenantId: string;
  binnedBy: string;
}

export const binEntryPolicy: Policy = {
  rules(principal) {
    if (!isSignedIn(principal)) return [];
    return live([{ tenantId: memberTenants(principal), binnedBy: principal.user.id }, { tenantId: ownedTenants(principal) }]);
  },
  notFound: "errors.bin.notFound",
  forbidden: "errors.bin.notFound",
};
