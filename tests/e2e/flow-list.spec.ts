import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectToastShown, graphql, PASSWORD, recordToasts } from "./support";

/** A RAGFlow v0.14 template, as RAGFlow ships it (with its avatar and forms). */
const RAGFLOW_TEMPLATE = path.resolve(__dirname, "../../server/src/flows/testing/ragflow-v0.14/templates-general_chat_bot.json");

// §: usable at 1024 px
test.use({ viewport: { width: 1024, height: 768 } });

const card = (page: Page, title: string): Locator => page.getByTestId("flow-card").filter({ has: page.getByTestId("flow-card-title").getByText(title, { exact: true }) });

async function openMenu(page: Page, item: Locator, action: string): Promise<void> {
  await item.getByTestId("flow-menu").click();
  await page.getByTestId(action).click();
}

test("a user builds the agent list: empty state, a template from the gallery, rename, duplicate, layout, search, export, import and delete", async ({ page, request }) => {
  const email = `flows-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Ada Lovelace", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  await page.addInitScript((token: string) => window.localStorage.setItem("Authorization", token), login.token);

  // No flows yet: what an agent is, and the ways to get one
  await page.goto("/flow");
  await expect(page.getByTestId("flow-empty")).toBeVisible();
  await expect(page.getByTestId("flow-empty-example")).toHaveAttribute("data-nodes", "5");
  // the picture's colours come with the component registry: Begin is a core component
  await expect(page.getByTestId("flow-empty-example").locator("rect").first()).toHaveAttribute("fill", /brand/);
  await page.screenshot({ path: "/tmp/list-empty.png" });

  // The gallery: blank and the templates, each with its picture and what it needs
  await page.getByTestId("flow-empty-create").click();
  const dialog = page.getByTestId("flow-create-dialog");
  const template = dialog.getByTestId("flow-template-knowledge-base-qa");
  await expect(template).toContainText("Knowledge base Q&A with citations");
  await expect(template.getByTestId("flow-template-need")).toHaveText(["Needs a knowledge base"]);
  expect(Number(await template.getByTestId("flow-template-knowledge-base-qa-preview").getAttribute("data-nodes"))).toBeGreaterThan(2);
  await expect(dialog.getByTestId("flow-template-web-search-assistant").getByTestId("flow-template-need")).toContainText(["Needs internet access"]);
  await template.click();
  await expect(template).toHaveAttribute("aria-checked", "true");
  const title = dialog.getByTestId("flow-create-title");
  await expect(title).toHaveValue("Knowledge base Q&A with citations");
  await page.screenshot({ path: "/tmp/list-gallery.png" });
  // the name is required, at the field
  await title.fill("");
  await dialog.getByTestId("flow-create-submit").click();
  await expect(dialog).toContainText("Please input name!");
  await title.fill("Harbour helper");
  await dialog.getByTestId("flow-create-submit").click();
  await expect(page).toHaveURL(/\/flow\/[0-9a-f]{32}$/);
  const createdId = page.url().split("/").pop();

  // Back on the list: the card, its picture, its times
  await page.goBack();
  const helper = card(page, "Harbour helper");
  await expect(helper).toBeVisible();
  await expect(helper).toHaveAttribute("data-flow-id", createdId!);
  expect(Number(await helper.getByTestId("flow-thumbnail").getAttribute("data-nodes"))).toBeGreaterThan(2);
  await expect(helper.getByTestId("flow-last-run")).toHaveText("Never run");

  // Rename
  await openMenu(page, helper, "flow-rename");
  const rename = page.getByTestId("flow-rename-dialog");
  await rename.locator('input[name="title"]').fill("Harbour guide");
  await rename.getByTestId("flow-rename-dialog-submit").click();
  await expect(card(page, "Harbour guide")).toBeVisible();

  // Duplicate; a copy cannot take a name in use, and says so at the field
  await openMenu(page, card(page, "Harbour guide"), "flow-duplicate");
  const copy = card(page, "Harbour guide(1)");
  await expect(copy).toBeVisible();
  await openMenu(page, copy, "flow-rename");
  await rename.locator('input[name="title"]').fill("harbour GUIDE");
  await rename.getByTestId("flow-rename-dialog-submit").click();
  await expect(rename).toContainText("An agent named “harbour GUIDE” already exists.");
  await rename.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("flow-card")).toHaveCount(2);

  // The list layout, remembered across a reload
  await page.getByTestId("flow-layout-list").click();
  await expect(page.getByTestId("flow-list")).toHaveAttribute("data-layout", "list");
  await page.reload();
  await expect(page.getByTestId("flow-list")).toHaveAttribute("data-layout", "list");
  await expect(page.getByTestId("flow-row")).toHaveCount(2);
  await page.screenshot({ path: "/tmp/list-list.png" });
  await page.getByTestId("flow-layout-grid").click();
  await expect(page.getByTestId("flow-list")).toHaveAttribute("data-layout", "grid");

  // Search, on the server; a search that matches nothing says so
  await page.getByTestId("flow-search").fill("(1)");
  await expect(page.getByTestId("flow-card")).toHaveCount(1);
  await expect(copy).toBeVisible();
  await page.getByTestId("flow-search").fill("lighthouse");
  await expect(page.getByTestId("flow-search-empty")).toContainText("No agent matches “lighthouse”.");
  await page.getByTestId("flow-search-clear").click();
  await expect(page.getByTestId("flow-card")).toHaveCount(2);

  // Export: a file that RAGFlow and Cairn read back
  const downloading = page.waitForEvent("download");
  await openMenu(page, card(page, "Harbour guide"), "flow-export");
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Harbour guide.json");
  const exported = JSON.parse(fs.readFileSync(await download.path(), "utf8")) as { title: string; components: Record<string, unknown> };
  expect(exported.title).toBe("Harbour guide");
  expect(Object.keys(exported.components)).toContain("begin");

  // Import a RAGFlow v0.14 template file: what the import changed is shown, and the flow is listed
  await page.getByTestId("flow-import-input").setInputFiles(RAGFLOW_TEMPLATE);
  const imported = page.getByTestId("flow-import-dialog");
  await expect(imported).toContainText("General-purpose chatbot");
  await imported.getByTestId("flow-import-stay").click();
  const chatbot = card(page, "General-purpose chatbot");
  await expect(chatbot).toBeVisible();
  expect(Number(await chatbot.getByTestId("flow-thumbnail").getAttribute("data-nodes"))).toBeGreaterThan(20);
  await page.screenshot({ path: "/tmp/list-grid.png" });
  // sorted by name, on the server
  await page.getByTestId("flow-sort").selectOption("name");
  await expect(page.getByTestId("flow-card-title")).toHaveText(["General-purpose chatbot", "Harbour guide", "Harbour guide(1)"]);
  // a file that is no flow creates nothing and says why
  await recordToasts(page);
  await page.getByTestId("flow-import-input").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": "world"}') });
  await expectToastShown(page, "The file is not an agent flow");
  await expect(page.getByTestId("flow-card")).toHaveCount(3);

  // Share with the team, and back
  await openMenu(page, chatbot, "flow-share");
  await expect(chatbot.getByTestId("flow-team-badge")).toBeVisible();
  await openMenu(page, chatbot, "flow-share");
  await expect(chatbot.getByTestId("flow-team-badge")).toHaveCount(0);

  // Delete, after §2's confirmation
  await openMenu(page, copy, "flow-delete");
  const confirm = page.getByTestId("confirm-delete-dialog");
  await expect(confirm).toContainText("Are you sure delete this item?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(copy).toHaveCount(0);
  await expect(page.getByTestId("flow-card")).toHaveCount(2);

  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  // the colours change with a short transition, which the picture skips
  await page.screenshot({ path: "/tmp/list-grid-dark.png", animations: "disabled" });
});
