import { expect, test, type APIRequestContext } from "@playwright/test";
import { graphql, PASSWORD, POLL_INTERVALS } from "./support";
import { CONTACT_ENV } from "./contact-env";

/** Sentences with proper names, from which the built-in extractor makes a small graph in a few seconds. */
const KEEPERS_LOG = `Keepers' log

Anna Berg keeps the lighthouse at Cape Morrow. Every spring Anna Berg writes to the Northern Works Agency in Tromso.

The ferry to Cape Morrow is repaired by the Northern Works Agency. Jonas Lind sails the ferry from Tromso.
`;

/** A new account with a knowledge base whose one document is parsed and whose knowledge graph is built. */
async function accountWithGraph(request: APIRequestContext): Promise<{ email: string; kbId: string }> {
  const email = `force-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Grace Hopper", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const token = login.token;
  const { createKnowledgeBase } = await graphql<{ createKnowledgeBase: { id: string } }>(request, "mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }", { input: { name: "Keepers" } }, token);
  const kbId = createKnowledgeBase.id;
  const uploaded = await request.post("/v1/document/upload", {
    headers: { Authorization: token },
    multipart: { kb_id: kbId, file: { name: "keepers-log.txt", mimeType: "text/plain", buffer: Buffer.from(KEEPERS_LOG) } },
  });
  const [{ id }] = ((await uploaded.json()) as { data: { id: string }[] }).data;
  await graphql(request, "mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }", { ids: [id] }, token);
  await expect
    .poll(async () => (await graphql<{ document: { run: string } }>(request, "query($id: ID!) { document(id: $id) { run } }", { id }, token)).document.run, { timeout: 60_000, intervals: POLL_INTERVALS })
    .toBe("3");
  await graphql(request, "mutation($kb: ID!) { startKnowledgeBaseTask(knowledgeBaseId: $kb, kind: GRAPHRAG) { id } }", { kb: kbId }, token);
  await expect
    .poll(async () => (await graphql<{ knowledgeBaseTasks: { status: string }[] }>(request, "query($kb: ID!) { knowledgeBaseTasks(knowledgeBaseId: $kb) { status } }", { kb: kbId }, token)).knowledgeBaseTasks[0]?.status, { timeout: 60_000, intervals: POLL_INTERVALS })
    .toBe("DONE");
  return { email, kbId };
}

test("a visitor signs in from /force, finds an entity, focuses it and opens a chunk that mentions it; Contact us shows the operator", async ({ page, request }) => {
  const { email, kbId } = await accountWithGraph(request);

  // Outside the sign-in guard: a visitor reads what the explorer is and comes back to it after signing in.
  await page.goto("/force");
  await expect(page.getByTestId("force-visitor")).toBeVisible();
  await page.screenshot({ path: "/tmp/force-contact-visitor.png" });
  await page.getByTestId("force-sign-in").click();
  const form = page.getByTestId("sign-in-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/force$/);

  // The knowledge base with a graph is chosen, its entities drawn with their sizes said.
  await expect(page.getByTestId("force-knowledge-base").filter({ hasText: "Keepers" })).toBeVisible();
  await expect(page.locator('[data-testid="graph-node"][data-name="Anna Berg"]')).toHaveCount(1);
  await expect(page.getByTestId("force-shown")).toContainText(/Showing \d+ of \d+ entities/);
  await expect(page.getByTestId("graph-legend")).toContainText("person");

  // Search, then focus: the entity is ringed in the drawing and its panel tells what the graph knows of it.
  await page.getByTestId("force-search").fill("anna");
  const result = page.getByTestId("force-search-result").filter({ hasText: "Anna Berg" });
  await expect(result).toBeVisible();
  await result.click();
  await expect(page).toHaveURL(new RegExp(`entity=${kbId}%3AAnna\\+Berg`));
  const panel = page.getByTestId("force-entity-panel");
  await expect(panel.getByTestId("force-entity-name")).toHaveText("Anna Berg");
  await expect(page.locator('[data-testid="graph-node"][data-selected="true"]')).toHaveAttribute("data-name", "Anna Berg");
  await expect(panel.getByTestId("force-relation").filter({ hasText: "Northern Works Agency" })).toBeVisible();
  const chunk = panel.getByTestId("force-chunk").first();
  await expect(chunk).toContainText("Anna Berg");
  await page.screenshot({ path: "/tmp/force-contact-focus.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "/tmp/force-contact-focus-dark.png" });
  await page.emulateMedia({ colorScheme: "light" });

  // The chunk opens in its document's chunk page, searched for the entity.
  await chunk.getByTestId("force-chunk-open").click();
  await expect(page).toHaveURL(/\/knowledge\/dataset\/chunk\?id=.*&search=Anna\+Berg$/);
  await expect(page.getByTestId("chunk-card").first()).toContainText("Anna Berg");
  // The chunk page's graph tab draws with the same canvas, and leads back to the explorer.
  await page.getByTestId("tab-graph").click();
  await expect(page.locator('[data-testid="knowledge-graph"] [data-testid="graph-node"][data-name="Anna Berg"]')).toHaveCount(1);
  await page.screenshot({ path: "/tmp/force-contact-chunk-graph.png" });
  await expect(page.getByTestId("graph-open-explorer")).toHaveAttribute("href", `/force?kb=${kbId}`);

  // Contact us, from the account menu: the operator as the configuration names them.
  await page.getByTestId("user-menu").click();
  await page.getByTestId("menu-contact").click();
  await expect(page).toHaveURL(/\/user-setting\/contact$/);
  await expect(page.getByTestId("contact-name")).toHaveText(CONTACT_ENV.CONTACT_NAME);
  await expect(page.getByTestId("contact-email")).toHaveAttribute("href", `mailto:${CONTACT_ENV.CONTACT_EMAIL}`);
  await expect(page.getByTestId("contact-url")).toHaveAttribute("href", CONTACT_ENV.CONTACT_URL);
  await expect(page.getByTestId("contact-message")).toHaveText(CONTACT_ENV.CONTACT_MESSAGE);
  // Settings → Team is the team page.
  await page.getByTestId("settings-nav-team").click();
  await expect(page).toHaveURL(/\/team$/);

  // In Chinese, the explorer and the contact page speak it.
  await page.getByTestId("language-menu").click();
  await page.getByTestId("language-zh").click();
  await page.goto(`/force?kb=${kbId}`);
  await expect(page.getByTestId("force-shown")).toContainText("显示");
  await page.screenshot({ path: "/tmp/force-contact-zh.png" });
  await page.goto("/user-setting/contact");
  await expect(page.getByTestId("contact-details")).toContainText("运营方");
  await page.screenshot({ path: "/tmp/force-contact-contact-zh.png", fullPage: true });
});
