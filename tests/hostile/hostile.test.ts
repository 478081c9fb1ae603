import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { modelCacheDirectory } from "../../server/src/models/builtin/lexicon";
import { prepareBuiltinModels } from "../../server/src/models/builtin/builtin.provider";
import { copyDatabaseTemplate } from "../../server/src/testing/database-template";
import { freePort, spawnTs, type TsProcess } from "../../server/src/testing/processes";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostileCorpus } = require("./corpus.cjs") as typeof import("./corpus.cjs");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { driveCorpus, newTenant, upload, healthProbe, client, RUN } = require("./drive.cjs") as typeof import("./drive.cjs");

/**
 * A self-registered user uploads the hostile corpus to a server started as `npm start` would (embedded
 * database, in-process jobs, default limits): every file ends as a document that failed with a reason, or
 * that was read, and meanwhile the server answers /healthz within a second and holds its memory.
 */

/**
 * The server's own resident memory while the corpus parses (parse processes are apart): idle it holds ~0.9 GB
 * (the embedded database and the built-in models' tables); measured 1.5–2.3 GB at the peak of the corpus.
 */
const SERVER_RSS_BOUND_MB = 3000;
/**
 * The issue asks for 1 s; measured 0.9 s at worst once RAPTOR's clustering breathes (bench:hostile prints it).
 * The test allows twice that, so that a loaded machine does not fail it on the margin.
 */
const HEALTHZ_BOUND_MS = 2000;

/** Generated once (about ten seconds) for both tests. */
let corpus: ReturnType<typeof hostileCorpus> | undefined;
const theCorpus = () => (corpus ??= hostileCorpus());

const started: TsProcess[] = [];
const dataDirs: string[] = [];

async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<{ server: TsProcess; url: string }> {
  const port = await freePort();
  const server = spawnTs("src/main.ts", {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    MODEL_CACHE_DIR: modelCacheDirectory(),
    CLIENT_DIR: path.join(dataDir, "no-client"),
    ...env,
  });
  started.push(server);
  await server.waitForOutput(/Cairn is listening on/, 120_000);
  return { server, url: `http://127.0.0.1:${port}` };
}

/**
 * A data directory holding a copy of the run's migrated database, as a server leaves it after its first start:
 * creating and migrating one takes ~15 s, and tests/first-run covers that first start.
 */
function temporaryDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-hostile-"));
  dataDirs.push(dir);
  copyDatabaseTemplate(dir);
  return dir;
}

beforeAll(async () => {
  // what the built-in models derive from WordNet, built once per machine, before a server would build it
  await prepareBuiltinModels();
}, 180_000);

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop(2_000)));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test("no file of the hostile corpus takes the server down, slows its health check or inflates its memory", async () => {
  // The default configuration but for the step limit: a parser that stops responding is stopped after 20 s
  // instead of 120 s (emphasis-storm.md), which keeps the test short and tests the same limit.
  // The corpus is made while the server starts.
  const [files, { server, url }] = await Promise.all([theCorpus(), startServer(temporaryDataDir(), { PARSE_STEP_TIMEOUT_SECONDS: "20" })]);
  expect(files.length).toBeGreaterThanOrEqual(50);
  const result = await driveCorpus(url, server.pid, files, { timeoutMs: 900_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\nthe server said:\n${server.output().slice(-6000)}`);
  });

  const unexpected = result.outcomes.filter((o) => o.outcome !== o.expected || (o.outcome === "failed" && !o.lastLine.startsWith("[ERROR] ")));
  expect(unexpected).toEqual([]);
  expect(server.child.exitCode).toBeNull();
  expect(result.failures).toEqual([]);
  expect(result.slowestMs).toBeLessThan(HEALTHZ_BOUND_MS);
  expect(result.peakRssBytes / 1024 / 1024).toBeLessThan(SERVER_RSS_BOUND_MB);
}, 1_200_000);

test("a file that takes its server down is failed after its attempts, and the restarted server stays up", async () => {
  const dataDir = temporaryDataDir();
  // A parse that runs for seconds before it fails, so that it can be interrupted
  const poison = (await theCorpus()).find((file) => file.name === "paragraphs-200mb.docx")!;
  let { server, url } = await startServer(dataDir);
  const tenant = await newTenant(url, "poison");
  const { accepted } = await upload(url, tenant, [poison]);
  const api = client(url);
  await api.graphql(`mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }`, { ids: [accepted[0].id] }, tenant.token);
  const read = async (at: string) =>
    (await client(at).graphql(`query($id: ID!) { document(id: $id) { run progressMsg failure { messageKey params } } }`, { id: accepted[0].id }, tenant.token)).document as {
      run: string;
      progressMsg: string;
      failure: { messageKey: string; params: Record<string, unknown> } | null;
    };

  // Three times the server dies in the middle of the parse, as a process does that a file kills.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    for (;;) {
      const document = await read(url);
      expect(document.run).toBe(RUN.running);
      if ((document.progressMsg.match(/Task has been received/g) ?? []).length >= attempt) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    server.child.kill("SIGKILL");
    await server.exited;
    ({ server, url } = await startServer(dataDir));
  }

  // The fourth start does not try again: the document fails with the reason, and the server stays up.
  const probe = healthProbe(url);
  let document = await read(url);
  while (document.run === RUN.running) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    document = await read(url);
  }
  expect(document.run).toBe(RUN.failed);
  expect(document.failure).toEqual({ messageKey: "errors.parsing.tooManyAttempts", params: { attempts: 3 } });
  expect(document.progressMsg).toMatch(/\[ERROR\] Parsing was given up after 3 attempts/);
  // and keeps answering: twenty health checks in a row
  while (probe.answers() < 20) await new Promise((resolve) => setTimeout(resolve, 100));
  const health = await probe.stop();
  expect(health.failures).toEqual([]);
  expect(server.child.exitCode).toBeNull();
}, 600_000);
