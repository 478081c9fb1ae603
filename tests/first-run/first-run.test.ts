import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../server/src/testing/processes";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { client, newTenant, upload, RUN } = require("../hostile/drive.cjs");

/**
 * A newcomer's first minutes, on the build `npm start` runs (npm test builds it first): the server starts on
 * a fresh data directory and an empty model cache, and the first small file is parsed within seconds of
 * /healthz — the built-in models were prepared by the build, not on the first parse. A second start with
 * nothing changed does not build again.
 */
const root = path.resolve(__dirname, "../..");
const MAIN = path.join(root, "server/dist/main.js");
const FIRST_PARSE_BOUND_MS = 5_000;

const directories: string[] = [];
let server: ChildProcess | undefined;

function temporaryDirectory(label: string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${label}-`));
  directories.push(directory);
  return directory;
}

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("on a fresh data directory and an empty model cache, a text file is parsed within 5 s of /healthz", async () => {
  if (!fs.existsSync(MAIN)) throw new Error("server/dist/main.js is missing: run `npm run build` first (npm test does)");
  const dataDir = temporaryDirectory("first-run");
  const modelCache = temporaryDirectory("first-run-models");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), DATA_DIR: dataDir, MODEL_CACHE_DIR: modelCache, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  await waitForHealth(url, server);
  const healthyAt = performance.now();

  const tenant = await newTenant(url, "first");
  const text = "Opening hours\n\nThe office opens at 08:00 and closes at 16:00 on weekdays. On Saturdays it is closed.\n";
  const { accepted } = await upload(url, tenant, [{ name: "hours.txt", data: Buffer.from(text) }]);
  expect(accepted).toHaveLength(1);
  const api = client(url);
  await api.graphql(`mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }`, { ids: [accepted[0].id] }, tenant.token);
  let document: { run: string; chunkCount: number; progressMsg: string };
  do {
    ({ document } = await api.graphql(`query($id: ID!) { document(id: $id) { run chunkCount progressMsg } }`, { id: accepted[0].id }, tenant.token));
  } while (document.run === RUN.running || document.run === "0");
  const parsedAfterMs = performance.now() - healthyAt;

  expect(document).toMatchObject({ run: RUN.done, chunkCount: 1 });
  if (parsedAfterMs >= FIRST_PARSE_BOUND_MS) console.log(document.progressMsg);
  expect(parsedAfterMs).toBeLessThan(FIRST_PARSE_BOUND_MS);
  // Nothing was derived at run time: the model cache holds no lexicon.
  expect(fs.readdirSync(modelCache).filter((name) => name.startsWith("cairn-"))).toEqual([]);
}, 120_000);

test("a second start with nothing changed does not build again", () => {
  const build = () => spawnSync(process.execPath, [path.join(root, "server/scripts/build.mjs")], { cwd: root, encoding: "utf8" });
  // The first brings the build up to date, if sources changed since npm test built it; the second finds nothing to do.
  expect(build().status).toBe(0);
  const second = build();
  expect(second.status).toBe(0);
  expect(second.stdout).toContain("[build] up to date");
  expect(second.stdout).not.toContain("building");
}, 300_000);
