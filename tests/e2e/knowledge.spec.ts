import { Document as DocxDocument, HeadingLevel, Packer, Paragraph } from "docx";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signInWithToken } from "./support";

const PASSWORD = "correct-horse-battery";

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Creates an account straight through GraphQL, signed in (its session token); the foundation journey covers the sign-up form. */
async function registerThroughApi(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post("/graphql", {
    data: {
      query: "mutation Register($input: RegisterInput!) { register(input: $input) { token } }",
      variables: { input: { email, nickname: "Rosalind Franklin", password: PASSWORD } },
    },
  });
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  return body.data.register.token;
}

/** The one paragraph of the harbour log that mentions the lighthouse: the chunk search must find it. */
const SEARCH_TERM = "lighthouse";
const LOG_PARAGRAPHS = 3000;
const LIGHTHOUSE_PARAGRAPH = 1437;

/** A long plain-text log (a few hundred kilobytes), so that its parse lasts long enough to be watched. */
function harbourLog(): Buffer {
  const cargo = ["timber", "grain", "copper", "salt", "wool", "coffee", "porcelain", "tea", "cotton", "iron"];
  const weather = ["a calm sea", "a westerly gale", "thick fog", "light rain", "a clear sky", "a rising tide"];
  const paragraphs = Array.from({ length: LOG_PARAGRAPHS }, (_, i) => {
    const n = i + 1;
    const ship = `the ${["Albatross", "Beacon", "Cormorant", "Drifter", "Endeavour"][i % 5]} ${n}`;
    const sighting = n === LIGHTHOUSE_PARAGRAPH ? ` The ${SEARCH_TERM} keeper signalled her in after dusk.` : "";
    return (
      `Entry ${n}. Under ${weather[i % weather.length]}, ${ship} moored at berth ${(i % 24) + 1} carrying ${cargo[i % cargo.length]} ` +
      `for the merchants of the upper town. The harbour master counted ${(i * 37) % 500} crates, checked the manifest twice ` +
      `and noted that the crew of ${ship} asked for fresh water, bread and rope before the next tide.${sighting}`
    );
  });
  return Buffer.from(`Harbour log\n\n${paragraphs.join("\n\n")}\n`);
}

const HANDBOOK = `# Harbour handbook

## Opening hours

The harbour office opens at eight in the morning and closes at six in the evening.

## Moorings

Visiting boats moor on the eastern pier; the fee is paid at the office.
`;

