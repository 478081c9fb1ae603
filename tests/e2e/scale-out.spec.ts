import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { graphql, HANDBOOK, PASSWORD, signIn } from "./support";

/**
 * The scale-out proof's browser journey (the rest is server/src/scale-out.test.ts): two servers and two workers over
 * Redis, one PostgreSQL-protocol database and one S3 server (server/src/testing/scale-out-stack.ts, in a process of
 * its own). A person signed in on server B watches, in the knowledge base's dataset page, a document uploaded and
 * parsed through server A reach its parsed state: the parse runs on a worker, and its progress reaches the page
 * through Redis and B's subscription, with no reload.
 */

const ROOT = path.resolve(__dirname, "../..");
let stack: ChildProcess | undefined;
let servers: string[] = [];

test.beforeAll(async () => {
  // Four processes compile the sources as they start: longer than a journey's own time on a loaded machine.
  test.setTimeout(150_000);
  const child = spawn(process.execPath, ["-r", path.join(ROOT, "server/src/testing/register-ts.cjs"), path.join(ROOT, "server/src/testing/scale-out-stack.child.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  stack = child;
  servers = await new Promise<string[]>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.startsWith('{"servers"'));
      if (line) resolve((JSON.parse(line) as { servers: string[] }).servers);
    });
    child.once("exit", (code) => reject(new Error(`the scale-out stack exited (code ${code}) before it was ready:\n${output}`)));
  });
});

test.afterAll(async () => {
  if (!stack || stack.exitCode !== null) return;
  const exited = new Promise((resolve) => stack!.once("exit", resolve));
  stack.kill("SIGTERM");
  await exited;
});

test("a browser signed in on server B watches a document uploaded through server A reach its parsed state", async ({ browser }) => {
  const [serverA, serverB] = servers;
  const onA: APIRequestContext = await playwrightRequest.newContext({ baseURL: serverA });
  const email = `scale-out-${Date.now()}@example.com`;
  await graphql(onA, "mutation($input: RegisterInput!) { register(input: $input) { user { id } } }", { input: { email, nickname: "Grace Hopper", password: PASSWORD } });
  const { login } = await graphql<{ login: { token: string } }>(onA, "mutation($input: LoginInput!) { login(input: $input) { token } }", { input: { email, password: PASSWORD } });
  const { createKnowledgeBase } = await graphql<{ createKnowledgeBase: { id: string } }>(
    onA,
    "mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }",
    { input: { name: "Harbour town" } },
    login.token,
  );
  const kbId = createKnowledgeBase.id;
  const uploaded = await onA.post("/v1/document/upload", {
    headers: { Authorization: login.token },
    multipart: { kb_id: kbId, file: { name: "harbour-handbook.txt", mimeType: "text/plain", buffer: Buffer.from(HANDBOOK) } },
  });
  expect(uploaded.ok()).toBe(true);
  const [{ id: documentId }] = ((await uploaded.json()) as { data: { id: string }[] }).data;

  // On B: the document A stored (in S3, its row in the shared database), not parsed yet.
  const context = await browser.newContext({ baseURL: serverB });
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto(`/knowledge/dataset?id=${kbId}`);
  const row = page.getByTestId("document-row").filter({ has: page.getByTestId("document-name").filter({ hasText: "harbour-handbook.txt" }) });
  await expect(row.getByTestId("parsing-status")).toHaveAttribute("data-run", "0");
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));

  // Parsing is asked of A, runs on a worker; B's page follows it live.
  await graphql(onA, "mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }", { ids: [documentId] }, login.token);
  await expect(row.getByTestId("parsing-status")).toHaveAttribute("data-run", "3", { timeout: 30_000 });
  await expect(row.getByTestId("parsing-status")).toContainText("Success");
  await expect(row.getByTestId("document-chunks")).toHaveText(/^[1-9][\d,]*$/);
  expect(navigations).toEqual([]);

  await context.close();
  await onA.dispose();
});
