// Shared by the benchmarks: a BEIR data set, and a built server in embedded mode on a temporary DATA_DIR
// with one signed-in user, through which a corpus is ingested by the real pipeline.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const require = createRequire(import.meta.url);

export function readJsonLines(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * corpus.jsonl, queries.jsonl and qrels.tsv of a BEIR directory; BENCH_LIMIT keeps the first n documents,
 * BENCH_SCRIPT=traditional (or traditional-passages) converts a Chinese set (or its passages) to Traditional script.
 */
export function loadBeir(directory) {
  if (!directory || !fs.existsSync(path.join(directory, "corpus.jsonl"))) {
    console.error("usage: npm run bench:… -- <BEIR directory with corpus.jsonl>");
    process.exit(2);
  }
  const limit = Number(process.env.BENCH_LIMIT ?? Infinity);
  const corpus = readJsonLines(path.join(directory, "corpus.jsonl")).slice(0, limit);
  const queries = fs.existsSync(path.join(directory, "queries.jsonl")) ? readJsonLines(path.join(directory, "queries.jsonl")) : [];
  const qrels = new Map();
  if (fs.existsSync(path.join(directory, "qrels.tsv"))) {
    for (const line of fs.readFileSync(path.join(directory, "qrels.tsv"), "utf8").split("\n").slice(1)) {
      const [queryId, corpusId, score] = line.split("\t");
      if (!queryId || !corpusId) continue;
      if (!qrels.has(queryId)) qrels.set(queryId, new Map());
      qrels.get(queryId).set(corpusId, Number(score));
    }
  }
  const name = path.basename(path.resolve(directory));
  // BENCH_SCRIPT=traditional: the set in Traditional Chinese (OpenCC, Simplified to Taiwan's standard), as a set
  // written in Taiwan or Hong Kong would come; traditional-passages: the passages only, asked about in Simplified
  // script. Their results are written apart (<name>-<script>).
  const script = process.env.BENCH_SCRIPT;
  if (script === "traditional" || script === "traditional-passages") {
    const toTraditional = require("opencc-js").Converter({ from: "cn", to: "tw" });
    const convert = (entry) => Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, key === "_id" || typeof value !== "string" ? value : toTraditional(value)]));
    return { name: `${name}-${script}`, script, corpus: corpus.map(convert), queries: script === "traditional" ? queries.map(convert) : queries, qrels };
  }
  return { name, script: "as published", corpus, queries, qrels };
}

