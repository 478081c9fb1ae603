import type { IdentityProvidersConfig } from "../../platform/config";
import { OpenIdConnectProvider } from "./openid-connect";
import type { IdentityProviderModule } from "./provider";

/** Google sign-in: OpenID Connect at accounts.google.com, whose ID tokens may name the issuer without its scheme. */
export const googleProvider: IdentityProviderModule<NonNullable<IdentityProvidersConfig["google"]>> = {
  create: ({ clientId, clientSecret, issuer }) =>
    new OpenIdConnectProvider({ name: "google", label: "Google", issuer, alsoIssuers: [issuer.replace(/^https:\/\//, "")], clientId, clientSecret }),
};
