import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import PDFDocument from "pdfkit";
import { addSlowChatModel, SLOW_WORDS, startSlowModel, type SlowModel } from "./slow-model";
import { accountWithKnowledgeBase, graphql, signInWithToken } from "./support";

const QUESTION = "Who rings the bell at the lighthouse?";

/** Records, from inside the page, whether the searching state showed and how the last answer's text grew. */
async function watchAnswers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { searching: false, lengths: [] as number[] };
    (window as unknown as { chatSeen: typeof seen }).chatSeen = seen;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="chat-searching"]')) seen.searching = true;
      const answers = document.querySelectorAll('[data-testid="chat-answer"]');
      const text = answers[answers.length - 1]?.querySelector('[data-testid="answer-content"]')?.textContent ?? "";
      if (text && seen.lengths[seen.lengths.length - 1] !== text.length) seen.lengths.push(text.length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const answersSeen = (page: Page) => page.evaluate(() => (window as unknown as { chatSeen: { searching: boolean; lengths: number[] } }).chatSeen);

/** The answer's words without its citation markers, whitespace collapsed. */
const answerWords = (page: Page) =>
  page.getByTestId("chat-answer").last().getByTestId("answer-markdown").evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('[data-testid="citation"]').forEach((marker) => marker.remove());
    return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
  });

async function ask(page: Page, question: string): Promise<void> {
  await page.getByTestId("chat-input").fill(question);
  await page.getByTestId("chat-input").press("Enter");
  await expect(page.getByTestId("chat-question").last()).toHaveText(question);
}

/** Local model servers a test started, closed once it ends however it ends. */
const closeAfterTest: SlowModel[] = [];
test.afterEach(async () => {
  await Promise.all(closeAfterTest.splice(0).map((model) => model.close()));
});

/** An assistant made over GraphQL (the first test makes one through the dialog), optionally answering with another model. */
async function assistantOver(request: APIRequestContext, token: string, kbId: string, name: string, chatModel?: string, settings: Record<string, unknown> = {}): Promise<string> {
  const { createAssistant } = await graphql<{ createAssistant: { id: string } }>(
    request,
    "mutation($input: AssistantInput!) { createAssistant(input: $input) { id } }",
    // Multi-turn optimisation would ask the slow model to rewrite the question first.
    { input: { name, knowledgeBaseIds: [kbId], ...(chatModel ? { chatModel, multiTurnRefine: false } : {}), ...settings } },
    token,
  );
  return createAssistant.id;
}

