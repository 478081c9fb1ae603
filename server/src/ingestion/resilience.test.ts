import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SignedIn } from "../policies/principal";
import { RUN, type Document } from "../knowledge/document.entity";
import { prepareBuiltinModels } from "../models/builtin/builtin.provider";
import { modelCacheDirectory } from "../models/builtin/lexicon";
import { LOGIN, REGISTER, startTestServer, signUpAndIn, type TestServer } from "../testing/app";
import { copyDatabaseTemplate } from "../testing/database-template";
import { startPostgres, type TestPostgres } from "../testing/postgres";
import { freePort, spawnTs, type TsProcess } from "../testing/processes";
import { startRedis, type TestRedis } from "../testing/redis";
import { graphqlOverHttp } from "../testing/graphql-http";

/**
 * Ingestion when a process dies in the middle of a parse: the document must still end, with exactly the
 * chunks of one complete run, never stay "parsing" and never keep the half-stored chunks of the dead attempt.
 */

/** The cache of what the built-in models derive from WordNet that in-process tests use, shared with the children. */
const MODEL_CACHE_DIR = modelCacheDirectory();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Long enough that embedding and storing its chunks takes seconds, so a process can be killed halfway. */
function longText(): Buffer {
  const paragraphs = Array.from(
    { length: 4000 },
    (_, i) => `Paragraph ${i} explains how the turbine ${i % 7} of hall ${i % 13} is serviced every ${i % 11} weeks by team ${i % 5}.`,
  );
  return Buffer.from(paragraphs.join("\n\n"));
}

/** Polls `read` until `done` holds, failing with `describe()` when `timeoutMs` runs out. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs: number, describe: (value: T) => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${describe(value)}`);
    await sleep(100);
  }
}

interface StoredChunks {
  rows: number;
  ordinals: number;
  maxOrdinal: number;
  tokens: number;
}

async function storedChunks(server: TestServer, documentId: string): Promise<StoredChunks> {
  const [row] = await server.platform.db.query(
    `SELECT count(*)::int AS rows, count(DISTINCT ordinal)::int AS ordinals, coalesce(max(ordinal), -1)::int AS "maxOrdinal",
            coalesce(sum(token_count), 0)::int AS tokens
     FROM chunk WHERE document_id = $1`,
    [documentId],
  );
  return row;
}

/** One complete run's chunks: one row per ordinal 0..n-1, and the document's and knowledge base's counters agree. */
async function expectOneCompleteRun(server: TestServer, owner: SignedIn, document: Document): Promise<void> {
  const stored = await storedChunks(server, document.id);
  expect(document.chunkCount).toBeGreaterThan(0);
  expect(stored).toEqual({ rows: document.chunkCount, ordinals: document.chunkCount, maxOrdinal: document.chunkCount - 1, tokens: document.tokenCount });
  const kb = await server.services.knowledgeBases.accessible(owner, document.knowledgeBaseId);
  expect([kb.chunkCount, kb.tokenCount]).toEqual([document.chunkCount, document.tokenCount]);
}

async function principal(server: TestServer, token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

const started: TsProcess[] = [];
const spawned = (entry: string, env: Record<string, string>) => {
  const child = spawnTs(entry, env);
  started.push(child);
  return child;
};

let redis: TestRedis;
let postgres: TestPostgres;
/** The embedded-mode server of the second test, and its DATA_DIR. */
let embedded: { process: TsProcess; dataDir: string; port: number };

beforeAll(async () => {
  // PGlite with pgvector behind the PostgreSQL wire protocol (the knowledge migration needs `vector`).
  // The model cache is built here if this machine has none yet (~25 s, else ~1 s to load), before any
  // child process would build it too, in the middle of a parse.
  [redis, postgres] = await Promise.all([startRedis(), startPostgres(), prepareBuiltinModels()]);
  // The embedded-mode server starts while the first test waits for BullMQ to notice the killed worker, from a copy of
  // the run's migrated database (a fresh one takes ~15 s to create and migrate, on the cores the first test uses).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-restart-"));
  copyDatabaseTemplate(dataDir);
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", MODEL_CACHE_DIR, CLIENT_DIR: path.join(dataDir, "no-client") };
  embedded = { dataDir, port, process: spawned("src/main.ts", env) };
}, 180_000);

afterAll(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop(2_000)));
  await postgres?.stop();
  await redis?.stop();
  if (embedded) fs.rmSync(embedded.dataDir, { recursive: true, force: true });
});

