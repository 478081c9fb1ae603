import type { IdentityProvidersConfig } from "../../platform/config";
import { githubProvider } from "./github.provider";
import { googleProvider } from "./google.provider";
import { oidcProvider } from "./oidc.provider";
import type { IdentityProvider, IdentityProviderModule } from "./provider";

function ifConfigured<Settings>(module: IdentityProviderModule<Settings>, settings: Settings | undefined): IdentityProvider[] {
  return settings ? [module.create(settings)] : [];
}

/** The providers the configuration turns on, one line per provider module, in the order the login page shows their buttons. */
export function configuredProviders(config: IdentityProvidersConfig): IdentityProvider[] {
  return [...ifConfigured(githubProvider, config.github), ...ifConfigured(googleProvider, config.google), ...ifConfigured(oidcProvider, config.oidc)];
}
