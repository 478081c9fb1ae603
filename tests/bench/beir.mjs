// Shared by the benchmarks: a BEIR data set, and a built server in embedded mode on a temporary DATA_DIR
// with one signed-in user, through which a corpus is ingested by the real pipeline.
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

/** corpus.jsonl, queries.jsonl and qrels.tsv of a BEIR directory; BENCH_LIMIT keeps the first n documents. */
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
  return { name: path.basename(path.resolve(directory)), corpus, queries, qrels };
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
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

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
  for (let i = 0; i < files.length; i += 128) {
    const { documents } = await services.documents.upload(principal, kb.id, files.slice(i, i + 128));
    documents.forEach((d, j) => corpusIdOf.set(d.id, corpus[i + j]._id));
  }
  const uploaded = performance.now();
  const ids = [...corpusIdOf.keys()];
  for (let i = 0; i < ids.length; i += 128) await services.documents.runParsing(principal, ids.slice(i, i + 128));
  const queued = performance.now();
  let failed = 0;
  for (;;) {
    const [row] = await services.platform.db.query(
      `SELECT count(*) FILTER (WHERE run IN ('3', '4')) AS finished, count(*) FILTER (WHERE run = '4') AS failed FROM document WHERE knowledge_base_id = $1`,
      [kb.id],
    );
    failed = Number(row.failed);
    if (Number(row.finished) === ids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const done = performance.now();
  return {
    kb: await services.knowledgeBases.accessible(principal, kb.id),
    corpusIdOf,
    failed,
    bytes: files.reduce((sum, f) => sum + f.data.length, 0),
    seconds: { upload: (uploaded - started) / 1000, queue: (queued - uploaded) / 1000, parse: (done - queued) / 1000, total: (done - started) / 1000 },
  };
}

export function writeResult(file, result) {
  const out = path.join(root, "tests/bench/results", file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
}

export const machine = () => ({ cpus: os.cpus().length, node: process.version });