describe("with Redis and PostgreSQL, parsing runs on worker processes", () => {
  let server: TestServer | undefined;

  afterAll(async () => {
    await server?.close();
  });

  test("a worker killed mid-job: the document still finishes on another worker", async () => {
    // The server only queues; object storage is the server's DATA_DIR/objects, which the workers share.
    server = await startTestServer({ REDIS_URL: redis.url, DATABASE_URL: postgres.url, JOB_CONCURRENCY: "0" });
    const workerEnv = { REDIS_URL: redis.url, DATABASE_URL: postgres.url, DATA_DIR: server.dataDir, JOB_CONCURRENCY: "1", MODEL_CACHE_DIR };
    const workerA = spawned("src/worker.ts", workerEnv);
    const { token } = await signUpAndIn(server);
    const owner = await principal(server, token);
    const kb = await server.services.knowledgeBases.create(owner, { name: "Turbines" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [{ name: "turbines.txt", data: longText() }]);
    const documentId = documents[0].id;
    await workerA.waitForOutput(/jobs: .*\n/, 30_000);

    await server.services.documents.runParsing(owner, [documentId]);
    // Killed once part of its chunks are stored: the next attempt must not keep or count them twice.
    await until(() => storedChunks(server!, documentId), (s) => s.rows > 0, "worker A to store chunks", 45_000, (s) => `${JSON.stringify(s)}\n${workerA.output()}`);
    workerA.child.kill("SIGKILL");
    expect(await workerA.exited).toEqual({ code: null, signal: "SIGKILL" });
    const interrupted = await server.services.documents.accessible(owner, documentId);
    expect(interrupted.run).toBe(RUN.running);
    expect(interrupted.chunkCount).toBeGreaterThan(0);

    const workerB = spawned("src/worker.ts", workerEnv);
    // BullMQ hands the job on once worker A's 15 s lock has expired and a stalled-job check saw it.
    const finished = await until(
      () => server!.services.documents.accessible(owner, documentId),
      (d) => d.run !== RUN.running,
      "the document to finish on worker B",
      60_000,
      (d) => `run ${d.run}, progress ${d.progress}, ${d.chunkCount} chunks\n${d.progressMsg}\nworker B:\n${workerB.output()}`,
    );
    expect(finished.run).toBe(RUN.done);
    expect(finished.progress).toBe(1);
    expect(finished.progressMsg.match(/Task done/g)).toHaveLength(1);
    await expectOneCompleteRun(server, owner, finished);
  }, 150_000);
});

describe("in embedded mode", () => {
  let server: TestServer | undefined;

  afterAll(async () => {
    await server?.close();
  });

  test("a server restarted mid-parse (embedded mode) resumes the document", async () => {
    const { process: first, dataDir, port } = embedded;
    await first.waitForOutput(/Cairn is listening on/, 60_000);
    const api = httpClient(`http://127.0.0.1:${port}`);

    const email = `restart-${Date.now()}@example.com`;
    await api.graphql(REGISTER, { input: { email, nickname: "restart", password: "correct horse battery" } });
    const { login } = await api.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password: "correct horse battery" } });
    const { createKnowledgeBase: kb } = await api.graphql<{ createKnowledgeBase: { id: string } }>(
      `mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }`,
      { input: { name: "Turbines" } },
      login.token,
    );
    const form = new FormData();
    form.append("kb_id", kb.id);
    form.append("file", new Blob([new Uint8Array(longText())]), "turbines.txt");
    const uploaded = await fetch(`${api.url}/v1/document/upload`, { method: "POST", headers: { authorization: login.token }, body: form });
    const uploadAnswer = (await uploaded.json()) as { code: number; data: { id: string }[] };
    if (uploadAnswer.code !== 0) throw new Error(`upload refused: ${JSON.stringify(uploadAnswer)}`);
    const documentId = uploadAnswer.data[0].id;
    await api.graphql(`mutation($ids: [ID!]!) { runParsing(ids: $ids) { id run } }`, { ids: [documentId] }, login.token);

    const readDocument = () =>
      api.graphql<{ document: { run: string; progress: number; chunkCount: number } }>(`query($id: ID!) { document(id: $id) { run progress chunkCount } }`, { id: documentId }, login.token);
    const parsing = await until(
      readDocument,
      ({ document }) => document.run !== RUN.running || document.chunkCount > 0,
      "the first server to store chunks",
      30_000,
      (d) => `${JSON.stringify(d)}\n${first.output()}`,
    );
    expect(parsing.document.run).toBe(RUN.running);
    // A crash, not a shutdown: nothing gets to finish or clean up.
    first.child.kill("SIGKILL");
    await first.exited;

    // The same DATA_DIR: the dead process's lock file is taken over, and the interrupted job is queued again.
    server = await startTestServer({ DATA_DIR: dataDir });
    const owner = await principal(server, login.token);
    const interrupted = await server.services.documents.accessible(owner, documentId);
    expect(interrupted.run).toBe(RUN.running);
    const finished = await until(
      () => server!.services.documents.accessible(owner, documentId),
      (d) => d.run !== RUN.running,
      "the restarted server to finish the document",
      40_000,
      (d) => `run ${d.run}, progress ${d.progress}, ${d.chunkCount} chunks\n${d.progressMsg}`,
    );
    expect(finished.run).toBe(RUN.done);
    expect(finished.progressMsg.match(/Task done/g)).toHaveLength(1);
    await expectOneCompleteRun(server, owner, finished);
  }, 120_000);
});

/** GraphQL over HTTP against a server in another process; a GraphQL error fails the test. */
function httpClient(url: string) {
  return {
    url,
    graphql: <T = unknown>(query: string, variables: Record<string, unknown>, token?: string) => graphqlOverHttp<T>(url, query, variables, token),
  };
}
