import { expect, test } from "@playwright/test";
import { addSlowChatModel, startSlowModel } from "./slow-model";
import { graphql, newAccount, parsedKnowledgeBase, signInWithToken } from "./support";

/** Entries on a few subjects, long enough for RAPTOR to cluster and summarise. */
function ferryLog(): string {
  const subjects = ["the morning ferry", "the cargo crane", "the pilot boat", "the fish market", "the dry dock"];
  const entries = Array.from({ length: 400 }, (_, i) => {
    const subject = subjects[i % subjects.length];
    return `Entry ${i + 1}. ${subject} was inspected on day ${(i % 28) + 1}; the inspector noted ${(i * 13) % 90} small faults and asked for repairs before the ${["spring", "summer", "autumn", "winter"][i % 4]} season.`;
  });
  return `Ferry log\n\n${entries.join("\n\n")}\n`;
}

test("RAPTOR is generated from the configuration page, its progress shown live until it is done", async ({ page, request }) => {
  const { token } = await newAccount(request, "raptor");
  // RAPTOR summarises with the knowledge base's chat model, the tenant's default when the knowledge base was made:
  // here a local one that takes about two seconds a summary, so that the run lasts long enough for the page to
  // show it under way however fast the machine (the built-in model can summarise the whole log between two renders).
  const model = await startSlowModel();
  try {
    const chatModel = await addSlowChatModel(request, token, model.baseUrl);
    await graphql(request, "mutation($input: DefaultModelsInput!) { setDefaultModels(input: $input) { chat } }", { input: { chat: chatModel } }, token);
    const {
      kbId,
      documentIds: [id],
    } = await parsedKnowledgeBase(request, token, [["ferry-log.txt", ferryLog()]], "Ferry logs");

    await signInWithToken(page, token);
    await page.goto(`/knowledge/configuration?id=${kbId}`);
    const raptor = page.getByTestId("kb-task-raptor");
    await expect(raptor).toHaveAttribute("data-status", "none");
    await expect(raptor).toContainText("Not run yet.");

    // Every state the row shows, recorded by the page as the DOM changes: a step may be shorter than a polling interval.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { raptorSeen: string[] }).raptorSeen = seen;
      new MutationObserver(() => {
        const row = document.querySelector('[data-testid="kb-task-raptor"]');
        if (!row) return;
        const percent = row.querySelector('[data-testid="kb-task-raptor-percent"]')?.textContent ?? "";
        const state = `${row.getAttribute("data-status")}|${percent}|${row.querySelector('[data-testid="kb-task-raptor-progress"]') ? "bar" : ""}`;
        if (seen.at(-1) !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });

    // The model holds its summary until the page has shown the run under way, however fast or slow the machine.
    model.pause();
    await raptor.getByTestId("kb-task-raptor-start").click();
    await expect(raptor).toHaveAttribute("data-status", "RUNNING", { timeout: 60_000 });
    await expect(raptor.getByTestId("kb-task-raptor-progress")).toBeVisible();
    await expect(raptor.getByTestId("kb-task-raptor-percent")).toHaveText(/^[1-9]\d?%$/);
    model.resume();
    await expect(raptor).toHaveAttribute("data-status", "DONE", { timeout: 90_000 });
    await expect(raptor.getByTestId("kb-task-raptor-status")).toHaveText("Done");
    await expect(raptor.getByTestId("kb-task-raptor-result")).toHaveText(/· [1-9]\d* summary chunks?/);
    await expect(raptor.getByTestId("kb-task-raptor-message")).toHaveText(/^Task done/);
    await expect(raptor.getByTestId("kb-task-raptor-progress")).toBeHidden();
    await expect(raptor).toContainText("Ended");
    await page.screenshot({ path: "/tmp/kb-tasks-raptor-done.png", fullPage: true });

    // The row went through the run live: a bar with percentages that only rose, then "Done" without it.
    const seen = await page.evaluate(() => (window as unknown as { raptorSeen: string[] }).raptorSeen);
    const running = seen.filter((state) => state.startsWith("RUNNING|") && state.endsWith("|bar"));
    const percents = running.map((state) => Number(state.split("|")[1].replace("%", "")));
    expect(percents.length, `seen: ${seen.join(" , ")}`).toBeGreaterThan(0);
    expect(percents.some((p) => p > 0 && p < 100), `seen: ${seen.join(" , ")}`).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatch(/^DONE\|\|$/);

    // The summaries are marked on the chunk page, and can be left out or shown alone.
    await page.goto(`/knowledge/dataset/chunk?id=${kbId}&doc=${id}`);
    const cards = page.getByTestId("chunk-card");
    // The other browser test may be parsing a long file meanwhile, on the same embedded database.
    await expect(cards.first()).toBeVisible({ timeout: 30_000 });
    const origin = page.getByTestId("chunk-origin-filter");
    await origin.getByText("RAPTOR", { exact: true }).click();
    await expect(cards.first().getByTestId("chunk-kind")).toHaveText("RAPTOR summary");
    await expect(cards.filter({ hasNot: page.getByTestId("chunk-kind") })).toHaveCount(0);
    await page.screenshot({ path: "/tmp/kb-tasks-raptor-chunks.png", fullPage: true });
    await origin.getByText("Original", { exact: true }).click();
    await expect(cards.first()).toBeVisible();
    await expect(page.getByTestId("chunk-kind")).toHaveCount(0);
  } finally {
    await model.close();
  }
});