test("a user creates an assistant over a parsed knowledge base, asks, sees it search and answer with citations, opens the cited document and rates the answer", async ({ page, request, context }) => {
  const { token } = await accountWithKnowledgeBase(request, "chat");
  await signInWithToken(page, token);
  await page.goto("/chat");
  await expect(page.getByTestId("assistant-empty")).toBeVisible();

  // §5: required fields say what is missing, in the tab where it is.
  await page.getByTestId("assistant-create").click();
  const dialog = page.getByTestId("assistant-settings-dialog");
  await expect(dialog.getByTestId("assistant-name")).toBeVisible();
  await dialog.getByTestId("assistant-save").click();
  await expect(dialog.getByText("Please input name!")).toBeVisible();
  await expect(dialog.getByText("Please select knowledge bases!")).toBeVisible();

  await dialog.getByTestId("assistant-name").fill("Harbour helper");
  await dialog.getByTestId("assistant-kb-option").filter({ hasText: "Harbour town" }).click();
  await dialog.getByTestId("assistant-tab-prompt").click();
  await expect(dialog.getByTestId("assistant-system-prompt")).toHaveValue(/not found in the knowledge base/);
  await expect(dialog.getByTestId("assistant-keyword-weight-value")).toHaveText("0.70");
  await dialog.getByTestId("assistant-tab-model").click();
  // The built-in model picks sentences: a line says what it can and cannot do, and the sampling settings it ignores are disabled.
  await expect(dialog.getByTestId("assistant-builtin-model-note")).toContainText("does not write new text, translate");
  await expect(dialog.getByTestId("assistant-freedom")).toBeDisabled();
  await expect(dialog.getByText("Ignored by the built-in model").first()).toBeVisible();
  await page.screenshot({ path: "/tmp/chat-settings-model.png" });
  await dialog.getByTestId("assistant-save").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("assistant-card-name")).toHaveText(["Harbour helper"]);

  // A new conversation starts with the opener.
  await expect(page.getByTestId("chat-opener")).toBeVisible();
  await ask(page, "When does the harbour office open?");
  await expect(page.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(page.getByTestId("chat-answer").last().getByTestId("answer-content")).toContainText("eight in the morning");
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);

  // The answer shows a searching state first (the built-in model then answers at once).
  await watchAnswers(page);
  await ask(page, QUESTION);
  const answer = page.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  expect((await answersSeen(page)).searching).toBe(true);
  await expect(answer.getByTestId("answer-content")).toContainText("lighthouse keeper rings the bell");

  // Citations: a marker opens the chunk, and from there the document viewer.
  const citation = answer.getByTestId("citation").first();
  await expect(citation).toBeVisible();
  await citation.click();
  const popover = page.getByTestId("citation-popover");
  await expect(popover.getByTestId("citation-chunk")).toContainText("lighthouse keeper");
  await expect(answer.getByTestId("answer-reference").first()).toContainText("harbour-handbook.txt");
  await page.screenshot({ path: "/tmp/chat-answer.png" });
  const [viewer] = await Promise.all([context.waitForEvent("page"), popover.getByTestId("citation-document").click()]);
  await expect(viewer.getByTestId("viewer-name")).toHaveText("harbour-handbook.txt");
  // The viewer opens at the cited chunk: its text marked in the document and scrolled into view.
  await expect(viewer).toHaveURL(/[?&]chunk=\w+/);
  const cited = viewer.getByTestId("viewer-text").getByTestId("viewer-citation");
  await expect(cited).toContainText("lighthouse keeper rings the bell twice");
  await expect(cited).toBeInViewport();
  await viewer.screenshot({ path: "/tmp/chat-viewer-citation.png" });
  await viewer.close();
  await page.keyboard.press("Escape");

  // Thumbs up, then down with a comment. The answer re-renders and keeps its citation markers: a marker
  // made anew would close its citation whenever the answer changes (a streamed word, its reference arriving).
  const marker = await citation.elementHandle();
  await answer.getByTestId("answer-thumb-up").click();
  await expect(answer.getByTestId("answer-thumb-up")).toHaveAttribute("aria-pressed", "true");
  expect(await marker!.evaluate((node) => node.isConnected)).toBe(true);
  await answer.getByTestId("answer-thumb-down").click();
  await page.getByTestId("feedback-comment").fill("Too short");
  await page.getByTestId("feedback-submit").click();
  await expect(answer.getByTestId("answer-thumb-down")).toHaveAttribute("aria-pressed", "true");
  await expect(answer.getByTestId("answer-thumb-up")).toHaveAttribute("aria-pressed", "false");

  // Markdown from the model or a document is never HTML.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => localStorage.setItem("cairn-theme", "dark"));
  await page.reload();
  await expect(page.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "done");
  await page.screenshot({ path: "/tmp/chat-answer-dark.png" });
});

