import { expect, test, type APIRequestContext } from "@playwright/test";
import { graphql, PASSWORD, signInWithToken } from "./support";

/**
 * Publishing a flow (issue 17, §2 API publishing): the REST and OpenAI-compatible endpoints answer with an API key,
 * the publish dialog gives the flow's id and ready commands, and a visitor, signed out, chats with the shared flow on
 * its page and in the floating widget until the share is revoked.
 */

/** Begin greets, its Answer waits, and each message is echoed back: a flow that needs nothing outside. */
const ECHO_DSL = {
  components: {
    begin: { obj: { component_name: "Begin", params: { prologue: "Hello! I repeat what you tell me." } }, upstream: [], downstream: ["Answer:talk"] },
    "Answer:talk": { obj: { component_name: "Answer", params: {} }, upstream: ["begin", "Template:echo"], downstream: ["Template:echo"] },
    "Template:echo": { obj: { component_name: "Template", params: { content: "You said: {sys.query}" } }, upstream: ["Answer:talk"], downstream: ["Answer:talk"] },
  },
};

async function accountWithFlow(request: APIRequestContext, title: string): Promise<{ email: string; token: string; flowId: string }> {
  const email = `publish-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await graphql(request, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Ada Lovelace", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(request, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const { createFlow } = await graphql<{ createFlow: { id: string } }>(request, "mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }", { input: { title, dsl: ECHO_DSL } }, login.token);
  return { email, token: login.token, flowId: createFlow.id };
}

/** The answer of the agents API to one question, not streamed (contract §10.5). */
async function askOverRest(request: APIRequestContext, flowId: string, key: string, question: string): Promise<string> {
  const response = await request.post(`/api/v1/agents/${flowId}/completions`, { headers: { Authorization: `Bearer ${key}` }, data: { question, stream: false } });
  const body = (await response.json()) as { code: number; data: { data: { content: string } } };
  expect(body.code).toBe(0);
  return body.data.data.content;
}

test("a published flow answers over the REST and OpenAI endpoints, and signed-out visitors chat with it on its page and in the widget", async ({ request, browser, baseURL }) => {
  const { token, flowId } = await accountWithFlow(request, "Echo desk");
  const { createApiToken } = await graphql<{ createApiToken: { token: string } }>(request, "mutation { createApiToken { token } }", {}, token);
  const key = createApiToken.token;

  // The agents API, as the dialog's commands call it: one JSON answer, a stream of events, and OpenAI's shape.
  expect(await askOverRest(request, flowId, key, "ping")).toBe("You said: ping");
  const streamed = await request.post(`/api/v1/agents/${flowId}/completions`, { headers: { Authorization: `Bearer ${key}` }, data: { question: "pong", stream: true } });
  const frames = await streamed.text();
  expect(frames).toContain("You said: pong");
  expect(frames.trim().endsWith("data:[DONE]")).toBe(true);
  const openai = await request.post(`/api/v1/agents_openai/${flowId}/chat/completions`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { model: "model", messages: [{ role: "user", content: "hi there" }], stream: false },
  });
  expect(((await openai.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe("You said: hi there");

  const { shareFlow } = await graphql<{ shareFlow: { sharedId: string } }>(request, "mutation($flowId: ID!) { shareFlow(flowId: $flowId) { sharedId } }", { flowId }, token);
  const sharedId = shareFlow.sharedId;

  // A visitor, signed out, in a browser of their own, at RAGFlow's address for a shared agent.
  const visitorContext = await browser.newContext({ locale: "en-US", viewport: { width: 1024, height: 720 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/chat/share?shared_id=${sharedId}&from=agent`);
  await expect(visitor.getByTestId("shared-flow-title")).toHaveText("Echo desk");
  await expect(visitor.getByTestId("shared-flow-greeting")).toContainText("Hello! I repeat what you tell me.");
  await visitor.getByTestId("shared-flow-input").fill("the tide comes in at noon");
  await visitor.getByTestId("shared-flow-input").press("Enter");
  const answer = visitor.getByTestId("shared-flow-answer").last();
  await expect(answer).toHaveAttribute("data-status", "done");
  await expect(answer.getByTestId("shared-flow-answer-content")).toHaveText("You said: the tide comes in at noon");
  // The flow's Answer waits for the visitor's reply, which continues the same session.
  await expect(visitor.getByTestId("shared-flow-hint")).toHaveText("The flow is waiting for your reply.");
  await visitor.getByTestId("shared-flow-input").fill("and goes out at six");
  await visitor.getByTestId("shared-flow-send").click();
  await expect(visitor.getByTestId("shared-flow-answer")).toHaveCount(2);
  await expect(visitor.getByTestId("shared-flow-answer").last().getByTestId("shared-flow-answer-content")).toHaveText("You said: and goes out at six");
  await visitor.screenshot({ path: "/tmp/publish-shared.png" });
  // The share page leads nowhere else in the application, and its token opens nothing else.
  await expect(visitor.locator('a[href^="/"]')).toHaveCount(0);
  const refused = await visitor.request.post("/graphql", { data: { query: "{ flows { total } }" }, headers: { Authorization: `Bearer ${sharedId}` } });
  expect(JSON.stringify(await refused.json())).toContain("UNAUTHENTICATED");

  // After a reload the visitor finds their conversation; a new one starts over with the greeting.
  await visitor.reload();
  await expect(visitor.getByTestId("shared-flow-question")).toHaveText(["the tide comes in at noon", "and goes out at six"]);
  await visitor.getByTestId("shared-flow-new").click();
  await expect(visitor.getByTestId("shared-flow-question")).toHaveCount(0);
  await expect(visitor.getByTestId("shared-flow-greeting")).toBeVisible();

  // The same page in the dark theme.
  const darkContext = await browser.newContext({ locale: "en-US", colorScheme: "dark", viewport: { width: 1024, height: 720 } });
  const dark = await darkContext.newPage();
  await dark.goto(`/chat/share?shared_id=${sharedId}&from=agent`);
  await expect(dark.getByTestId("shared-flow-greeting")).toBeVisible();
  await dark.getByTestId("shared-flow-input").fill("night shift");
  await dark.getByTestId("shared-flow-input").press("Enter");
  await expect(dark.getByTestId("shared-flow-answer").last()).toHaveAttribute("data-status", "done");
  await dark.screenshot({ path: "/tmp/publish-shared-dark.png" });
  await darkContext.close();

  // The floating widget on another site opens the flow's share page in an iframe.
  await visitor.setContent(`<!doctype html><html><body><h1>Someone's site</h1><script src="${baseURL}/embed/chat-widget.js" data-shared-id="${sharedId}" data-from="agent" async></script></body></html>`);
  await visitor.locator("#cairn-chat-bubble").click();
  const frame = visitor.locator("#cairn-chat-frame");
  await expect(frame).toHaveAttribute("src", `${baseURL}/chat/share?shared_id=${sharedId}&embed=widget&from=agent`);
  const widget = visitor.frameLocator("#cairn-chat-frame");
  await expect(widget.getByTestId("shared-flow-title")).toHaveText("Echo desk");
  await expect(widget.getByTestId("shared-flow")).toHaveAttribute("data-embed", "widget");
  await visitor.screenshot({ path: "/tmp/publish-widget.png" });

  // Revoking the share closes the page.
  await graphql(request, "mutation($flowId: ID!) { revokeFlowShare(flowId: $flowId) }", { flowId }, token);
  await visitor.goto(`/chat/share?shared_id=${sharedId}&from=agent`);
  await expect(visitor.getByTestId("shared-flow-unavailable")).toBeVisible();
  await visitorContext.close();
});

