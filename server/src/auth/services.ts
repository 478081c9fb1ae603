import type { Principal } from "../policies/principal";
import type { ApiTokenService } from "./api-token.service";
import type { AuthService } from "./auth.service";
import type { IdentitySignInService } from "./identity/identity-sign-in";
import type { TeamService } from "./team.service";

declare module "../platform/services" {
  interface Services {
    auth: AuthService;
    apiTokens: ApiTokenService;
    identitySignIn: IdentitySignInService;
    teams: TeamService;
    /** Who sent a request, from its Authorization header: a session token, an API token or a share token. */
    principalFor(authorization: string | undefined | null): Promise<Principal>;
  }
}
