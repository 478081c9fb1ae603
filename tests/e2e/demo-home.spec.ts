import { expect, test } from "@playwright/test";
import { PASSWORD } from "./support";

test("a visitor sees the product on /home, signs up from the demo and comes back to it, starts it, and the assistant answers a suggested question with a citation", async ({ page }) => {
  const email = `demo-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  // The landing page shows real screenshots, each one loaded.
  await page.goto("/home");
  const screens = page.getByTestId("home-screen");
  await expect(screens).toHaveCount(4);
  for (const image of await screens.locator("img").all()) {
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1280);
  }
  await expect(page.getByTestId("home-sign-up").first()).toHaveAttribute("href", "/login?redirect=%2Fmy&mode=signUp");

  // The demo explains itself to a visitor and leads to sign-up, which comes back to it.
  await page.getByTestId("home-try-demo").first().click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByTestId("demo-visitor")).toBeVisible();
  await page.getByTestId("demo-sign-up").click();
  const form = page.getByTestId("sign-up-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="nickname"]').fill("Ada Lovelace");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/demo$/);

  // One click: every step ends done, the parsing with the four samples.
  await page.getByTestId("demo-start").click();
  await expect(page.getByTestId("demo-step-knowledge-base")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("demo-step-flow")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("demo-step-parsing")).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await expect(page.getByTestId("demo-document")).toHaveCount(4);
  await expect(page.getByTestId("demo-step-assistant")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("demo-ready")).toBeVisible();
  await expect(page.getByTestId("demo-link-chunks")).toBeVisible();
  await expect(page.getByTestId("demo-link-retrieval")).toBeVisible();
  await expect(page.getByTestId("demo-link-flow")).toHaveAttribute("href", /^\/flow\/\w+$/);

  // A suggested question, asked of the demo's assistant, is answered from the samples with a citation.
  const question = "Why do hikers build cairns?";
  await expect(page.getByTestId("demo-question").filter({ hasText: question })).toBeVisible();
  await page.getByTestId("demo-link-ask").click();
  await expect(page).toHaveURL(/\/chat\?assistant=\w+/);
  await page.getByTestId("chat-input").fill(question);
  await page.getByTestId("chat-input").press("Enter");
  const answer = page.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(answer.getByTestId("answer-content")).toContainText("mark a trail");
  await answer.getByTestId("citation").first().click();
  await expect(page.getByTestId("citation-popover").getByTestId("citation-chunk")).toContainText("cairn");
});
