import { home, live, type Policy } from "./rules";

/**
 * An API key of a tenant: it acts with the tenant's full rights, so only the tenant's owner and admins list, create
 * (`manage`) and delete keys. Nobody `use`s a key as an action: presenting it is authentication.
 */
export interface ApiTokenResource {
  kind: "apiToken";
  tenantId: string;
}

export const apiTokenPolicy: Policy = {
  rules: (principal, action) => (action === "use" ? [] : live([{ tenantId: home(principal, "manager") }])),
  notFound: "errors.apiTokenNotFound",
  forbidden: "errors.forbidden",
};
