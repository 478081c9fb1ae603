import { expect, test } from "@playwright/test";
import { PASSWORD } from "./support";

test("signing up lands signed in on a page that offers the next step, and following it creates a knowledge base", async ({ page }) => {
  const email = `first-steps-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  await page.goto("/login");
  await page.getByTestId("switch-mode").click();
  const form = page.getByTestId("sign-up-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="nickname"]').fill("Ada Lovelace");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign up" }).click();

  // Signed in at once, in the user's space, which says what to do first.
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByRole("heading", { name: "Welcome, Ada Lovelace" })).toBeVisible();
  const next = page.getByTestId("next-step");
  await expect(next).toHaveAttribute("data-step", "createKnowledgeBase");
  await expect(page.getByTestId("works-empty")).toBeVisible();

  await next.getByTestId("next-step-action").click();
  const dialog = page.getByTestId("kb-create-dialog");
  await dialog.locator('input[name="name"]').fill("Trail guides");
  await dialog.getByTestId("kb-create-dialog-submit").click();
  await expect(page).toHaveURL(/\/knowledge\/dataset\?id=\w+/);
  await expect(page.getByTestId("kb-name")).toHaveText("Trail guides");

  // Back home, the knowledge base is among the works with its counts, and the next step is to upload into it.
  await page.goto("/my");
  await expect(next).toHaveAttribute("data-step", "upload");
  await expect(page.getByTestId("next-step-title")).toHaveText("Upload files to Trail guides");
  const listed = page.getByTestId("work-item");
  await expect(listed).toHaveCount(1);
  await expect(listed).toHaveAttribute("data-kind", "knowledgeBase");
  await expect(listed.getByTestId("work-name")).toHaveText("Trail guides");
  await expect(listed.getByTestId("work-summary")).toContainText("0 documents");
  await next.getByTestId("next-step-action").click();
  await expect(page).toHaveURL(/\/knowledge\/dataset\?id=\w+/);
});
