import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { addSlowChatModel, SLOW_WORDS, startSlowModel, type SlowModel } from "./slow-model";
import { accountWithKnowledgeBase, expectToastShown, graphql, PASSWORD, recordToasts, signInWithToken } from "./support";

/** An account of its own with a blank flow (Begin, then an Interact), made over GraphQL; the list journey makes them through the page. */
async function accountWithBlankFlow(request: APIRequestContext, prefix: string): Promise<{ email: string; token: string; flowId: string }> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Ada Lovelace", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const { createFlow } = await graphql<{ createFlow: { id: string } }>(request, "mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }", { input: { title: "Harbour helper" } }, login.token);
  return { email, token: login.token, flowId: createFlow.id };
}

const node = (page: Page, name: string) => page.locator(`[data-testid="flow-node"][data-name="${name}"]`);

/**
 * Opens a node's form by clicking it. An open panel is closed first (it covers the right of the canvas, where the node
 * may be), and on a loaded machine React Flow can take a click for the start of a drag and ignore it, so the click
 * is repeated until the panel shows that node.
 */
async function openNode(page: Page, target: Locator): Promise<void> {
  const id = await target.getAttribute("data-node");
  await expect(async () => {
    const close = page.getByTestId("flow-node-panel-close");
    if (await close.isVisible()) await close.click();
    await target.click({ timeout: 5_000 });
    await expect(page.getByTestId("flow-node-panel")).toHaveAttribute("data-node", id!, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Waits until everything edited so far is saved (the header says "Autosaved at …"). */
async function saved(page: Page): Promise<void> {
  await expect(page.getByTestId("flow-save-state")).toHaveAttribute("data-state", "saved", { timeout: 30_000 });
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
  const { token, flowId } = await accountWithBlankFlow(request, "flow-editor");
  await signInWithToken(page, token);
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
  await openNode(page, node(page, "Message"));
  await page.getByTestId("flow-node-panel-close").click();
  await page.keyboard.press("ControlOrMeta+c");
  await page.keyboard.press("ControlOrMeta+v");
  await expect(node(page, "Message 2")).toBeVisible();
  // The copy is the one selected: Delete removes it (after a click on it, so that the canvas has the keyboard).
  await openNode(page, node(page, "Message 2"));
  await page.getByTestId("flow-node-panel-close").click();
  await page.keyboard.press("Delete");
  await expect(node(page, "Message 2")).toHaveCount(0);

  // A note is text on the canvas.
  await page.locator('[data-testid="flow-palette-item"][data-component="Note"]').click();
  await page.getByTestId("flow-note-text").fill("Ask the harbour master about the fees");
  await saved(page);

  // Autosave: all of it is there after a reload.
  await page.reload();
  await expect(page.getByTestId("flow-node")).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId("flow-note-text")).toHaveValue("Ask the harbour master about the fees");
  await expect.poll(() => edgeCount(page)).toBe(before + 1);

  // Another tab saves first: this tab's next save is refused and says so; keeping mine saves over theirs.
  const other = await browser.newPage();
  await signInWithToken(other, token);
  await other.goto(`/flow/${flowId}`);
  await expect(other.getByTestId("flow-node")).toHaveCount(3, { timeout: 30_000 });
  await other.getByTestId("flow-title").fill("Harbour helper (other tab)");
  await saved(other);
  await page.getByTestId("flow-title").fill("Harbour helper (this tab)");
  await expect(page.getByTestId("flow-conflict")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("flow-save-state")).toHaveAttribute("data-state", "conflict");
  await page.getByTestId("flow-conflict-mine").click();
  await saved(page);
  await other.reload();
  await expect(other.getByTestId("flow-title")).toHaveValue("Harbour helper (this tab)", { timeout: 30_000 });
  await other.close();
});

/** Local model servers a test started, closed once it ends however it ends. */
const closeAfterTest: SlowModel[] = [];
test.afterEach(async () => {
  await Promise.all(closeAfterTest.splice(0).map((model) => model.close()));
});

/** Records, from inside the page, every run state the canvas's nodes showed (by node name). */
async function watchNodeStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { nodeStatesSeen: typeof seen }).nodeStatesSeen = seen;
    const look = () => {
      for (const element of document.querySelectorAll<HTMLElement>('[data-testid="flow-node"][data-run-status]')) {
        const name = element.dataset.name ?? "";
        const status = element.dataset.runStatus ?? "";
        const list = (seen[name] ??= []);
        if (list.at(-1) !== status) list.push(status);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-run-status"], childList: true });
  });
}