test("a shared flow asks Begin's inputs first, each by its type, and its answers use them", async ({ request, browser }) => {
  const { token, flowId } = await accountWithFlow(request, "Harbour guide");
  const dsl = structuredClone(ECHO_DSL) as typeof ECHO_DSL & { components: Record<string, { obj: { params: Record<string, unknown> } }> };
  dsl.components.begin.obj.params = {
    prologue: "Welcome aboard!",
    query: [
      { key: "city", name: "Your city", type: "line", optional: false, options: [] },
      { key: "boat", name: "Your boat", type: "options", optional: false, options: ["Sailboat", "Ferry"] },
    ],
  };
  dsl.components["Template:echo"].obj.params = { content: "You said: {sys.query} ({begin@boat} from {begin@city})" };
  await graphql(request, "mutation($id: ID!, $input: UpdateFlowInput!) { updateFlow(id: $id, input: $input) { id } }", { id: flowId, input: { dsl } }, token);
  await graphql(request, "mutation { createApiToken { token } }", {}, token);
  const { shareFlow } = await graphql<{ shareFlow: { sharedId: string } }>(request, "mutation($flowId: ID!) { shareFlow(flowId: $flowId) { sharedId } }", { flowId }, token);

  const visitorContext = await browser.newContext({ locale: "en-US", viewport: { width: 1024, height: 720 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/chat/share?shared_id=${shareFlow.sharedId}&from=agent`);
  const form = visitor.getByTestId("shared-flow-inputs");
  await expect(form).toBeVisible();
  await expect(visitor.getByTestId("shared-flow-input")).toHaveCount(0);
  await form.getByTestId("shared-flow-start").click();
  await expect(form).toContainText("Please fill this in.");
  await form.getByTestId("shared-flow-input-city").fill("Lisbon");
  await form.getByTestId("shared-flow-input-boat").selectOption("Ferry");
  await visitor.screenshot({ path: "/tmp/publish-shared-inputs.png" });
  await form.getByTestId("shared-flow-start").click();
  // Begin greets once its inputs are given, and the Answer waits for the visitor.
  await expect(visitor.getByTestId("shared-flow-answer").first().getByTestId("shared-flow-answer-content")).toHaveText("Welcome aboard!");
  await visitor.getByTestId("shared-flow-input").fill("hello");
  await visitor.getByTestId("shared-flow-input").press("Enter");
  await expect(visitor.getByTestId("shared-flow-answer").last().getByTestId("shared-flow-answer-content")).toHaveText("You said: hello (Ferry from Lisbon)");
  await visitorContext.close();
});

test("the publish dialog gives the flow's id, a key made on the spot and commands that work, and the embed code", async ({ page, request, baseURL }) => {
  const { token, flowId } = await accountWithFlow(request, "Published echo");
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInWithToken(page, token);
  await page.goto(`/flow/${flowId}`);
  // The editor's code loads on first use: on a loaded machine that takes a while.
  await expect(page.getByTestId("flow-publish")).toBeVisible({ timeout: 30_000 });

  await page.getByTestId("flow-publish").click();
  const dialog = page.getByTestId("publish-dialog");
  await expect(dialog.getByTestId("publish-flow-id")).toHaveText(flowId);
  // No key yet: the specification's message, and a way to make one right here.
  await expect(dialog.getByTestId("publish-no-key")).toContainText("Please create API Token first!");
  await dialog.getByTestId("publish-create-key").click();
  const key = (await dialog.getByTestId("publish-key-value").textContent()) ?? "";
  expect(key).toMatch(/^ragflow-/);
  const command = dialog.getByTestId("publish-curl-completions-text");
  await expect(command).toContainText(`${baseURL}/api/v1/agents/${flowId}/completions`);
  await expect(command).toContainText(`Authorization: Bearer ${key}`);
  await expect(command).toContainText('"stream": true');
  await expect(dialog.getByTestId("publish-curl-openai-text")).toContainText(`/api/v1/agents_openai/${flowId}/chat/completions`);
  await dialog.getByTestId("publish-stream").getByText("Non-streaming").click();
  await expect(command).toContainText('"stream": false');
  await page.screenshot({ path: "/tmp/publish-dialog.png" });
  // The key the dialog shows calls the flow.
  expect(await askOverRest(request, flowId, key, "from the dialog")).toBe("You said: from the dialog");

  await dialog.getByTestId("publish-tab-embed").click();
  await dialog.getByTestId("publish-share").click();
  const iframe = dialog.getByTestId("embed-iframe-text");
  await expect(iframe).toContainText(`${baseURL}/chat/share?shared_id=`);
  await expect(iframe).toContainText("from=agent");
  await dialog.getByTestId("embed-tab-partial").click();
  await expect(dialog.getByTestId("embed-widget-text")).toContainText('data-from="agent"');
  await page.screenshot({ path: "/tmp/publish-dialog-embed.png" });
  await dialog.getByTestId("publish-revoke").click();
  await page.getByTestId("confirm-delete-dialog").getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByTestId("publish-not-shared")).toBeVisible();
});