/** The built server (run `npm run build -w server` first) on a fresh DATA_DIR, with a signed-in principal. */
export async function startBenchServer(env = {}) {
  const { startServer } = require(path.join(root, "server/dist/app.js"));
  const { loadConfig } = require(path.join(root, "server/dist/platform/config.js"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bench-"));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    CLIENT_DIR: path.join(dataDir, "no-client"),
    MODEL_CACHE_DIR: process.env.MODEL_CACHE_DIR ?? path.join(os.tmpdir(), "cairn-model-cache"),
    ...env,
  });
  // As the server's entry point does: the built-in models' derived tables are cached in one place per machine.
  require(path.join(root, "server/dist/models/builtin/builtin.provider.js")).configureBuiltinModels({ cacheDirectory: config.modelCacheDir });
  const server = await startServer(config);
  const { services } = server;
  const email = `bench-${Date.now()}@example.com`;
  await services.auth.register({ email, nickname: "bench", password: "bench password 1" });
  const { token } = await services.auth.login({ email, password: "bench password 1", remember: false });
  const principal = await services.principalFor(`Bearer ${token}`);
  return {
    config,
    services,
    principal,
    url: server.url,
    dataDir,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Files per upload and per parse request. */
const BATCH = 128;

/**
 * Ingests a corpus as one .txt document per entry (title, blank line, text) into a new knowledge base:
 * upload, then parse on the job queue until every document has finished. Returns the knowledge base, the
 * corpus id of each document id, and the time of each phase in seconds.
 */
export async function ingestCorpus(bench, name, corpus, language = "English") {
  const { services, principal } = bench;
  const kb = await services.knowledgeBases.create(principal, { name, language });
  // The built-in embedding loads its WordNet tables on first use; that one-off start is not ingestion.
  await (await services.models.client(principal.tenantId, "embedding", kb.embeddingModel)).embed(["warm up"]);
  const files = corpus.map((doc) => ({ name: `${doc._id}.txt`, data: Buffer.from(`${doc.title ?? ""}\n\n${doc.text ?? ""}`.trim()) }));
  const corpusIdOf = new Map();
  const started = performance.now();
  for (let i = 0; i < files.length; i += BATCH) {
    const { documents } = await services.documents.upload(principal, kb.id, files.slice(i, i + BATCH));
    documents.forEach((d, j) => corpusIdOf.set(d.id, corpus[i + j]._id));
  }
  const uploaded = performance.now();
  const ids = [...corpusIdOf.keys()];
  for (let i = 0; i < ids.length; i += BATCH) await services.documents.runParsing(principal, ids.slice(i, i + BATCH));
  const queued = performance.now();
  const failed = await parsingFinished(services, kb.id, ids.length);
  const done = performance.now();
  return ingestion(services, principal, kb, corpusIdOf, failed, files, {
    upload: (uploaded - started) / 1000,
    queue: (queued - uploaded) / 1000,
    parse: (done - queued) / 1000,
    total: (done - started) / 1000,
  });
}

/** What an ingestion made: the knowledge base as it ended, the corpus ids of its documents, failures, bytes and phases. */
async function ingestion(services, principal, kb, corpusIdOf, failed, files, seconds) {
  return {
    kb: await services.knowledgeBases.accessible(principal, kb.id),
    corpusIdOf,
    failed,
    bytes: files.reduce((sum, f) => sum + f.data.length, 0),
    seconds,
  };
}

/** Waits until every document of the knowledge base finished (done or failed); returns how many failed. */
async function parsingFinished(services, knowledgeBaseId, count) {
  for (;;) {
    const [row] = await services.platform.db.query(
      `SELECT count(*) FILTER (WHERE run IN ('3', '4')) AS finished, count(*) FILTER (WHERE run = '4') AS failed FROM document WHERE knowledge_base_id = $1`,
      [knowledgeBaseId],
    );
    if (Number(row.finished) === count) return Number(row.failed);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The same corpus through the REST API, as a RAGFlow SDK client ingests it: per batch of files, one multipart
 * `POST /api/v1/datasets/{id}/documents`, then `POST /api/v1/datasets/{id}/chunks` with the batch's ids (so the
 * server parses one batch while the next uploads); then it waits until every document finished. Upload and
 * queueing are the sums of those requests' times.
 */
export async function ingestCorpusRest(bench, name, corpus, language = "English") {
  const { services, principal } = bench;
  const kb = await services.knowledgeBases.create(principal, { name, language });
  await (await services.models.client(principal.tenantId, "embedding", kb.embeddingModel)).embed(["warm up"]);
  const { token } = await services.apiTokens.create(principal);
  const call = async (path, body) => {
    const response = await fetch(`${bench.url}/api/v1/datasets/${kb.id}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData ? {} : { "content-type": "application/json" }) }, body: body instanceof FormData ? body : JSON.stringify(body) });
    const answer = await response.json();
    if (answer.code !== 0) throw new Error(`POST ${path}: ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const files = corpus.map((doc) => ({ name: `${doc._id}.txt`, data: Buffer.from(`${doc.title ?? ""}\n\n${doc.text ?? ""}`.trim()) }));
  const corpusIdOf = new Map();
  let upload = 0;
  let queue = 0;
  const started = performance.now();
  for (let i = 0; i < files.length; i += BATCH) {
    const form = new FormData();
    for (const file of files.slice(i, i + BATCH)) form.append("file", new Blob([file.data]), file.name);
    const before = performance.now();
    const documents = await call("/documents", form);
    const uploaded = performance.now();
    documents.forEach((d, j) => corpusIdOf.set(d.id, corpus[i + j]._id));
    await call("/chunks", { document_ids: documents.map((d) => d.id) });
    upload += uploaded - before;
    queue += performance.now() - uploaded;
  }
  const sent = performance.now();
  const failed = await parsingFinished(services, kb.id, files.length);
  const done = performance.now();
  return ingestion(services, principal, kb, corpusIdOf, failed, files, { upload: upload / 1000, queue: queue / 1000, parse: (done - sent) / 1000, total: (done - started) / 1000 });
}

/**
 * The production stack on this machine: Redis, a shared PostgreSQL-protocol database (PGlite behind the
 * serializing proxy of server/src/testing/postgres.ts, in a process of its own), a server that runs no
 * jobs (JOB_CONCURRENCY=0) storing files on local disk, and `workers` worker processes (server/dist/worker.js)
 * sharing its DATA_DIR. Each stack is new: nothing carries over between runs.
 */
export async function startProductionStack(workers) {
  require(path.join(root, "server/src/testing/register-ts.cjs"));
  const { startRedis } = require(path.join(root, "server/src/testing/redis.ts"));
  const redis = await startRedis();
  const database = spawn(process.execPath, ["-r", path.join(root, "server/src/testing/register-ts.cjs"), "-e", DATABASE_PROCESS], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const databaseUrl = await new Promise((resolve, reject) => {
    let output = "";
    database.stdout.on("data", (data) => {
      output += data;
      const found = /^url (\S+)$/m.exec(output);
      if (found) resolve(found[1]);
    });
    database.once("exit", (code) => reject(new Error(`the database process exited with code ${code}`)));
  });
  const shared = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
  const bench = await startBenchServer({ ...shared, JOB_CONCURRENCY: "0" });
  const env = { ...process.env, ...shared, DATA_DIR: bench.dataDir, MODEL_CACHE_DIR: bench.config.modelCacheDir, PORT: "0" };
  const processes = [];
  for (let i = 0; i < workers; i++) {
    const worker = spawn(process.execPath, [path.join(root, "server/dist/worker.js")], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
    processes.push(worker);
    await new Promise((resolve, reject) => {
      let output = "";
      worker.stdout.on("data", (data) => {
        output += data;
        if (output.includes("is running jobs")) resolve();
      });
      worker.once("exit", (code) => reject(new Error(`worker ${i + 1} exited with code ${code}: ${output}`)));
    });
  }
  const ended = (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve)));
  return {
    ...bench,
    workerPids: processes.map((p) => p.pid),
    async close() {
      for (const worker of processes) worker.kill("SIGTERM");
      await Promise.all(processes.map(ended));
      await bench.close();
      database.kill("SIGTERM");
      await ended(database);
      await redis.stop();
    },
  };
}

const DATABASE_PROCESS = `
const { startPostgres } = require("./server/src/testing/postgres.ts");
startPostgres().then((db) => {
  console.log("url " + db.url);
  process.on("SIGTERM", () => db.stop().then(() => process.exit(0)));
});`;

export function writeResult(file, result) {
  const out = path.join(root, "tests/bench/results", file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
}

export const machine = () => ({ cpus: os.cpus().length, node: process.version });
