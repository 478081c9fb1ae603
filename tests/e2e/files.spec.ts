import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document as DocxDocument, HeadingLevel, Packer, Paragraph } from "docx";
import { expect, test, type Page } from "@playwright/test";
import { graphql, PASSWORD, signInWithToken } from "./support";

/**
 * The file manager's journey (/file): folders made on the page, a whole folder uploaded with its sub-folders, a DOCX
 * and a CSV previewed as rendered, a file linked to a knowledge base and parsed there, then moved and deleted with
 * the document that went with it.
 */

const NOTES = `# Harbour notes

The harbour office opens at eight in the morning. Visiting boats moor on the eastern pier.
`;

const PORTS = "port,country,berths\nValletta,Malta,24\nTrieste,Italy,31\n";

async function onboardingDocx(): Promise<Buffer> {
  const document = new DocxDocument({
    sections: [{ children: [new Paragraph({ text: "Onboarding guide", heading: HeadingLevel.HEADING_1 }), new Paragraph("Keys are collected at the harbour office.")] }],
  });
  return Packer.toBuffer(document);
}

/** trip/notes.md, trip/docs/onboarding.docx and trip/data/ports.csv, as a user's folder on disk. */
async function tripFolder(): Promise<{ path: string; remove: () => void }> {
  const root = mkdtempSync(join(tmpdir(), "cairn-files-e2e-"));
  const trip = join(root, "trip");
  mkdirSync(join(trip, "docs"), { recursive: true });
  mkdirSync(join(trip, "data"), { recursive: true });
  writeFileSync(join(trip, "notes.md"), NOTES);
  writeFileSync(join(trip, "docs", "onboarding.docx"), await onboardingDocx());
  writeFileSync(join(trip, "data", "ports.csv"), PORTS);
  return { path: trip, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const row = (page: Page, name: string) => page.getByTestId("file-row").and(page.locator(`[data-name="${name}"]`));

async function openRowMenu(page: Page, name: string, item: string): Promise<void> {
  await row(page, name).getByTestId("file-menu").click();
  await page.getByTestId(item).click();
}

async function newFolder(page: Page, name: string): Promise<void> {
  await page.getByTestId("file-new-folder").click();
  const dialog = page.getByTestId("file-new-folder-dialog");
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.getByTestId("file-new-folder-dialog-submit").click();
  await expect(dialog).toBeHidden();
  await expect(row(page, name)).toBeVisible();
}

test("folders, a folder upload, rendered previews, a link parsed in its knowledge base, a move and a delete", async ({ page, request }) => {
  const email = `files-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { register } = await graphql<{ register: { token: string } }>(request, "mutation($input: RegisterInput!) { register(input: $input) { token } }", { input: { email, nickname: "Ada Lovelace", password: PASSWORD } });
  const folder = await tripFolder();
  try {
    await page.setViewportSize({ width: 1024, height: 800 });
    await signInWithToken(page, register.token);
    await page.goto("/file");

    // A first visit says what the page is for, with its two ways to begin.
    const empty = page.getByTestId("files-empty");
    await expect(empty).toHaveAttribute("data-reason", "start");
    await expect(empty.getByTestId("files-empty-upload")).toBeVisible();
    await page.screenshot({ path: "/tmp/files-empty.png" });

    // A folder's name is required, and said so at the field.
    await page.getByTestId("file-new-folder").click();
    const folderDialog = page.getByTestId("file-new-folder-dialog");
    await folderDialog.getByTestId("file-new-folder-dialog-submit").click();
    await expect(folderDialog).toContainText("Please input the folder name!");
    await folderDialog.getByRole("button", { name: "Cancel" }).click();
    await newFolder(page, "Archive");

    // A whole folder: its sub-folders are made on the server from the files' paths.
    await page.getByTestId("file-add").click();
    await page.getByTestId("file-add-upload").click();
    const upload = page.getByTestId("file-upload-dialog");
    await upload.getByTestId("file-upload-folder-input").setInputFiles(folder.path);
    await expect(upload.getByTestId("file-upload-file")).toHaveCount(3);
    await expect(upload.getByTestId("file-upload-summary")).toHaveText("3 files · 3 new folders");
    await upload.getByTestId("file-upload-submit").click();
    await expect(upload).toBeHidden();
    await row(page, "trip").getByTestId("file-name").click();
    await expect(page.getByTestId("file-breadcrumb-current")).toHaveText("trip");
    await expect(page.getByTestId("file-row")).toHaveCount(3);

    // Previews are rendered: the DOCX as formatted text, the CSV as a table.
    await row(page, "docs").getByTestId("file-name").click();
    await row(page, "onboarding.docx").getByTestId("file-name").click();
    const drawer = page.getByTestId("file-preview-drawer");
    await expect(drawer.getByRole("heading", { name: "Onboarding guide" })).toBeVisible();
    await expect(drawer.getByTestId("file-preview-download")).toBeVisible();
    await page.screenshot({ path: "/tmp/files-preview-docx.png" });
    await drawer.getByTestId("file-preview-close").click();
    await page.getByTestId("file-tree-node").and(page.locator('[data-name="data"]')).click();
    await row(page, "ports.csv").getByTestId("file-name").click();
    await expect(drawer.getByRole("cell", { name: "Trieste" })).toBeVisible();
    await page.screenshot({ path: "/tmp/files-preview-csv.png" });
    await drawer.getByTestId("file-preview-close").click();

    // Linked to a knowledge base, the file becomes a document there and is parsed.
    await graphql(request, "mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }", { input: { name: "Harbour town" } }, register.token);
    await page.getByTestId("file-breadcrumb").filter({ hasText: "trip" }).click();
    await openRowMenu(page, "notes.md", "file-link");
    const linkDialog = page.getByTestId("file-link-dialog");
    await linkDialog.getByTestId("file-link-kb-option").filter({ hasText: "Harbour town" }).click();
    await linkDialog.getByTestId("file-link-submit").click();
    await expect(linkDialog).toBeHidden();
    const badge = row(page, "notes.md").getByTestId("file-link-badge");
    await expect(badge).toHaveText("Harbour town");
    await page.screenshot({ path: "/tmp/files-table.png" });
    await badge.click();
    await page.getByTestId("file-link-open-kb").click();
    await expect(page).toHaveURL(/\/knowledge\/dataset\?id=/);
    const document = page.getByTestId("document-row").filter({ hasText: "notes.md" });
    await expect(document.getByTestId("parsing-status")).toHaveAttribute("data-run", "3", { timeout: 30_000 });

    // Moved into Archive in the folder picker, then deleted with the document it became.
    await page.goBack();
    await openRowMenu(page, "notes.md", "file-move");
    const moveDialog = page.getByTestId("file-move-dialog");
    await moveDialog.getByTestId("file-move-tree-node").and(page.locator('[data-name="Archive"]')).click();
    await moveDialog.getByTestId("file-move-submit").click();
    await expect(moveDialog).toBeHidden();
    await expect(row(page, "notes.md")).toHaveCount(0);
    await page.getByTestId("file-breadcrumb").first().click();
    await row(page, "Archive").getByTestId("file-name").click();
    await expect(row(page, "notes.md")).toBeVisible();
    await page.getByTestId("file-breadcrumb").first().click();
    await openRowMenu(page, "Archive", "file-delete");
    const confirm = page.getByTestId("confirm-delete-dialog");
    await expect(confirm).toContainText("Are you sure delete this item?");
    await expect(confirm.getByTestId("file-delete-documents")).toContainText("notes.md in Harbour town");
    await page.screenshot({ path: "/tmp/files-delete.png" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(row(page, "Archive")).toHaveCount(0);

    // The same page in the dark theme.
    await page.evaluate(() => localStorage.setItem("cairn-theme", "dark"));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(row(page, "trip")).toBeVisible();
    await page.screenshot({ path: "/tmp/files-dark.png" });
  } finally {
    folder.remove();
  }
});
