import { ApiTokenService } from "./api/api-token.service";
import { AuthService } from "./auth/auth.service";
import { ANONYMOUS, bearerToken, type Principal } from "./auth/principal";
import { ModelsService } from "./models/models.service";
import type { Platform } from "./platform";

/** Every domain service, built once per process over the platform ports. Resolvers, REST routes and jobs call these. */
export interface Services {
  platform: Platform;
  auth: AuthService;
  apiTokens: ApiTokenService;
  models: ModelsService;
  /** Who sent a request, from its Authorization header: a session token or an API token. */
  principalFor(authorization: string | undefined | null): Promise<Principal>;
}

export function createServices(platform: Platform): Services {
  const auth = new AuthService(platform);
  const apiTokens = new ApiTokenService(platform);
  return {
    platform,
    auth,
    apiTokens,
    models: new ModelsService(platform),
    async principalFor(authorization) {
      const token = bearerToken(authorization);
      if (!token) return ANONYMOUS;
      return (await apiTokens.authenticate(token)) ?? (await auth.authenticateSession(token)) ?? ANONYMOUS;
    },
  };
}
