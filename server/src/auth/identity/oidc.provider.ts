import type { IdentityProvidersConfig } from "../../platform/config";
import { OpenIdConnectProvider } from "./openid-connect";
import type { IdentityProviderModule } from "./provider";

/** Any OpenID Connect provider the operator names by its issuer (Keycloak, Okta, Entra ID, Authentik, Dex…). */
export const oidcProvider: IdentityProviderModule<NonNullable<IdentityProvidersConfig["oidc"]>> = {
  create: ({ clientId, clientSecret, issuer, name }) => new OpenIdConnectProvider({ name: "oidc", label: name, issuer, clientId, clientSecret }),
};
