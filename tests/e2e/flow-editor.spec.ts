import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { graphql, PASSWORD, recordToasts, expectToastShown, signIn } from "./support";

/** An account of its own with a blank flow (Begin, then an Interact), made over GraphQL; the list journey makes them through the page. */
async function accountWithBlankFlow(request: APIRequestContext, prefix: string): Promise<{ email: string; token: string; flowId: string }> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Ada Lovelace", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const { createFlow } = await graphql<{ createFlow: { id: string } }>(request, "mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }", { input: { title: "Harbour helper" } }, login.token);
  return { email, token: login.token, flowId: createFlow.id };
}

const node = (page: Page, name: string) => page.locator(`[data-testid="flow-node"][data-name="${name}"]`);

/** Waits until everything edited so far is saved (the header says "Autosaved at …"). */
async function saved(page: Page): Promise<void> {
  await expect(page.getByTestId("flow-save-state")).toHaveAttribute("data-state", "saved", { timeout: 15_000 });
}

/** Draws an edge by dragging from a node's outgoing handle (or a routing port's) to another node's incoming one. */
async function connect(page: Page, from: Locator, to: Locator): Promise<void> {
  const source = from.locator(".react-flow__handle.source").first();
  const target = to.locator(".react-flow__handle.target");
  const start = (await source.boundingBox())!;
  const end = (await target.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
  await page.mouse.up();
}

const edgeCount = (page: Page) => page.locator(".react-flow__edge").count();

test("the editor: components from the palette, edges by the registry's rules, undo and redo, copy and paste, a note, and autosave that survives a reload and never overwrites another tab", async ({ page, request, browser }) => {
  const { email, flowId } = await accountWithBlankFlow(request, "flow-editor");
  await signIn(page, email);
  await page.goto(`/flow/${flowId}`);
  // The editor's code loads on first use: on a loaded machine that takes a while.
  await expect(page.getByTestId("flow-node")).toHaveCount(2, { timeout: 30_000 });
  await expect(node(page, "Begin")).toBeVisible();
  await expect(page.getByTestId("flow-save-state")).toContainText("Autosaved at");
  await recordToasts(page);

  // The palette: grouped, searchable, saying what needs an outside service; a click adds a component.
  await page.getByTestId("flow-palette-search").fill("wiki");
  await expect(page.getByTestId("flow-palette-item")).toHaveCount(1);
  await expect(page.getByTestId("flow-palette-item").first().getByTestId("flow-palette-need")).toHaveCount(1);
  await page.getByTestId("flow-palette-search").fill("");
  await expect(page.locator('[data-testid="flow-palette-item"][data-component="Begin"]')).toHaveCount(0);
  await page.locator('[data-testid="flow-palette-item"][data-component="Message"]').click();
  await expect(page.getByTestId("flow-node")).toHaveCount(3);
  await expect(page.getByTestId("flow-node-panel")).toHaveAttribute("data-component", "Message");
  // A Message with no message is marked on the canvas (§5) until it has one.
  await expect(node(page, "Message")).toHaveAttribute("data-invalid", "");
  await page.getByTestId("flow-node-panel-close").click();

  // Edges follow the registry's rules (RAGFlow's): an Interact may not lead to a Message, and the editor says why;
  // a Message may follow Begin.
  const before = await edgeCount(page);
  await connect(page, node(page, "Interact"), node(page, "Message"));
  await expectToastShown(page, "This component cannot lead to that one.");
  expect(await edgeCount(page)).toBe(before);
  await connect(page, node(page, "Begin"), node(page, "Message"));
  await expect.poll(() => edgeCount(page)).toBe(before + 1);
  await saved(page);

  // Undo takes the edge back, then the Message; redo puts them back.
  await page.getByTestId("flow-undo").click();
  await expect.poll(() => edgeCount(page)).toBe(before);
  await page.getByTestId("flow-undo").click();
  await expect(page.getByTestId("flow-node")).toHaveCount(2);
  await page.getByTestId("flow-redo").click();
  await page.getByTestId("flow-redo").click();
  await expect(page.getByTestId("flow-node")).toHaveCount(3);
  await expect.poll(() => edgeCount(page)).toBe(before + 1);

  // Copy and paste: a second Message with a name of its own; Delete removes it again.
  await node(page, "Message").click();
  await page.getByTestId("flow-node-panel-close").click();
  await page.keyboard.press("ControlOrMeta+c");
  await page.keyboard.press("ControlOrMeta+v");
  await expect(node(page, "Message 2")).toBeVisible();
  await page.keyboard.press("Delete");
  await expect(node(page, "Message 2")).toHaveCount(0);

  // A note is text on the canvas.
  await page.locator('[data-testid="flow-palette-item"][data-component="Note"]').click();
  await page.getByTestId("flow-note-text").fill("Ask the harbour master about the fees");
  await saved(page);

  // Autosave: all of it is there after a reload.
  await page.reload();
  await expect(page.getByTestId("flow-node")).toHaveCount(3);
  await expect(page.getByTestId("flow-note-text")).toHaveValue("Ask the harbour master about the fees");
  await expect.poll(() => edgeCount(page)).toBe(before + 1);

  // Another tab saves first: this tab's next save is refused and says so; keeping mine saves over theirs.
  const other = await browser.newPage();
  await signIn(other, email);
  await other.goto(`/flow/${flowId}`);
  await expect(other.getByTestId("flow-node")).toHaveCount(3);
  await other.getByTestId("flow-title").fill("Harbour helper (other tab)");
  await saved(other);
  await page.getByTestId("flow-title").fill("Harbour helper (this tab)");
  await expect(page.getByTestId("flow-conflict")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("flow-save-state")).toHaveAttribute("data-state", "conflict");
  await page.getByTestId("flow-conflict-mine").click();
  await saved(page);
  await other.reload();
  await expect(other.getByTestId("flow-title")).toHaveValue("Harbour helper (this tab)");
  await other.close();
});