const nodeStatesSeen = (page: Page) => page.evaluate(() => (window as unknown as { nodeStatesSeen: Record<string, string[]> }).nodeStatesSeen);

/** Asks the flow a question in the run panel: the first turn starts with it, later ones reply to the waiting Interact. */
async function ask(page: Page, question: string): Promise<void> {
  await page.getByTestId("run-composer").fill(question);
  await page.getByTestId("run-send").click();
  await expect(page.locator('[data-testid="run-message"][data-role="user"]').last()).toContainText(question);
}

test("a flow from blank over a parsed knowledge base: a missing name is marked and fixed, the run shows each node's state live and a cited answer, and a reload mid-run finds the run and sees it finish", async ({ page, request }) => {
  const model = await startSlowModel();
  closeAfterTest.push(model);
  const { token } = await accountWithKnowledgeBase(request, "flow-run");
  const slowModel = await addSlowChatModel(request, token, model.baseUrl);

  // From the list: a blank flow.
  await signInWithToken(page, token);
  await page.goto("/flow");
  await page.getByTestId("flow-empty-create").click();
  const dialog = page.getByTestId("flow-create-dialog");
  await dialog.getByTestId("flow-template-blank").click();
  await dialog.getByTestId("flow-create-title").fill("Harbour answers");
  await dialog.getByTestId("flow-create-submit").click();
  await expect(page).toHaveURL(/\/flow\/[0-9a-f]{32}$/);
  await expect(page.getByTestId("flow-node")).toHaveCount(2, { timeout: 30_000 });

  // Begin → Retrieval → Generate → Interact.
  await page.locator('[data-testid="flow-palette-item"][data-component="Retrieval"]').click();
  await expect(page.getByTestId("flow-node-panel")).toHaveAttribute("data-component", "Retrieval");
  await page.locator('[data-testid="flow-palette-item"][data-component="Generate"]').click();
  await expect(page.getByTestId("flow-node-panel")).toHaveAttribute("data-component", "Generate");
  await page.getByTestId("flow-node-panel-close").click();
  await page.getByTestId("flow-edge-delete").first().click({ force: true });
  await expect.poll(() => edgeCount(page)).toBe(0);
  await connect(page, node(page, "Begin"), node(page, "Retrieval"));
  await connect(page, node(page, "Retrieval"), node(page, "Generate"));
  await connect(page, node(page, "Generate"), node(page, "Interact"));
  await expect.poll(() => edgeCount(page)).toBe(3);

  // A component without a name (§5) is marked on the canvas and at its field, and the flow may not run until it has one.
  await openNode(page, node(page, "Generate"));
  await page.getByTestId("flow-form-name").fill("");
  const unnamed = page.locator('[data-testid="flow-node"][data-component="Generate"]');
  await expect(unnamed).toHaveAttribute("data-invalid", "");
  await expect(page.getByTestId("flow-node-panel")).toContainText(/name/i);
  await page.getByTestId("flow-run").click();
  await expect(page.getByTestId("run-blocked")).toBeVisible();
  await openNode(page, unnamed);
  await page.getByTestId("flow-form-name").fill("Writer");
  await expect(node(page, "Writer")).not.toHaveAttribute("data-invalid", "");

  // The Retrieval reads the knowledge base "Harbour town".
  await openNode(page, node(page, "Retrieval"));
  await page.getByTestId("flow-form-kb_ids-option").filter({ hasText: "Harbour town" }).click();
  await expect(page.locator('[data-testid="flow-node"][data-invalid]')).toHaveCount(0);
  await expect(node(page, "Retrieval").getByTestId("flow-node-summary")).toContainText("1");
  await saved(page);

  // The run: each node's state shows on the canvas as it goes, and the answer cites the handbook.
  await watchNodeStates(page);
  await page.getByTestId("flow-run").click();
  await expect(page.getByTestId("run-blocked")).toHaveCount(0);
  await ask(page, "Who rings the bell at the lighthouse?");
  const answer = page.locator('[data-testid="run-message"][data-role="assistant"]').last();
  await expect(answer).toContainText("bell", { timeout: 30_000 });
  await expect(answer.getByTestId("citation").first()).toBeVisible();
  // The turn ends at the Interact, the last component: the flow has said all it has to say.
  await expect(page.getByTestId("run-panel")).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  await expect(node(page, "Writer")).toHaveAttribute("data-run-status", "done");
  const states = await nodeStatesSeen(page);
  expect(states.Retrieval).toEqual(expect.arrayContaining(["done"]));
  // Live: the canvas showed the Writer before it was done (the built-in model is too quick to catch it running; the slow one below is caught).
  expect(states.Writer.at(-1)).toBe("done");
  expect(states.Writer.length).toBeGreaterThan(1);
  await page.screenshot({ path: "/tmp/flow-run-done.png" });

  // A slow model writes the next answer; the page is reloaded in the middle of it and follows the run to its end.
  await openNode(page, node(page, "Writer"));
  await page.getByTestId("flow-form-llm_id").selectOption(slowModel);
  await saved(page);
  await page.getByTestId("flow-run").click();
  await page.getByTestId("run-new").click();
  // The model holds its answer after three words until the page has reloaded.
  model.pause(3);
  await ask(page, "When does the harbour office open?");
  const slow = page.locator('[data-testid="run-message"][data-role="assistant"]').last();
  await expect(slow).toContainText("word3", { timeout: 30_000 });
  await expect(node(page, "Writer")).toHaveAttribute("data-run-status", "running");
  await page.screenshot({ path: "/tmp/flow-run-live.png" });
  await page.reload();
  await expect(page.getByTestId("run-panel")).toBeVisible({ timeout: 30_000 });
  await expect(node(page, "Writer")).toHaveAttribute("data-run-status", "running");
  const resumed = page.locator('[data-testid="run-message"][data-role="assistant"]').last();
  await expect(resumed).toContainText("word3");
  model.resume();
  await expect(resumed).toContainText(SLOW_WORDS.at(-1)!, { timeout: 30_000 });
  await expect(page.getByTestId("run-panel")).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  await expect(node(page, "Writer")).toHaveAttribute("data-run-status", "done");
});

