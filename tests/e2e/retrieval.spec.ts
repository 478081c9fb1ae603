import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

const PASSWORD = "correct-horse-battery";

const HANDBOOK = `Harbour handbook

The harbour office opens at eight in the morning. At dusk the lighthouse keeper rings the bell twice and lights the lamp.

Visiting boats moor on the eastern pier; the fee is paid at the office.
`;

const GARDEN = `Garden notes

Tomatoes want full sun and a deep watering twice a week. From the top of the garden you can hear the lighthouse bell across the bay.
`;

const QUESTION = "Who rings the bell at the lighthouse?";

async function graphql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const response = await request.post("/graphql", { data: { query, variables }, headers: token ? { Authorization: token } : {} });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** An account with a knowledge base holding the two parsed text files; the knowledge journey covers uploading through the page. */
async function knowledgeBaseWithTwoFiles(request: APIRequestContext): Promise<{ email: string; kbId: string }> {
  const email = `retrieval-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { id } }", { input: { email, nickname: "Grace Hopper", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const token = login.token;
  const { createKnowledgeBase } = await graphql<{ createKnowledgeBase: { id: string } }>(
    request,
    "mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }",
    { input: { name: "Harbour town" } },
    token,
  );
  const kbId = createKnowledgeBase.id;
  const ids: string[] = [];
  for (const [name, text] of [["harbour-handbook.txt", HANDBOOK], ["garden-notes.txt", GARDEN]]) {
    const response = await request.post("/v1/document/upload", {
      headers: { Authorization: token },
      multipart: { kb_id: kbId, file: { name, mimeType: "text/plain", buffer: Buffer.from(text) } },
    });
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { data: { id: string }[] };
    ids.push(...body.data.map((document) => document.id));
  }
  expect(ids).toHaveLength(2);
  await graphql(request, "mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }", { ids }, token);
  await expect
    .poll(async () => {
      const { documents } = await graphql<{ documents: { items: { run: string }[] } }>(
        request,
        "query($kb: ID!) { documents(knowledgeBaseId: $kb) { items { run } } }",
        { kb: kbId },
        token,
      );
      return documents.items.map((document) => document.run);
    }, { timeout: 20_000 })
    .toEqual(["3", "3"]);
  return { email, kbId };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  const form = page.getByTestId("sign-in-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/my$/);
}

test("a user tests retrieval: the right document first with its three similarities and the question's words marked, a document filter and the stage timings", async ({ page, request }) => {
  const { email, kbId } = await knowledgeBaseWithTwoFiles(request);
  await signIn(page, email);
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
  const { email, kbId } = await knowledgeBaseWithTwoFiles(request);
  await signIn(page, email);
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
