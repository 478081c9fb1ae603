import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectToastShown, recordToasts } from "./support";

const PASSWORD = "correct-horse-battery";
const PROVIDER = "OpenAI-API-Compatible";
const MODEL = "local-test-model";

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Signs up and signs in through GraphQL (the foundation journey covers the forms), then opens `path` signed in. */
async function signUpAndOpen(page: Page, request: APIRequestContext, path: string): Promise<void> {
  const email = uniqueEmail("models");
  const graphql = async (query: string, input: Record<string, unknown>) => {
    const response = await request.post("/graphql", { data: { query, variables: { input } } });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  await graphql("mutation Register($input: RegisterInput!) { register(input: $input) { user { id } } }", { email, nickname: "Ada Lovelace", password: PASSWORD });
  const { login } = await graphql("mutation Login($input: LoginInput!) { login(input: $input) { token } }", { email, password: PASSWORD });
  // The client keeps the session under the key §3 names.
  await page.addInitScript((token: string) => window.localStorage.setItem("Authorization", token), login.token as string);
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

/**
 * A model server on 127.0.0.1 that speaks OpenAI's chat-completions protocol: a JSON answer, or
 * server-sent events ending in `[DONE]` when `stream` is asked for, and the model list.
 */
async function startOpenAiCompatibleServer(): Promise<{ server: Server; baseUrl: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      request.on("end", () => resolve(text));
    });
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    seen.push({ method: request.method ?? "", path, authorization: request.headers.authorization, body });

    if (request.method === "GET" && path === "/v1/models") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [{ id: MODEL, object: "model", owned_by: "test" }] }));
      return;
    }
    if (request.method === "POST" && path === "/v1/chat/completions") {
      if (body?.model !== MODEL) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `The model ${String(body?.model)} does not exist` } }));
        return;
      }
      const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
      if (body.stream) {
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const content of ["Hello", " there"]) {
          response.write(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: MODEL, choices: [{ index: 0, delta: { content } }] })}\n\n`);
        }
        response.write(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: MODEL, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage })}\n\n`);
        response.end("data: [DONE]\n\n");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          model: MODEL,
          choices: [{ index: 0, message: { role: "assistant", content: "Hello there" }, finish_reason: "stop" }],
          usage,
        }),
      );
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: `No route for ${request.method} ${path}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}/v1`, seen };
}

/** A port on which nothing listens: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let modelServer: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;

test.beforeAll(async () => {
  modelServer = await startOpenAiCompatibleServer();
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => modelServer.server.close(() => resolve()));
});

async function openAddDialog(page: Page) {
  await page.getByTestId("provider-search").fill("compatible");
  await page.locator(`[data-testid="provider-tile"][data-provider="${PROVIDER}"]`).click();
  const dialog = page.getByTestId("model-entry-dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a user adds an OpenAI-compatible model served locally, tests it and makes it the default chat model", async ({ page, request }) => {
  await signUpAndOpen(page, request, "/user-setting/model");

  const dialog = await openAddDialog(page);
  await dialog.locator('select[name="modelType"]').selectOption("chat");
  await dialog.locator('input[name="modelName"]').fill(MODEL);
  await dialog.locator('input[name="credential-baseUrl"]').fill(modelServer.baseUrl);
  // The key stays empty: a locally deployed model needs none (§5).
  await expect(dialog.locator('input[name="credential-apiKey"]')).toHaveValue("");

  await dialog.getByTestId("test-connection").click();
  const result = dialog.getByTestId("connection-result");
  await expect(result).toHaveAttribute("data-ok", "true");
  await expect(result).toContainText(/Connected\s*·\s*\d+ ms/);
  const probe = modelServer.seen.find((seen) => seen.method === "POST" && seen.path === "/v1/chat/completions");
  expect(probe?.body).toMatchObject({ model: MODEL, messages: [expect.objectContaining({ role: "user" })] });
  expect(probe?.authorization ?? "").not.toMatch(/Bearer \S/);

  await recordToasts(page);
  await dialog.getByTestId("save-model").click();
  await expectToastShown(page, "Created!");
  await expect(dialog).toBeHidden();
  const group = page.locator(`[data-testid="provider-models"][data-provider="${PROVIDER}"]`);
  const entry = group.locator(`[data-testid="model-entry"][data-model="${MODEL}"]`);
  await expect(entry).toContainText(MODEL);
  await expect(entry.getByTestId("model-type-badge")).toHaveText("Chat");
  await expect(entry.getByTestId("used-tokens")).toContainText("tokens used");

  // The stored entry is tested again from the list.
  await entry.getByTestId("test-entry").click();
  await expect(entry.getByTestId("connection-result")).toHaveAttribute("data-ok", "true");

  await page.getByTestId("settings-nav-system").click();
  await expect(page).toHaveURL(/\/user-setting\/system$/);
  const chatDefault = page.getByTestId("default-chat");
  await chatDefault.selectOption(`${MODEL}@${PROVIDER}`);
  await page.getByTestId("save-defaults").click();
  await expectToastShown(page, "Modified!");

  await page.reload();
  await expect(page.getByTestId("default-chat")).toHaveValue(`${MODEL}@${PROVIDER}`);
});

test("a connection test against a port where nothing listens shows the provider's error, and missing fields are named", async ({ page, request }) => {
  await signUpAndOpen(page, request, "/user-setting/model");

  const dialog = await openAddDialog(page);
  await dialog.getByTestId("save-model").click();
  await expect(dialog).toContainText("Please input model name!");
  await expect(dialog).toContainText("Please input Base URL!");

  await dialog.locator('input[name="modelName"]').fill(MODEL);
  await dialog.locator('input[name="credential-baseUrl"]').fill(`http://127.0.0.1:${await closedPort()}/v1`);
  await dialog.getByTestId("test-connection").click();
  const result = dialog.getByTestId("connection-result");
  await expect(result).toHaveAttribute("data-ok", "false");
  await expect(result).toContainText("Connection failed");
  await expect(dialog.getByTestId("connection-message")).toContainText(`Cannot reach ${PROVIDER}`);
});
