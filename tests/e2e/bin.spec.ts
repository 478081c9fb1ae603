import { expect, test } from "@playwright/test";
import { accountWithKnowledgeBase, expectToastShown, recordToasts, signInWithToken } from "./support";

// §: usable at 1024 px
test.use({ viewport: { width: 1024, height: 768 } });

test("a deleted knowledge base waits in the recycle bin and comes back with its documents", async ({ page, request }) => {
  const { token } = await accountWithKnowledgeBase(request, "bin");
  await signInWithToken(page, token);

  // Deleting says where the knowledge base goes, and for how long
  await page.goto("/knowledge");
  const card = page.getByTestId("kb-card").filter({ hasText: "Harbour town" });
  await card.getByTestId("kb-card-menu").click();
  await page.getByTestId("kb-delete").click();
  await expect(page.getByTestId("confirm-delete-bin-note")).toContainText("recycle bin");
  await expect(page.getByTestId("confirm-delete-bin-note")).toContainText("30 days");
  await page.getByTestId("confirm-delete-dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("kb-empty")).toBeVisible();

  // In the bin: its kind, name and the days it is kept
  await page.goto("/my/recycle-bin");
  const row = page.getByTestId("bin-row").filter({ hasText: "Harbour town" });
  await expect(row).toHaveAttribute("data-kind", "knowledgeBase");
  await expect(row).toContainText("Grace Hopper");
  await expect(row).toContainText("30 days left");
  await page.screenshot({ path: "/tmp/bin-page.png", fullPage: true });

  await recordToasts(page);
  await row.getByTestId("bin-restore-one").click();
  await expectToastShown(page, "Operated!");
  await expect(page.getByTestId("bin-empty")).toBeVisible();

  // Back in the list, with its two parsed documents
  await page.goto("/knowledge");
  const restored = page.getByTestId("kb-card").filter({ hasText: "Harbour town" });
  await expect(restored.getByTestId("kb-card-documents")).toContainText("2");
  await restored.getByTestId("kb-card-name").click();
  await expect(page.getByTestId("document-row")).toHaveCount(2);
});
