// npm run screenshots:home — the home page's screenshots, taken from the running product.
//
// Starts the built server (run `npm run build` first) on a fresh data directory, signs up, starts the guided demo
// (its sample documents parsed by the built-in models, its assistant and flow), and captures four screens at
// 1280×800 in the light theme with the system Chromium: the parsed knowledge base, retrieval testing, a cited answer
// and the flow editor. Each is encoded as WebP by the browser itself (no image tool needed) into
// client/public/screenshots/, where HomePage.tsx shows them.
import { chromium, expect } from "@playwright/test";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = process.env.PORT ?? "9397";
const BASE_URL = `http://127.0.0.1:${PORT}`;
const OUTPUT = join(root, "client/public/screenshots");
const VIEWPORT = { width: 1280, height: 800 };
const WEBP_QUALITY = 0.8;
const PASSWORD = "correct-horse-battery";
const EMAIL = `screenshots-${Date.now()}@example.com`;

const DEMO = `{ knowledgeBase { id } documents { id run } assistant { id } flow { id } sampleCount }`;

async function graphql(query, variables = {}, token) {
  const response = await fetch(`${BASE_URL}/graphql`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function waitFor(what, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The demo of a new account, finished: samples parsed, assistant and flow made. */
async function finishedDemo() {
  await graphql("mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email: EMAIL, nickname: "Ada Lovelace", password: PASSWORD } });
  const { login } = await graphql("mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email: EMAIL, password: PASSWORD } });
  await graphql(`mutation { startDemo ${DEMO} }`, {}, login.token);
  await waitFor("the samples to parse", async () => {
    const { demoStatus } = await graphql(`{ demoStatus ${DEMO} }`, {}, login.token);
    return demoStatus.documents.length === demoStatus.sampleCount && demoStatus.documents.every((d) => d.run === "3");
  });
  const { startDemo } = await graphql(`mutation { startDemo ${DEMO} }`, {}, login.token);
  return startDemo;
}

/** PNG → WebP by the browser's own encoder, on a blank page (no content security policy there). */
async function webp(encoder, png) {
  const encoded = await encoder.evaluate(
    async ({ data, quality }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext("2d").drawImage(image, 0, 0);
      return canvas.toDataURL("image/webp", quality).split(",")[1];
    },
    { data: png.toString("base64"), quality: WEBP_QUALITY },
  );
  return Buffer.from(encoded, "base64");
}

const server = spawn(process.execPath, [join(root, "tests/e2e/start-server.mjs")], { cwd: root, stdio: "inherit", env: { ...process.env, PORT } });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
try {
  await waitFor("the server", async () => (await fetch(`${BASE_URL}/healthz`)).ok, 90_000);
  const demo = await finishedDemo();
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: VIEWPORT, locale: "en-US", colorScheme: "light" });
  const page = await context.newPage();
  const encoder = await context.newPage();
  mkdirSync(OUTPUT, { recursive: true });
  const capture = async (name) => {
    await page.mouse.move(0, VIEWPORT.height - 1);
    const file = join(OUTPUT, `${name}.webp`);
    const image = await webp(encoder, await page.screenshot({ type: "png" }));
    writeFileSync(file, image);
    console.log(`[screenshots] ${name}.webp: ${(image.length / 1024).toFixed(0)} KB`);
  };

  await page.goto("/login");
  const form = page.getByTestId("sign-in-form");
  await form.locator('input[name="email"]').fill(EMAIL);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/my$/);

  const kb = demo.knowledgeBase.id;
  await page.goto(`/knowledge/dataset?id=${kb}`);
  await expect(page.getByTestId("document-row")).toHaveCount(demo.sampleCount);
  await capture("knowledge");

  await page.goto(`/knowledge/testing?id=${kb}`);
  await page.getByTestId("retrieval-question").fill("Why do hikers build cairns?");
  await page.getByTestId("retrieval-question").press("Control+Enter");
  await expect(page.getByTestId("retrieval-hit").first()).toBeVisible({ timeout: 30_000 });
  await capture("retrieval");

  await page.goto(`/chat?assistant=${demo.assistant.id}`);
  await page.getByTestId("chat-input").fill("How long should sourdough dough rest in the refrigerator?");
  await page.getByTestId("chat-input").press("Enter");
  await expect(page.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(page.getByTestId("chat-answer").last().getByTestId("citation").first()).toBeVisible();
  await capture("chat");

  await page.goto(`/flow/${demo.flow.id}`);
  await expect(page.locator(".react-flow__node")).not.toHaveCount(0, { timeout: 30_000 });
  // The whole graph, its setup note included; the canvas fits its view with a short animation.
  await page.locator(".react-flow__controls-fitview").click();
  await page.waitForTimeout(800);
  await capture("flow");
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