test("a template's nodes open in the editor, and RAGFlow's own Interpreter template imports and runs on its Begin inputs, a file among them", async ({ page, request }) => {
  const { token } = await accountWithBlankFlow(request, "flow-import");
  await signInWithToken(page, token);
  await page.goto("/flow");
  await expect(page.getByTestId("flow-card")).toHaveCount(1, { timeout: 30_000 });

  // From the gallery: the template's components are on the canvas.
  await page.getByTestId("flow-create").click();
  const dialog = page.getByTestId("flow-create-dialog");
  await dialog.getByTestId("flow-template-knowledge-base-qa").click();
  await dialog.getByTestId("flow-create-submit").click();
  await expect(page.locator('[data-testid="flow-node"][data-component="Retrieval"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('[data-testid="flow-node"][data-component="Generate"]')).toHaveCount(1);

  // RAGFlow v0.14's Interpreter, imported from its file as RAGFlow ships it.
  await page.goto("/flow");
  await page.getByTestId("flow-import-input").setInputFiles(path.join(__dirname, "../../server/src/flows/testing/ragflow-v0.14/templates-interpreter.json"));
  await page.getByTestId("flow-import-dialog").getByTestId("flow-import-open").click();
  await expect(page).toHaveURL(/\/flow\/[0-9a-f]{32}$/);
  await expect(page.locator('[data-testid="flow-node"][data-component="Generate"]').first()).toBeVisible({ timeout: 45_000 });
  await expect(page.locator('[data-testid="flow-node"][data-invalid]')).toHaveCount(0);

  // Its Begin asks for a language and a file; the file's text is what gets translated.
  await page.getByTestId("flow-run").click();
  await page.getByTestId("run-input-lang").fill("French");
  await page.getByTestId("run-input-file").setInputFiles({ name: "notice.txt", mimeType: "text/plain", buffer: Buffer.from("The harbour office opens at eight in the morning.") });
  await expect(page.getByTestId("run-input-file-chosen")).toContainText("notice.txt");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-panel")).toHaveAttribute("data-status", /waiting|finished/, { timeout: 30_000 });
  await expect(page.locator('[data-testid="run-message"][data-role="assistant"]').last()).not.toBeEmpty();
  await expect(page.getByTestId("run-error")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/flow-import-run.png" });
});
