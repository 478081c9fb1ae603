import { OIDC_TEST_CLIENT } from "../../server/src/testing/oidc-provider";

/**
 * The local OpenID Connect provider of sso.spec.ts. The server is configured with it from its start (playwright.config.ts);
 * it asks the provider only when someone signs in, so the spec starts the provider itself, before its journey.
 */
export const SSO_PROVIDER_PORT = 9398;
export const SSO_PROVIDER_NAME = "Harbour SSO";

export const SSO_SERVER_ENV = {
  AUTH_OIDC_ISSUER: `http://127.0.0.1:${SSO_PROVIDER_PORT}`,
  AUTH_OIDC_CLIENT_ID: OIDC_TEST_CLIENT.clientId,
  AUTH_OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.clientSecret,
  AUTH_OIDC_NAME: SSO_PROVIDER_NAME,
};
