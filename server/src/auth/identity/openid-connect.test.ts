import { freePort } from "../../testing/processes";
import { OpenIdConnectProvider } from "./openid-connect";

describe("an OpenID Connect provider", () => {
  it("that cannot be reached is reported as unavailable, by its label", async () => {
    const provider = new OpenIdConnectProvider({ name: "oidc", label: "Harbour SSO", issuer: `http://127.0.0.1:${await freePort()}`, clientId: "c", clientSecret: "s" });
    const request = { redirectUri: "http://127.0.0.1/cb", state: "s", nonce: "n", codeChallenge: "c" };
    await expect(provider.authorizationUrl(request)).rejects.toMatchObject({ messageKey: "errors.sso.providerUnavailable", params: { provider: "Harbour SSO" } });
  });
});
