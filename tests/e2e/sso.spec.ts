import { expect, test } from "@playwright/test";
import { startOidcProvider, type OidcTestProvider } from "../../server/src/testing/oidc-provider";
import { SSO_PROVIDER_NAME, SSO_PROVIDER_PORT } from "./sso-provider";

let provider: OidcTestProvider | undefined;

test.beforeAll(async ({}, testInfo) => {
  const app = testInfo.project.use.baseURL!;
  provider = await startOidcProvider({ port: SSO_PROVIDER_PORT, redirectUris: [`${app}/v1/auth/oidc/callback`] });
});

test.afterAll(async () => {
  await provider?.stop();
});

test("signing in through the OpenID Connect provider's button makes the account and lands signed in", async ({ page }) => {
  const email = `sso-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  await page.goto("/login");
  const button = page.getByTestId("sign-in-provider-oidc");
  await expect(button).toHaveText(`Continue with ${SSO_PROVIDER_NAME}`);
  await page.screenshot({ path: "/tmp/sso-login.png" });
  await button.click();

  // The provider's own sign-in page (oidc-provider's development form: any login, any password).
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${SSO_PROVIDER_PORT}/interaction/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();

  // Back through Cairn's callback and the login page, signed in, in the new account's own space.
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByRole("heading", { name: `Welcome, ${email.split("@")[0]}` })).toBeVisible();
});
