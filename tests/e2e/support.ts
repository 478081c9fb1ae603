import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** What the browser journeys share: an account with a parsed knowledge base, GraphQL calls and signing in. */

export const PASSWORD = "correct-horse-battery";

export const HANDBOOK = `Harbour handbook

The harbour office opens at eight in the morning. At dusk the lighthouse keeper rings the bell twice and lights the lamp.

Visiting boats moor on the eastern pier; the fee is paid at the office.
`;

export const GARDEN = `Garden notes

Tomatoes want full sun and a deep watering twice a week. From the top of the garden you can hear the lighthouse bell across the bay.
`;

/** How often a test asks again for a state it waits for: the default's 1 s steps make a half-second parse wait a second. */
export const POLL_INTERVALS = [100, 250];

export async function graphql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const response = await request.post("/graphql", { data: { query, variables }, headers: token ? { Authorization: token } : {} });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** A new account (its e-mail starting with `prefix`), signed in: its e-mail and its token. */
export async function newAccount(request: APIRequestContext, prefix: string): Promise<{ email: string; token: string }> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Grace Hopper", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  return { email, token: login.token };
}

/** A knowledge base named `name` holding these text files, parsed: its id and its documents' ids, in the files' order. */
export async function parsedKnowledgeBase(
  request: APIRequestContext,
  token: string,
  files: [name: string, text: string][],
  name = "Harbour town",
): Promise<{ kbId: string; documentIds: string[] }> {
  const { createKnowledgeBase } = await graphql<{ createKnowledgeBase: { id: string } }>(
    request,
    "mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }",
    { input: { name } },
    token,
  );
  const kbId = createKnowledgeBase.id;
  const documentIds: string[] = [];
  for (const [file, text] of files) {
    const response = await request.post("/v1/document/upload", {
      headers: { Authorization: token },
      multipart: { kb_id: kbId, file: { name: file, mimeType: "text/plain", buffer: Buffer.from(text) } },
    });
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { data: { id: string }[] };
    documentIds.push(...body.data.map((document) => document.id));
  }
  expect(documentIds).toHaveLength(files.length);
  await graphql(request, "mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }", { ids: documentIds }, token);
  await expect
    .poll(async () => {
      const { documents } = await graphql<{ documents: { items: { run: string }[] } }>(
        request,
        "query($kb: ID!) { documents(knowledgeBaseId: $kb) { items { run } } }",
        { kb: kbId },
        token,
      );
      return documents.items.map((document) => document.run);
    }, { timeout: 60_000, intervals: POLL_INTERVALS })
    .toEqual(files.map(() => "3"));
  return { kbId, documentIds };
}

/**
 * A new account (its e-mail starting with `prefix`) with a knowledge base "Harbour town" holding the two
 * text files above, parsed; the knowledge journey covers uploading through the page.
 */
export async function accountWithKnowledgeBase(
  request: APIRequestContext,
  prefix: string,
  files: [name: string, text: string][] = [
    ["harbour-handbook.txt", HANDBOOK],
    ["garden-notes.txt", GARDEN],
  ],
): Promise<{ email: string; token: string; kbId: string }> {
  const { email, token } = await newAccount(request, prefix);
  const { kbId } = await parsedKnowledgeBase(request, token, files);
  return { email, token, kbId };
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  const form = page.getByTestId("sign-in-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/my$/);
}

/**
 * Signs `page` in with a session token made over the API: the token goes where the sign-in form leaves it, and the
 * next page the test opens is signed in. The form itself is covered by foundation.spec.ts (and the identity
 * provider's button by sso.spec.ts); going through it in every journey cost each a page load and a redirect.
 * The token is placed once per tab, so that a sign-out later in a test holds across reloads.
 */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value: string) => {
    try {
      if (window.sessionStorage.getItem("e2e-token-placed")) return;
      window.localStorage.setItem("Authorization", value);
      window.sessionStorage.setItem("e2e-token-placed", "1");
    } catch {
      // a document without storage (about:blank): the next one of the application's origin places it
    }
  }, token);
}

/**
 * Records the text of every toast the page shows from now on. A success toast lasts 2 s (§9); on a loaded machine a
 * check may come after it has gone, so a test asks what the page showed rather than what it shows at that moment.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const recorder = window as unknown as { toastsSeen?: string[] };
    if (recorder.toastsSeen) return;
    const seen: string[] = (recorder.toastsSeen = []);
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-testid="toast"]')) {
        const text = toast.textContent ?? "";
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Waits until the page has shown a toast containing `text` (recordToasts must have been called before the action). */
export async function expectToastShown(page: Page, text: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { toastsSeen?: string[] }).toastsSeen ?? []), { intervals: POLL_INTERVALS })
    .toEqual(expect.arrayContaining([expect.stringContaining(text)]));
}
