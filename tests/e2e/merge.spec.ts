import { expect, test } from "@playwright/test";
import { accountWithKnowledgeBase, expectToastShown, graphql, recordToasts, signInWithToken } from "./support";

// The narrowest width the pages are made for.
test.use({ viewport: { width: 1024, height: 800 } });

const TIMETABLE = "The ferry timetable hangs beside the harbour office door.";
const MERGED = "Harbour office: it opens at eight, and the ferry timetable hangs beside its door.";

test("two chunks of a parsed document are merged from its chunk page into one new chunk, shown there with its sources", async ({ page, request }) => {
  const { token, kbId } = await accountWithKnowledgeBase(request, "merge");
  const { documents } = await graphql<{ documents: { items: { id: string; name: string }[] } }>(request, "query($kb: ID!) { documents(knowledgeBaseId: $kb) { items { id name } } }", { kb: kbId }, token);
  const handbook = documents.items.find((document) => document.name === "harbour-handbook.txt")!;
  // The parsed handbook is one chunk: a second one, added by hand, makes two to merge.
  await graphql(request, "mutation($doc: ID!, $content: String!) { addChunk(documentId: $doc, content: $content) { id } }", { doc: handbook.id, content: TIMETABLE }, token);

  await signInWithToken(page, token);
  // Without chosen chunks, the merge page says where to choose them.
  await page.goto("/search/merge");
  await expect(page.getByTestId("merge-empty")).toContainText("Tick the chunks you want to merge");
  await page.screenshot({ path: "/tmp/merge-empty.png" });
  await page.goto(`/knowledge/dataset/chunk?id=${kbId}&doc=${handbook.id}`);
  const cards = page.getByTestId("chunk-card");
  await expect(cards).toHaveCount(2);
  await recordToasts(page);
  await page.getByTestId("chunk-bulk-merge").click();
  await expectToastShown(page, "Please select chunk!");
  for (const card of await cards.all()) await card.locator('[data-scope="checkbox"][data-part="control"]').click();
  await page.getByTestId("chunk-bulk-merge").click();

  // The merge page: both chunks in the page's order with their document, their texts joined, then swapped by the arrows.
  await expect(page).toHaveURL(/\/search\/merge\?chunks=[^,]+,[^,]+$/);
  const mergeUrl = page.url();
  const sources = page.getByTestId("merge-source");
  await expect(sources).toHaveCount(2);
  await expect(sources.first().getByTestId("merge-source-document")).toHaveText("harbour-handbook.txt · Harbour town");
  const text = page.getByTestId("merge-text");
  await expect(text).toHaveValue(/^Harbour handbook\n[^]+ the fee is paid at the office\.\n\nThe ferry timetable hangs beside the harbour office door\.$/);
  await sources.last().getByTestId("merge-source-up").click();
  await expect(text).toHaveValue(/^The ferry timetable hangs beside the harbour office door\.\n\nHarbour handbook\n[^]+ the fee is paid at the office\.$/);
  await expect(page.getByTestId("merge-tokens")).toHaveText(/· \d+ tokens/);
  await text.fill(MERGED);
  await expect(page.getByTestId("merge-size")).toContainText(`${MERGED.length} characters`);
  await expect(page.getByTestId("merge-document")).toHaveValue(handbook.id);
  await page.screenshot({ path: "/tmp/merge-page.png", fullPage: true });

  await page.getByTestId("merge-save").click();
  await expect(page.getByTestId("merge-done")).toContainText("The merged chunk is in “harbour-handbook.txt”.");
  await page.getByTestId("merge-open-chunks").click();

  // The chunk page has the merged chunk, and its sources as they were, in the order merged.
  await expect(page).toHaveURL(new RegExp(`/knowledge/dataset/chunk\\?id=${kbId}&doc=${handbook.id}$`));
  await expect(cards).toHaveCount(3);
  const merged = cards.filter({ hasText: MERGED });
  await merged.getByTestId("merged-from").click();
  const shown = page.getByTestId("merged-from-source");
  await expect(shown).toHaveCount(2);
  await expect(shown.first()).toContainText(TIMETABLE);
  await expect(shown.last()).toContainText("The harbour office opens at eight");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => localStorage.setItem("cairn-theme", "dark"));
  await page.reload();
  await expect(cards).toHaveCount(3);
  await cards.filter({ hasText: MERGED }).getByTestId("merged-from").click();
  await expect(shown).toHaveCount(2);
  await page.screenshot({ path: "/tmp/merge-chunk-page-dark.png", fullPage: true });
  // The same chunks chosen again, in Chinese.
  await page.evaluate(() => localStorage.setItem("lng", "zh"));
  await page.goto(mergeUrl);
  await expect(page.getByTestId("merge-source")).toHaveCount(2);
  await page.getByTestId("merge-target").getByText("知识库中的一个新文档").click();
  await expect(page.getByTestId("merge-document-name")).toBeVisible();
  await page.screenshot({ path: "/tmp/merge-page-dark-zh.png", fullPage: true });
});