async function onboardingDocx(): Promise<Buffer> {
  const document = new DocxDocument({
    sections: [
      {
        children: [
          new Paragraph({ text: "Onboarding guide", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("New colleagues collect their keys from the harbour office in their first week."),
          new Paragraph("Every Friday the whole team meets on the eastern pier."),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** A GraphQL operation the page sent over HTTP, by name (Apollo sends `operationName` with every request). */
function operationName(postData: string | null): string | undefined {
  if (!postData) return undefined;
  try {
    return (JSON.parse(postData) as { operationName?: string }).operationName;
  } catch {
    return undefined;
  }
}

/**
 * Records in the page every text the named document's parsing status shows, as the DOM changes, so that the
 * test sees each step of the bar even when a step lasts less than an assertion's polling interval.
 */
async function watchParsingStatus(page: Page, name: string): Promise<void> {
  await page.evaluate((documentName) => {
    const seen: string[] = [];
    (window as unknown as { parsingStatusSeen: string[] }).parsingStatusSeen = seen;
    new MutationObserver(() => {
      for (const row of document.querySelectorAll('[data-testid="document-row"]')) {
        if (row.querySelector('[data-testid="document-name"]')?.textContent !== documentName) continue;
        const bar = row.querySelector('[data-testid="parsing-progress"]') ? " [bar]" : "";
        const status = `${row.querySelector('[data-testid="parsing-status"]')?.textContent ?? ""}${bar}`;
        if (status && seen.at(-1) !== status) seen.push(status);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, name);
}

function documentRow(page: Page, name: string) {
  return page.getByTestId("document-row").filter({ has: page.getByTestId("document-name").filter({ hasText: name }) });
}

test("a user uploads three kinds of files, watches them parse live, curates the chunks and previews a document", async ({ page, request }) => {
  // the longest journey of the suite: ~35 s alone, past a minute while the other worker's test parses too, and
  // past two minutes on a loaded CI machine since its preview step renders a DOCX and Markdown
  test.setTimeout(240_000);
  const email = uniqueEmail("knowledge");
  const token = await registerThroughApi(request, email);

  // What reaches the page while parsing runs: GraphQL queries over HTTP, progress over the WebSocket.
  const documentsQueries: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().endsWith("/graphql") && operationName(sent.postData()) === "Documents") documentsQueries.push(sent.url());
  });
  let progressFrames = 0;
  page.on("websocket", (socket) => {
    socket.on("framereceived", ({ payload }) => {
      if (String(payload).includes('"documentProgress"')) progressFrames += 1;
    });
  });

  await signInWithToken(page, token);
  await page.goto("/my");

  await page.locator("header nav").getByRole("link", { name: "Knowledge Base" }).click();
  await expect(page.getByTestId("kb-empty")).toBeVisible();
  await page.getByTestId("kb-create").click();
  const createDialog = page.getByTestId("kb-create-dialog");
  await createDialog.locator('input[name="name"]').fill("Harbour archive");
  await createDialog.getByTestId("kb-create-dialog-submit").click();
  await expect(page).toHaveURL(/\/knowledge\/configuration\?id=/);
  await expect(page.getByTestId("kb-name")).toHaveText("Harbour archive");

  await page.getByTestId("kb-nav-dataset").click();
  await expect(page.getByTestId("documents-empty")).toBeVisible();
  await page.getByTestId("add-file").click();
  await page.getByTestId("add-upload").click();
  const uploadDialog = page.getByTestId("upload-dialog");
  await uploadDialog.getByTestId("upload-input").setInputFiles([
    { name: "harbour-log.txt", mimeType: "text/plain", buffer: harbourLog() },
    { name: "handbook.md", mimeType: "text/markdown", buffer: Buffer.from(HANDBOOK) },
    { name: "onboarding.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: await onboardingDocx() },
  ]);
  await expect(uploadDialog.getByTestId("upload-files").getByText(/^(harbour-log\.txt|handbook\.md|onboarding\.docx)$/)).toHaveCount(3);
  // Parsing starts from the list, with the rows already on screen: what follows shows on them as it happens.
  // (Parsing on upload would start it while the dialog still covers the list.)
  const parseOnUpload = uploadDialog.getByRole("checkbox", { name: "Parse on upload" });
  await expect(parseOnUpload).toBeChecked();
  await uploadDialog.getByText("Parse on upload").click();
  await expect(parseOnUpload).not.toBeChecked();
  await uploadDialog.getByTestId("upload-submit").click();
  await expect(uploadDialog).toBeHidden();
  await expect(page.getByTestId("document-row")).toHaveCount(3);
  await expect(page.getByTestId("parsing-status").filter({ hasText: "Unstarted" })).toHaveCount(3);
  // The list was read once after the upload; from here on every change must come from the subscription.
  const queriesAfterUpload = documentsQueries.length;

  await watchParsingStatus(page, "harbour-log.txt");
  await page.getByTestId("document-table").locator("thead label").click();
  await expect(page.getByTestId("bulk-actions")).toContainText("3 selected");
  await page.getByTestId("bulk-actions").getByTestId("bulk-run").click();
  const log = documentRow(page, "harbour-log.txt");
  // The bar exists only while the document parses. A step can be shorter than an assertion's polling interval
  // on a busy machine, so the page's own record says whether it showed; the picture is taken as soon as it did.
  const seenSoFar = () => page.evaluate(() => (window as unknown as { parsingStatusSeen: string[] }).parsingStatusSeen);
  // (As long as the parse itself may take: a loaded machine has kept this page from answering for 9 s.)
  await expect.poll(async () => (await seenSoFar()).some((text) => text.endsWith("[bar]")), { timeout: 30_000 }).toBe(true);
  await page.screenshot({ path: "/tmp/knowledge-dataset-parsing.png", fullPage: true });

  // The bar moves and the parse ends, all on the page as it is: no reload, no new query.
  for (const name of ["harbour-log.txt", "handbook.md", "onboarding.docx"]) {
    const row = documentRow(page, name);
    await expect(row.getByTestId("parsing-status")).toHaveAttribute("data-run", "3", { timeout: 30_000 });
    await expect(row.getByTestId("parsing-status")).toContainText("Success");
    await expect(row.getByTestId("document-chunks")).toHaveText(/^[1-9][\d,]*$/);
  }
  await expect(log.getByTestId("parsing-progress")).toBeHidden();
  // Every state the row showed on the way: the percentage rose through several values before "Success".
  const seen = await seenSoFar();
  const percents = [...new Set(seen.flatMap((text) => /^Parsing(\d+)%.*\[bar\]$/.exec(text)?.slice(1) ?? []).map(Number))];
  expect(percents.length, `seen: ${seen.join(" | ")}`).toBeGreaterThan(1);
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  expect(seen.at(-1)).toMatch(/^Success(?!.*\[bar\])/);
  expect(documentsQueries.length).toBe(queriesAfterUpload);
  expect(progressFrames).toBeGreaterThan(3);
  const logChunks = Number((await log.getByTestId("document-chunks").textContent())?.replace(/,/g, ""));
  expect(logChunks).toBeGreaterThan(1);

  // The log's chunks: switch one off, find it under "Disabled", search for a word and see it marked.
  await log.getByTestId("document-chunks").click();
  await expect(page).toHaveURL(/\/knowledge\/dataset\/chunk\?id=.+&doc=/);
  await expect(page.getByTestId("chunk-document")).toContainText("harbour-log.txt");
  const cards = page.getByTestId("chunk-card");
  await expect(cards).toHaveCount(Math.min(logChunks, 30));
  const firstCard = cards.first();
  await expect(firstCard).toHaveAttribute("data-available", "true");
  await expect(firstCard.getByTestId("chunk-text")).toContainText("Harbour log");
  await firstCard.getByTestId("chunk-switch").click();
  await expect(firstCard).toHaveAttribute("data-available", "false");

  const filter = page.getByTestId("chunk-filter");
  await filter.getByText("Disabled", { exact: true }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAttribute("data-available", "false");
  await expect(cards.first().getByTestId("chunk-text")).toContainText("Harbour log");
  await filter.getByText("All", { exact: true }).click();
  await expect(cards).toHaveCount(Math.min(logChunks, 30));

  // Only chunks with the word are left, the word marked in each; the log's own chunk comes first.
  await page.getByTestId("chunk-search").fill(SEARCH_TERM);
  const found = cards.first().getByTestId("chunk-text");
  await expect(found).toContainText(`Entry ${LIGHTHOUSE_PARAGRAPH}.`);
  await expect(found.locator("em")).toHaveText([SEARCH_TERM]);
  expect(await cards.count()).toBeLessThan(Math.min(logChunks, 30));
  await expect(cards.filter({ hasNot: page.locator("em") })).toHaveCount(0);
  await page.screenshot({ path: "/tmp/knowledge-chunks-search.png", fullPage: true });

  // The preview opens in a tab of its own.
  const [viewer] = await Promise.all([page.waitForEvent("popup"), page.getByTestId("document-preview").click()]);
  await expect(viewer).toHaveURL(/\/document\/[^/?]+$/);
  await expect(viewer.getByTestId("viewer-name")).toHaveText("harbour-log.txt");
  await expect(viewer.getByTestId("viewer-status")).toHaveText("Success");
  // The file as it reads, its lines numbered; its chunks one click away.
  const preview = viewer.getByTestId("file-preview");
  await expect(preview).toHaveAttribute("data-kind", "text");
  await expect(preview.getByTestId("preview-text")).toContainText(`The ${SEARCH_TERM} keeper signalled her in after dusk.`);
  await expect(preview.getByTestId("preview-line-numbers")).toContainText("1");
  await viewer.getByTestId("viewer-view-chunks").click();
  await expect(viewer.getByTestId("viewer-chunks")).toContainText("Harbour log");
  await viewer.close();

  // The DOCX and the Markdown file are rendered, not shown as their chunks or their source.
  const dataset = `/knowledge/dataset?id=${new URL(page.url()).searchParams.get("id")}`;
  for (const [name, kind, heading] of [["onboarding.docx", "html", "Onboarding guide"], ["handbook.md", "markdown", "Opening hours"]] as const) {
    await page.goto(dataset);
    await documentRow(page, name).getByTestId("document-chunks").click();
    await expect(page.getByTestId("chunk-document")).toContainText(name);
    const [rendered] = await Promise.all([page.waitForEvent("popup"), page.getByTestId("document-preview").click()]);
    const file = rendered.getByTestId("file-preview");
    await expect(file).toHaveAttribute("data-kind", kind);
    await expect(file.getByRole("heading", { name: heading })).toBeVisible();
    if (kind === "markdown") await expect(file).not.toContainText("## Opening hours");
    await rendered.screenshot({ path: `/tmp/preview-knowledge-${kind}.png` });
    await rendered.close();
  }
});