test("an answer streams word by word; reloading the page mid-answer shows the rest with nothing lost or repeated; stop ends an answer", async ({ page, request }) => {
  const model = await startSlowModel();
  try {
    const { token, kbId } = await accountWithKnowledgeBase(request, "chat");
    const chatModel = await addSlowChatModel(request, token, model.baseUrl);
    await assistantOver(request, token, kbId, "Slow writer", chatModel);

    await signInWithToken(page, token);
    await page.goto("/chat");
    await expect(page.getByTestId("chat-assistant-name")).toHaveText("Slow writer");
    await watchAnswers(page);
    // The model lets its words out one at a time, each once the page shows the one before, so the page must see the
    // answer grow word by word however slow the machine (held back by a busy server, words would arrive together).
    model.pause(1);
    await ask(page, QUESTION);
    const answer = page.getByTestId("chat-answer").last();
    await expect(answer).toHaveAttribute("data-status", "streaming", { timeout: 20_000 });
    for (let words = 1; words <= 5; words++) {
      model.pause(words);
      await expect(answer.getByTestId("answer-content")).toContainText(`word${words}`);
    }
    expect((await answersSeen(page)).lengths.length).toBeGreaterThanOrEqual(5);
    // The model holds its answer there until the page has reloaded.
    await expect(page.getByTestId("chat-stop")).toBeVisible();

    // The address names the conversation; the reload finds the answer half written and follows the rest.
    await expect(page).toHaveURL(/conversation=/);
    await page.reload();
    const resumed = page.getByTestId("chat-answer").last();
    await expect(resumed).toHaveAttribute("data-status", "streaming");
    await expect(resumed.getByTestId("answer-content")).toContainText("word3");
    const partial = await answerWords(page);
    expect(SLOW_WORDS.join(" ").startsWith(partial)).toBe(true);
    expect(partial.split(" ").length).toBeLessThan(SLOW_WORDS.length);
    model.resume();
    await expect(resumed).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    expect(await answerWords(page)).toBe(SLOW_WORDS.join(" "));

    // Stop: the answer keeps what was written and says it was stopped. The model holds its last two words, so
    // however slow the page, the answer cannot end before the stop.
    model.pause(SLOW_WORDS.length - 2);
    await ask(page, "When does the harbour office open?");
    const second = page.getByTestId("chat-answer").last();
    await expect(second).toHaveAttribute("data-status", "streaming", { timeout: 20_000 });
    await expect(second.getByTestId("answer-content")).toContainText("word3");
    await page.getByTestId("chat-stop").click();
    await expect(second).toHaveAttribute("data-status", "stopped");
    await expect(second.getByTestId("answer-stopped")).toBeVisible();
    await expect(page.getByTestId("chat-send")).toBeVisible();
    const stoppedAt = await answerWords(page);
    expect(stoppedAt.split(" ").length).toBeLessThan(SLOW_WORDS.length);
    model.resume();

    // Regenerate answers the same question again.
    await second.getByTestId("answer-regenerate").click();
    await expect(page.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    expect(await answerWords(page)).toBe(SLOW_WORDS.join(" "));
    await expect(page.getByTestId("chat-question")).toHaveCount(2);
  } finally {
    await model.close();
  }
});

test("sharing needs an API key; the share page works signed out in a fresh browser, scoped to the one assistant, reads answers aloud, and the widget opens it", async ({ page, request, browser, baseURL }) => {
  const { token, kbId } = await accountWithKnowledgeBase(request, "chat");
  // A TTS model of the tenant, for the play button of an assistant with TTS on.
  const speech = await startSlowModel();
  closeAfterTest.push(speech);
  const { addModelEntry } = await graphql<{ addModelEntry: { id: string } }>(
    request,
    "mutation($input: ModelEntryInput!) { addModelEntry(input: $input) { id } }",
    { input: { provider: "OpenAI-API-Compatible", modelName: "reader", modelType: "tts", credentials: [{ name: "baseUrl", value: speech.baseUrl }] } },
    token,
  );
  expect(addModelEntry.id).toBeTruthy();
  const { availableModels } = await graphql<{ availableModels: { id: string; modelName: string }[] }>(request, 'query { availableModels(type: "tts") { id modelName } }', {}, token);
  const ttsModel = availableModels.find((candidate) => candidate.modelName === "reader")?.id;
  expect(ttsModel).toBeTruthy();
  await graphql(request, "mutation($input: DefaultModelsInput!) { setDefaultModels(input: $input) { tts } }", { input: { tts: ttsModel } }, token);
  await assistantOver(request, token, kbId, "Harbour helper", undefined, { tts: true });
  await signInWithToken(page, token);
  await page.goto("/chat");
  await page.getByTestId("chat-embed").click();
  const embed = page.getByTestId("embed-dialog");
  await embed.getByTestId("embed-share").click();
  await expect(embed.getByTestId("embed-error")).toContainText("Please create API Token first");

  // The API key dialog, from the error.
  await embed.getByTestId("embed-open-api-keys").click();
  await page.getByTestId("api-key-create").click();
  await expect(page.getByTestId("new-api-token")).toBeVisible();
  await page.getByTestId("close-created-token").click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await page.getByTestId("api-key-dialog").getByRole("button", { name: "Close" }).click();

  await embed.getByTestId("embed-share").click();
  const iframe = embed.getByTestId("embed-iframe-text");
  await expect(iframe).toContainText(`${baseURL}/chat/share?shared_id=`);
  const sharedId = /shared_id=([^"&]+)/.exec((await iframe.textContent()) ?? "")?.[1] ?? "";
  expect(sharedId.length).toBeGreaterThanOrEqual(32);
  await embed.getByTestId("embed-tab-partial").click();
  await expect(embed.getByTestId("embed-widget-text")).toHaveText(`<script src="${baseURL}/embed/chat-widget.js" data-shared-id="${sharedId}" async></script>`);
  await embed.getByTestId("embed-tab-extension").click();
  await expect(embed.getByTestId("embed-extension-manifest-json-text")).toContainText('"manifest_version": 3');
  await expect(embed.getByTestId("embed-extension-sidepanel-html-text")).toContainText(`/chat/share?shared_id=${sharedId}`);
  await page.screenshot({ path: "/tmp/chat-embed.png" });

  // A visitor, signed out, in a browser of their own.
  const visitorContext = await browser.newContext({ locale: "en-US" });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/chat/share?shared_id=${sharedId}`);
  await expect(visitor.getByTestId("shared-assistant-name")).toHaveText("Harbour helper");
  await expect(visitor.getByTestId("chat-opener")).toBeVisible();
  await ask(visitor, QUESTION);
  const answer = visitor.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(answer.getByTestId("answer-content")).toContainText("lighthouse keeper rings the bell");
  await answer.getByTestId("citation").first().click();
  await expect(visitor.getByTestId("citation-chunk")).toContainText("lighthouse keeper");
  // The share page shows the chunk but leads nowhere else in the application.
  await expect(visitor.getByTestId("citation-document").locator("a")).toHaveCount(0);
  await expect(visitor.locator('a[href^="/"]')).toHaveCount(0);
  await visitor.keyboard.press("Escape");
  // The play button reads the answer with the tenant's TTS model, on the share token.
  const play = answer.getByTestId("answer-tts");
  await expect(play).toBeVisible();
  await visitor.screenshot({ path: "/tmp/chat-share.png" });
  const [spoken] = await Promise.all([visitor.waitForResponse((response) => response.url().endsWith("/v1/chat/tts")), play.click()]);
  expect(spoken.status()).toBe(200);
  expect(spoken.headers()["content-type"]).toBe("audio/wav");
  expect(speech.spoken.at(-1)).toContain("lighthouse keeper rings the bell");
  expect(speech.spoken.at(-1)).not.toContain("[ID:");

  // The share token opens this assistant's chat only.
  const refused = await visitor.request.post("/graphql", { data: { query: "{ knowledgeBases { total } }" }, headers: { Authorization: `Bearer ${sharedId}` } });
  expect(JSON.stringify(await refused.json())).toContain("errors");

  // The visitor's conversation is there after a reload; a new conversation starts over with the opener.
  await visitor.reload();
  await expect(visitor.getByTestId("chat-question")).toHaveText([QUESTION]);
  await visitor.getByTestId("shared-new-conversation").click();
  await expect(visitor.getByTestId("chat-question")).toHaveCount(0);
  await expect(visitor.getByTestId("chat-opener")).toBeVisible();

  // The floating widget on another site opens the share page in an iframe.
  await visitor.setContent(`<!doctype html><html><body><h1>Someone's site</h1><script src="${baseURL}/embed/chat-widget.js" data-shared-id="${sharedId}" async></script></body></html>`);
  await visitor.locator("#cairn-chat-bubble").click();
  const frame = visitor.locator("#cairn-chat-frame");
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute("src", `${baseURL}/chat/share?shared_id=${sharedId}&embed=widget`);
  await expect(visitor.frameLocator("#cairn-chat-frame").getByTestId("shared-assistant-name")).toHaveText("Harbour helper");
  await visitor.screenshot({ path: "/tmp/chat-widget.png" });
  await visitorContext.close();

  // Revoking the share closes the page.
  await embed.getByTestId("embed-revoke").click();
  await page.getByTestId("confirm-delete-dialog").getByRole("button", { name: "Delete" }).click();
  await expect(embed.getByTestId("embed-not-shared")).toBeVisible();
});

/** Two pages of a harbour report; the lighthouse paragraph is on page 2. */
function harbourReportPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 72 });
    const parts: Buffer[] = [];
    doc.on("data", (part: Buffer) => parts.push(part));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    doc.font("Helvetica-Bold").fontSize(20).text("Harbour report", 72, 72);
    doc.font("Helvetica").fontSize(11).text("The fishing fleet counted forty boats this season, most of them moored on the western quay.", 72, 120, { width: 450 });
    doc.addPage();
    doc.font("Helvetica").fontSize(11).text("The lighthouse lamp was replaced in March; its new lens carries the light twenty nautical miles out to sea.", 72, 300, { width: 300 });
    doc.end();
  });
}

