import { expect, test } from "@playwright/test";
import { accountWithKnowledgeBase, signInWithToken } from "./support";

const QUESTION = "Who rings the bell at the lighthouse?";

test("a user searches a parsed knowledge base: highlighted chunks with a document filter, a streamed cited summary, its mind map, related questions, merging, and a search reopened from the history", async ({ page, request }) => {
  const { token } = await accountWithKnowledgeBase(request, "search");
  // The page is made for 1024 px and wider.
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInWithToken(page, token);
  await page.goto("/search");
  await expect(page.getByTestId("search-landing")).toBeVisible();

  // The knowledge bases to search in are chosen once and remembered.
  await expect(page.getByTestId("search-submit")).toBeDisabled();
  await page.getByTestId("search-kb-button").click();
  await page.getByTestId("search-kb-option").filter({ hasText: "Harbour town" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("search-kb-button")).toHaveText(/Harbour town/);
  await page.getByTestId("search-input").fill(QUESTION);
  await page.getByTestId("search-input").press("Enter");

  // The matching chunks, with the question's words marked, and the documents to filter by with their counts.
  const hits = page.getByTestId("search-hit");
  await expect(hits).toHaveCount(2);
  await expect(hits.first().getByTestId("search-hit-document")).toHaveText("harbour-handbook.txt");
  await expect(hits.first().getByTestId("search-hit-text").locator("em")).toHaveText(["lighthouse", "rings", "bell"]);
  await expect(page.getByTestId("search-total")).toHaveText(/^2 matching chunks · \d+ ms$/);
  const documentOptions = page.getByTestId("search-document-filter-option");
  await expect(documentOptions).toHaveText(["All documents", "garden-notes.txt1", "harbour-handbook.txt1"]);
  await documentOptions.filter({ hasText: "garden-notes.txt" }).click();
  await expect(hits).toHaveCount(1);
  await expect(hits.first().getByTestId("search-hit-document")).toHaveText("garden-notes.txt");
  await documentOptions.filter({ hasText: "All documents" }).click();
  await expect(hits).toHaveCount(2);

  // The summary streams above them, citing the handbook; a citation opens the chunk it cites.
  const answer = page.getByTestId("search-answer");
  await expect(answer).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(answer.getByTestId("search-answer-content")).toContainText("lighthouse keeper rings the bell");
  await answer.getByTestId("citation").first().click();
  await expect(page.getByTestId("citation-chunk")).toContainText("lighthouse keeper rings the bell");
  await page.keyboard.press("Escape");
  await expect(answer.getByTestId("answer-reference").first()).toContainText("harbour-handbook.txt");
  await page.screenshot({ path: "/tmp/search-results.png", fullPage: true });

  // The mind map: built from the retrieved chunks by the built-in model, and labelled so.
  await page.getByTestId("search-tab-mind-map").click();
  const mindMap = page.getByTestId("search-mind-map");
  await expect(mindMap).toHaveAttribute("data-source", "extractive");
  await expect(mindMap.getByTestId("search-mind-map-source")).toContainText("Built from the retrieved chunks");
  await expect(mindMap.locator("svg text").filter({ hasText: "harbour-handbook.txt" })).toHaveCount(1);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "/tmp/search-mind-map-dark.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // Ticked chunks go to the merge page in the order they were ticked.
  await expect(page.getByTestId("search-merge")).toBeDisabled();
  const second = await hits.nth(1).getAttribute("data-chunk");
  const first = await hits.first().getAttribute("data-chunk");
  await hits.nth(1).getByTestId("search-hit-tick").click();
  await hits.first().getByTestId("search-hit-tick").click();
  await page.getByTestId("search-merge").click();
  await expect(page).toHaveURL(`/search/merge?chunks=${second},${first}`);
  await page.goBack();

  // A related question searches again in the same knowledge bases.
  const related = page.getByTestId("search-related-question");
  await expect(related.first()).toBeVisible();
  const relatedQuestion = (await related.first().textContent()) ?? "";
  const firstSearch = new URL(page.url()).searchParams.get("record");
  expect(firstSearch).toBeTruthy();
  await related.first().click();
  await expect(page.getByTestId("search-input")).toHaveValue(relatedQuestion);
  await expect(page).not.toHaveURL(new RegExp(`record=${firstSearch}`));
  await expect(page).toHaveURL(/record=/);

  // The history reopens the first search as it was kept.
  await page.getByTestId("search-history-button").click();
  const items = page.getByTestId("search-history-item");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(relatedQuestion);
  await page.screenshot({ path: "/tmp/search-history.png" });
  await items.filter({ hasText: QUESTION }).getByTestId("search-history-open").click();
  await expect(page).toHaveURL(new RegExp(`record=${firstSearch}`));
  await expect(page.getByTestId("search-input")).toHaveValue(QUESTION);
  await expect(answer).toHaveAttribute("data-status", "done");
  await expect(answer.getByTestId("search-answer-content")).toContainText("lighthouse keeper rings the bell");
  await expect(hits).toHaveCount(2);

  // In Chinese.
  await page.goto(`/search?record=${firstSearch}&lng=zh`);
  await expect(page.getByTestId("search-tab-summary")).toHaveText("总结");
  await expect(answer).toHaveAttribute("data-status", "done");
  await page.screenshot({ path: "/tmp/search-zh.png", fullPage: true });
});
