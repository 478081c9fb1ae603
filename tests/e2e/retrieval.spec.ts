import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { accountWithKnowledgeBase, signInWithToken } from "./support";

const QUESTION = "Who rings the bell at the lighthouse?";

test("a user tests retrieval: the right document first with its three similarities and the question's words marked, a document filter and the stage timings", async ({ page, request }) => {
  const { token, kbId } = await accountWithKnowledgeBase(request, "retrieval");
  await signInWithToken(page, token);
  await page.goto(`/knowledge/dataset?id=${kbId}`);
  await page.getByTestId("kb-nav-testing").click();
  await expect(page).toHaveURL(/\/knowledge\/testing\?id=/);
  await expect(page.getByTestId("retrieval-idle")).toBeVisible();

  // The knowledge base's own defaults fill the form; keyword weight is the complement of the vector weight.
  await expect(page.getByTestId("retrieval-threshold-value")).toHaveText("0.20");
  await expect(page.getByTestId("retrieval-keyword-weight-value")).toHaveText("0.70");
  await expect(page.getByText("Vector similarity weight: 0.30")).toBeVisible();

  // The test text is required.
  await page.getByTestId("retrieval-run").click();
  await expect(page.getByText("Please input the test text.")).toBeVisible();

  await page.getByTestId("retrieval-question").fill(QUESTION);
  await page.getByTestId("retrieval-question").press("Control+Enter");
  const hits = page.getByTestId("retrieval-hit");
  await expect(page.getByTestId("retrieval-total")).toHaveText("2 chunks retrieved");
  await expect(hits).toHaveCount(2);

  const first = hits.first();
  await expect(first.getByTestId("hit-document")).toHaveText("harbour-handbook.txt");
  await expect(first.getByTestId("hit-document")).toHaveAttribute("href", /^\/document\/[^/?]+\?chunk=[0-9a-f]+$/);
  await expect(first.getByTestId("hit-text").locator("em").first()).toBeVisible();
  await expect(first.getByTestId("hit-text").locator("em")).toHaveText(["lighthouse", "rings", "bell"]);
  await expect(hits.nth(1).getByTestId("hit-document")).toHaveText("garden-notes.txt");
  const similarities = first.getByTestId("hit-similarity");
  await expect(similarities.locator("p").filter({ hasText: /similarity$/ })).toHaveText(["Hybrid similarity", "Term similarity", "Vector similarity"]);
  for (const value of await similarities.getByTestId("hit-similarity-value").allTextContents()) expect(value).toMatch(/^[01]\.\d\d$/);
  const hybrid = (await first.getByTestId("hit-similarity").first().getAttribute("data-value")) ?? "";
  const secondHybrid = (await hits.nth(1).getByTestId("hit-similarity").first().getAttribute("data-value")) ?? "";
  expect(Number(hybrid)).toBeGreaterThan(Number(secondHybrid));

  // The time each stage took.
  await expect(page.getByTestId("retrieval-timings")).toHaveText(/^Keyword [\d.,]+ ms ·Vector [\d.,]+ ms ·No rerank ·Total [\d.,]+ ms$/);
  await page.screenshot({ path: "/tmp/retrieval-testing.png", fullPage: true });

  // The filter lists both documents with their hit counts.
  const options = page.getByTestId("retrieval-document-option");
  await expect(options).toHaveText(["garden-notes.txt1", "harbour-handbook.txt1"].sort());
});

async function askAbout(page: Page, request: APIRequestContext): Promise<void> {
  const { token, kbId } = await accountWithKnowledgeBase(request, "retrieval");
  await signInWithToken(page, token);
  await page.goto(`/knowledge/testing?id=${kbId}`);
  await page.getByTestId("retrieval-question").fill(QUESTION);
  await page.getByTestId("retrieval-run").click();
  await expect(page.getByTestId("retrieval-hit")).toHaveCount(2);
}

test("ticking a document in the filter re-runs the test over that document only, and Show all brings the others back", async ({ page, request }) => {
  await askAbout(page, request);
  const hits = page.getByTestId("retrieval-hit");
  const options = page.getByTestId("retrieval-document-option");
  const retrieves: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().endsWith("/graphql") && sent.postData()?.includes('"operationName":"Retrieve"')) retrieves.push(sent.postData() ?? "");
  });
  await options.filter({ hasText: "harbour-handbook.txt" }).click();
  await expect.poll(() => retrieves.at(-1) ?? "").toContain('"documentIds":[');
  // The filter still offers both documents while one is chosen.
  await expect(options).toHaveCount(2);
  await expect(hits).toHaveCount(1, { timeout: 5_000 });
  await expect(hits.first().getByTestId("hit-document")).toHaveText("harbour-handbook.txt");
  await expect(page.getByTestId("retrieval-total")).toHaveText("1 chunk retrieved");
  await page.getByTestId("retrieval-documents-clear").click();
  await expect(hits).toHaveCount(2);
});

test("a question in Simplified Chinese finds a passage written in Traditional script, its words marked as written", async ({ page, request }) => {
  const { token, kbId } = await accountWithKnowledgeBase(request, "retrieval-zh", [
    ["taiwan-rail.txt", "臺灣高速鐵路連接臺北與高雄，全長約三百五十公里。"],
    ["garden.txt", "花园里的玫瑰在春天开花，园丁每天早上浇水。"],
  ]);
  await signInWithToken(page, token);
  await page.goto(`/knowledge/testing?id=${kbId}`);
  await page.getByTestId("retrieval-question").fill("台湾高速铁路连接哪里？");
  await page.getByTestId("retrieval-run").click();
  const first = page.getByTestId("retrieval-hit").first();
  await expect(first.getByTestId("hit-document")).toHaveText("taiwan-rail.txt");
  await expect(first.getByTestId("hit-text").locator("em")).toHaveText(["臺灣", "高速鐵路", "連接"]);
  await page.screenshot({ path: "/tmp/retrieval-testing-chinese.png", fullPage: true });
});
