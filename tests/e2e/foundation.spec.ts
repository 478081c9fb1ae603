import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectToastShown, recordToasts } from "./support";

const PASSWORD = "correct-horse-battery";
const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Creates an account straight through GraphQL, for tests that are about something other than signing up. */
async function registerThroughApi(request: APIRequestContext, email: string, nickname: string): Promise<void> {
  const response = await request.post("/graphql", {
    data: {
      query: "mutation Register($input: RegisterInput!) { register(input: $input) { user { id } } }",
      variables: { input: { email, nickname, password: PASSWORD } },
    },
  });
  expect(response.ok()).toBeTruthy();
  expect((await response.json()).errors).toBeUndefined();
}

/** Signs in on the login form that is on screen, whatever the interface language. */
async function signInOnForm(page: Page, email: string): Promise<void> {
  const form = page.getByTestId("sign-in-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
}

function mainNavigation(page: Page) {
  return page.locator("header nav");
}

test("a new user signs up, signs in, keeps language and theme, uses an API key and signs out", async ({ page, request }) => {
  const email = uniqueEmail("journey");

  await page.goto("/login");
  await page.getByTestId("switch-mode").click();
  const signUpForm = page.getByTestId("sign-up-form");
  await signUpForm.locator('input[name="email"]').fill(email);
  await signUpForm.locator('input[name="nickname"]').fill("Grace Hopper");
  await signUpForm.locator('input[name="password"]').fill(PASSWORD);
  await recordToasts(page);
  await signUpForm.getByRole("button", { name: "Sign up" }).click();

  // Signing up signs in: the new account lands in its space.
  await expectToastShown(page, "Registered!");
  await expect(page).toHaveURL(/\/my$/);
  for (const label of ["Home", "Knowledge Base", "Chat", "File Management", "Agent", "Search"]) {
    await expect(mainNavigation(page).getByRole("link", { name: label })).toBeVisible();
  }

  await page.getByTestId("language-menu").click();
  await page.getByTestId("language-zh").click();
  await expect(mainNavigation(page).getByRole("link", { name: "知识库" })).toBeVisible();
  await page.getByTestId("theme-menu").click();
  await page.getByTestId("theme-dark").click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);

  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.locator("html")).not.toHaveClass(/\blight\b/);
  await expect(mainNavigation(page).getByRole("link", { name: "知识库" })).toBeVisible();

  await page.goto("/user-setting/api");
  await expect(page.getByTestId("api-token-empty")).toBeVisible();
  await page.getByTestId("create-api-token").click();
  await page.getByTestId("create-token-dialog").locator('select[name="expiry"]').selectOption("90");
  await page.getByTestId("confirm-create-api-token").click();
  const shownToken = page.getByTestId("new-api-token");
  await expect(shownToken).toHaveText(/^ragflow-\S{20,}$/);
  const apiKey = (await shownToken.textContent())?.trim() ?? "";
  await page.getByTestId("close-created-token").click();
  await expect(page.getByTestId("created-token-dialog")).toBeHidden();
  await expect(page.getByTestId("api-token-row")).toHaveCount(1);
  // The list shows a hint, never the whole key again.
  await expect(page.getByTestId("api-token-table")).not.toContainText(apiKey);

  const tenantInfo = await request.get("/v1/user/tenant_info", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(tenantInfo.status()).toBe(200);
  const tenantBody = await tenantInfo.json();
  expect(tenantBody.code).toBe(0);
  expect(tenantBody.data.tenant_id).toEqual(expect.any(String));
  expect(tenantBody.data.tenant_id.length).toBeGreaterThan(0);

  const unknownPath = await request.get("/api/v1/does-not-exist", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(unknownPath.status()).toBe(404);
  expect((await unknownPath.json()).error).toBe("Not Found");

  const wrongKey = await request.get("/v1/user/tenant_info", { headers: { Authorization: "Bearer ragflow-not-a-real-key" } });
  expect(wrongKey.status()).toBe(401);

  await page.getByTestId("delete-api-token").click();
  await expect(page.getByTestId("confirm-delete-dialog")).toContainText("确定删除此项吗？");
  await page.getByTestId("confirm-delete-dialog").getByRole("button", { name: "删除" }).click();
  await expect(page.getByTestId("api-token-empty")).toBeVisible();
  const deletedKey = await request.get("/v1/user/tenant_info", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(deletedKey.status()).toBe(401);

  await recordToasts(page);
  await page.getByTestId("user-menu").click();
  await page.getByTestId("menu-sign-out").click();
  await expect(page).toHaveURL(/\/login$/);
  await expectToastShown(page, "已退出登录！");

  await page.goto("/knowledge");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fknowledge$/);
  await signInOnForm(page, email);
  await expect(page).toHaveURL(/\/knowledge$/);
  await expect(page.getByTestId("kb-empty")).toBeVisible();
});

test("an anonymous visitor returns to the exact page asked for after signing in", async ({ page, request }) => {
  const email = uniqueEmail("return");
  await registerThroughApi(request, email, "Katherine Johnson");

  await page.goto("/user-setting/profile?x=1");
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await signInOnForm(page, email);
  await expect(page).toHaveURL(/\/user-setting\/profile\?x=1$/);
  const profile = page.getByTestId("profile-form");
  await expect(profile.locator('input[name="nickname"]')).toHaveValue("Katherine Johnson");

  // A photo becomes a data URL with a preview; saving Dark and Spanish switches the interface at once.
  await profile.getByTestId("avatar-input").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: ONE_PIXEL_PNG });
  await expect(profile.getByTestId("avatar-preview")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await profile.getByText("Dark", { exact: true }).click();
  await profile.locator('select[name="language"]').selectOption("es");
  await recordToasts(page);
  await profile.locator('button[type="submit"]').click();
  await expectToastShown(page, "¡Modificado!");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("heading", { name: "Perfil" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es-ES");

  // §2's redirects.
  await page.goto("/");
  await expect(page).toHaveURL(/\/my$/);
  await page.goto("/user-setting");
  await expect(page).toHaveURL(/\/user-setting\/profile$/);
  await page.goto("/my/set-up");
  await expect(page).toHaveURL(/\/user-setting\/profile$/);

  // The client checks the password rules before asking the server.
  await page.goto("/user-setting/password");
  const form = page.getByTestId("password-form");
  await form.locator('input[name="currentPassword"]').fill(PASSWORD);
  await form.locator('input[name="newPassword"]').fill("a-new-password");
  await form.locator('input[name="confirmPassword"]').fill("another-password");
  await form.locator('button[type="submit"]').click();
  await expect(form).toContainText("¡Las nuevas contraseñas que introdujo no coinciden!");
  await page.getByTestId("language-menu").click();
  await page.getByTestId("language-en").click();
  await expect(form).toContainText("The new password that you entered do not match!");
});

test("an unknown path shows the 404 page", async ({ page }) => {
  await page.goto("/no/such/page");
  const notFound = page.getByTestId("not-found");
  await expect(notFound).toBeVisible();
  await expect(notFound.getByRole("heading", { name: "404" })).toBeVisible();
  await expect(notFound).toContainText("Sorry, the page you visited does not exist.");
  await expect(page).toHaveTitle("Page not found · Cairn");
});

test("a page whose code cannot be fetched shows a load error naming the page, with a reload button", async ({ page }) => {
  await page.route("**/assets/DemoPage-*.js", (route) => route.abort("connectionfailed"));
  await page.goto("/demo");
  const failure = page.getByTestId("page-load-error");
  await expect(failure).toContainText("Failed to load Demo (network error). Please reload the page.");
  await expect(failure.getByRole("button", { name: "Reload the page" })).toBeVisible();
});

test("a request that cannot reach the server is reported as a network anomaly", async ({ page }) => {
  await page.goto("/login");
  await page.route("**/graphql", (route) => route.abort("internetdisconnected"));
  await signInOnForm(page, "nobody@example.com");
  await expect(page.getByTestId("toast")).toContainText("There is an anomaly in your network and you cannot connect to the server.");
});

test("the system theme follows the operating system's colour scheme while the page is open", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/home");
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
  // The inline script of index.html paints the first theme; the app's listener is there once it has rendered.
  await expect(page.getByTestId("theme-menu")).toBeVisible();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.getByTestId("theme-menu").click();
  await page.getByTestId("theme-light").click();
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
});

test.describe("with a browser set to Traditional Chinese (zh-TW)", () => {
  test.use({ locale: "zh-TW" });

  test("the interface starts in Traditional Chinese", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page.getByTestId("not-found")).toContainText("抱歉，您造訪的頁面不存在。");
    expect(await page.evaluate(() => window.localStorage.getItem("lng"))).toBe("zh-TRADITIONAL");
  });
});
