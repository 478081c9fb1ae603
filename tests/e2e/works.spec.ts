import { expect, test } from "@playwright/test";
import { graphql, PASSWORD, signInWithToken } from "./support";

test("my space lists a knowledge base and a flow newest first, filters, remembers its layout, renames, and shows them as slides", async ({ page, request }) => {
  const email = `works-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Grace Hopper", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const { createKnowledgeBase } = await graphql<{ createKnowledgeBase: { id: string } }>(request, "mutation { createKnowledgeBase(input: { name: \"Harbour town\" }) { id } }", {}, login.token);
  await graphql(request, "mutation($kb: ID!) { createEmptyDocument(knowledgeBaseId: $kb, name: \"tides.txt\") { id } }", { kb: createKnowledgeBase.id }, login.token);
  await graphql(request, "mutation { createFlow(input: { title: \"Ferry router\" }) { id } }", {}, login.token);

  // Signed in, /my lists both, the flow (made last) first.
  await signInWithToken(page, login.token);
  await page.goto("/my");
  const items = page.getByTestId("work-item");
  await expect(items.getByTestId("work-name")).toHaveText(["Ferry router", "Harbour town"]);
  await expect(items.first()).toHaveAttribute("data-kind", "flow");
  await expect(items.nth(1).getByTestId("work-summary")).toContainText("1 document");

  // The kind filter asks the server for one kind.
  await page.getByTestId("works-filter-knowledgeBase").click();
  await expect(items.getByTestId("work-name")).toHaveText(["Harbour town"]);
  await page.getByTestId("works-filter-all").click();
  await expect(items).toHaveCount(2);

  // The list layout is remembered after a reload.
  await expect(page.getByTestId("works-list")).toHaveAttribute("data-layout", "grid");
  await page.screenshot({ path: "/tmp/works-grid.png" });
  await page.getByTestId("works-layout-list").click();
  await expect(page.getByTestId("works-list")).toHaveAttribute("data-layout", "list");
  await page.reload();
  await expect(page.getByTestId("works-list")).toHaveAttribute("data-layout", "list");
  expect(await page.evaluate(() => localStorage.getItem("SpaceisGridLayout"))).toBe("false");

  // Renaming the knowledge base is activity: it moves to the top under its new name.
  await items.filter({ hasText: "Harbour town" }).getByTestId("work-menu").click();
  await page.getByTestId("work-rename").click();
  const dialog = page.getByTestId("work-rename-dialog");
  await dialog.locator('input[name="name"]').fill("Harbour guide");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(items.getByTestId("work-name")).toHaveText(["Harbour guide", "Ferry router"]);
  await page.screenshot({ path: "/tmp/works-list.png" });

  // The slides, one work each, moved with the keyboard.
  await page.getByTestId("my-tab-slide").click();
  await expect(page).toHaveURL(/\/my\/slide$/);
  const counter = page.getByTestId("slides-counter");
  await expect(counter).toHaveText("1 / 2");
  await expect(page.getByTestId("slide-title")).toHaveText("Harbour guide");
  await expect(page.getByTestId("slide-document")).toContainText("tides.txt");
  await page.screenshot({ path: "/tmp/works-slide-knowledge.png" });
  await page.keyboard.press("ArrowRight");
  await expect(counter).toHaveText("2 / 2");
  await expect(page.getByTestId("slide")).toHaveAttribute("data-kind", "flow");
  await expect(page.getByTestId("slide-flow-graph")).not.toHaveAttribute("data-nodes", "0");
  await page.keyboard.press("Home");
  await expect(counter).toHaveText("1 / 2");
  await page.keyboard.press("End");
  await expect(counter).toHaveText("2 / 2");

  // The same slide in the dark theme.
  await page.evaluate(() => localStorage.setItem("cairn-theme", "dark"));
  await page.reload();
  await expect(counter).toHaveText("1 / 2");
  await page.keyboard.press("End");
  await expect(counter).toHaveText("2 / 2");
  await expect(page.getByTestId("slide")).toHaveAttribute("data-kind", "flow");
  await page.screenshot({ path: "/tmp/works-slide-flow-dark.png" });
});