test("a citation of a PDF opens the document viewer at the cited page with the chunk's boxes marked", async ({ page, request }) => {
  const { token, kbId } = await accountWithKnowledgeBase(request, "chat");
  const upload = await request.post("/v1/document/upload", {
    headers: { Authorization: token },
    multipart: { kb_id: kbId, file: { name: "harbour-report.pdf", mimeType: "application/pdf", buffer: await harbourReportPdf() } },
  });
  const documentId = ((await upload.json()) as { data: { id: string }[] }).data[0].id;
  await graphql(request, "mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }", { ids: [documentId] }, token);
  type Chunk = { id: string; content: string; positions: { page: number }[] };
  let chunks: Chunk[] = [];
  await expect
    .poll(async () => {
      const data = await graphql<{ chunks: { items: Chunk[] } }>(request, "query($id: ID!) { chunks(documentId: $id, pageSize: 0) { items { id content positions { page } } } }", { id: documentId }, token);
      chunks = data.chunks.items;
      return chunks.some((chunk) => chunk.content.includes("lighthouse lamp"));
    }, { timeout: 30_000 })
    .toBe(true);
  const cited = chunks.find((chunk) => chunk.content.includes("lighthouse lamp"))!;
  const pages = [...new Set(cited.positions.map((position) => position.page))].sort();
  expect(pages).toContain(2);

  // The link the chat page gives a citation of this chunk.
  await signInWithToken(page, token);
  await page.goto(`/document/${documentId}?page=${pages[0]}&chunk=${cited.id}`);
  await expect(page.getByTestId("viewer-name")).toHaveText("harbour-report.pdf");
  await expect(page.getByTestId("viewer-pdf-page")).toHaveCount(pages.length);
  const lastPage = page.locator('[data-testid="viewer-pdf-page"][data-page="2"]');
  const box = lastPage.getByTestId("viewer-citation-box");
  await expect(box).toBeVisible();
  // The box sits where the paragraph was printed: in the upper part of page 2, on its left half.
  const pageBox = (await lastPage.boundingBox())!;
  const markBox = (await box.boundingBox())!;
  expect((markBox.y - pageBox.y) / pageBox.height).toBeGreaterThan(0.3);
  expect((markBox.y - pageBox.y) / pageBox.height).toBeLessThan(0.5);
  expect((markBox.x + markBox.width - pageBox.x) / pageBox.width).toBeLessThan(0.75);
  await page.screenshot({ path: "/tmp/chat-viewer-pdf-citation.png" });

  // The whole document is one click away, in the browser's own viewer at the cited page.
  await page.getByTestId("viewer-pdf-whole-tab").click();
  await expect(page.getByTestId("viewer-pdf")).toHaveAttribute("src", /#page=/);
});
