import { Forbidden } from "../platform/errors";
import type { Principal, SignedIn } from "../policies/principal";

export type PasswordSession = Extract<Principal, { kind: "session" }>;

/**
 * What only the account's holder may do, signed in with the password. An API key is a credential of the service
 * API: a leaked key reads and writes the workspace's data, but must not mint more keys, take the account over, or
 * point the model providers (which hold paid, secret credentials) elsewhere.
 */
export type AccountAction = "manageApiKeys" | "changePassword" | "manageModelProviders" | "manageIdentities";

/** Refuses an account action to a request authenticated by an API key. Every service that performs one calls this. */
export function authorizeAccountAction(principal: SignedIn, action: AccountAction): asserts principal is PasswordSession {
  if (principal.kind === "apiToken") throw Forbidden(`errors.apiKeyCannot.${action}`);
}
