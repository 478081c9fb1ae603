// npm run bench:ingest -- <BEIR dir> — ingests a BEIR corpus (one .txt document per line of corpus.jsonl:
// the title, a blank line, the text) through the real pipeline of the built server in embedded mode
// (PGlite, in-process queue, built-in embedding): upload through the document service, parse on the job
// queue, chunk, embed, index. Prints documents/s, chunks/s, MB/s, peak RSS and the time of each phase;
// writes tests/bench/results/ingest-<corpus>.json. Run `npm run build` first (npm run bench:ingest does).
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const require = createRequire(import.meta.url);
const { startServer } = require(path.join(root, "server/dist/app.js"));
const { loadConfig } = require(path.join(root, "server/dist/config.js"));

const corpusDir = process.argv[2];
if (!corpusDir || !fs.existsSync(path.join(corpusDir, "corpus.jsonl"))) {
  console.error("usage: npm run bench:ingest -- <BEIR directory with corpus.jsonl>");
  process.exit(2);
}
const limit = Number(process.env.BENCH_LIMIT ?? Infinity);
const corpus = fs
  .readFileSync(path.join(corpusDir, "corpus.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .slice(0, limit)
  .map((line) => JSON.parse(line));
const files = corpus.map((doc) => ({ name: `${doc._id}.txt`, data: Buffer.from(`${doc.title ?? ""}\n\n${doc.text ?? ""}`.trim()) }));
const totalBytes = files.reduce((sum, f) => sum + f.data.length, 0);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bench-ingest-"));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: "0",
  HOST: "127.0.0.1",
  CLIENT_DIR: path.join(dataDir, "no-client"),
  MODEL_CACHE_DIR: process.env.MODEL_CACHE_DIR ?? path.join(os.tmpdir(), "cairn-model-cache"),
});
const server = await startServer(config);
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
try {
  const { services } = server;
  const email = `bench-${Date.now()}@example.com`;
  await services.auth.register({ email, nickname: "bench", password: "bench password 1" });
  const { token } = await services.auth.login({ email, password: "bench password 1", remember: false });
  const principal = await services.principalFor(`Bearer ${token}`);
  const kb = await services.knowledgeBases.create(principal, { name: path.basename(path.resolve(corpusDir)) });
  // The built-in embedding loads its WordNet tables on first use; that one-off start is not ingestion.
  await (await services.models.client(principal.tenantId, "embedding", kb.embeddingModel)).embed(["warm up"]);

  const started = performance.now();
  const ids = [];
  for (let i = 0; i < files.length; i += 128) {
    const { documents } = await services.documents.upload(principal, kb.id, files.slice(i, i + 128));
    ids.push(...documents.map((d) => d.id));
  }
  const uploaded = performance.now();
  for (let i = 0; i < ids.length; i += 128) await services.documents.runParsing(principal, ids.slice(i, i + 128));
  const queued = performance.now();
  let finished = 0;
  for (;;) {
    const [row] = await services.platform.db.query(
      `SELECT count(*) FILTER (WHERE run IN ('3', '4')) AS finished, count(*) FILTER (WHERE run = '4') AS failed FROM document WHERE knowledge_base_id = $1`,
      [kb.id],
    );
    finished = Number(row.finished);
    if (finished === ids.length) {
      if (Number(row.failed) > 0) console.warn(`${row.failed} documents failed`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const done = performance.now();
  const after = await services.knowledgeBases.accessible(principal, kb.id);
  const seconds = (done - started) / 1000;
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    corpus: path.basename(path.resolve(corpusDir)),
    documents: ids.length,
    chunks: after.chunkCount,
    megabytes: totalBytes / 1e6,
    jobConcurrency: config.jobConcurrency,
    totalSeconds: seconds,
    uploadSeconds: (uploaded - started) / 1000,
    queueSeconds: (queued - uploaded) / 1000,
    parseSeconds: (done - queued) / 1000,
    documentsPerSecond: ids.length / seconds,
    chunksPerSecond: after.chunkCount / seconds,
    megabytesPerSecond: totalBytes / 1e6 / seconds,
    peakRssMB: peakRss / 1024 / 1024,
  };
  console.log(`${result.corpus}: ${result.documents} documents, ${result.chunks} chunks, ${result.megabytes.toFixed(1)} MB`);
  console.log(`total ${seconds.toFixed(1)} s (upload ${result.uploadSeconds.toFixed(1)} s, queueing ${result.queueSeconds.toFixed(1)} s, parse/embed/index ${result.parseSeconds.toFixed(1)} s)`);
  console.log(`${result.documentsPerSecond.toFixed(1)} documents/s, ${result.chunksPerSecond.toFixed(1)} chunks/s, ${result.megabytesPerSecond.toFixed(2)} MB/s, peak RSS ${result.peakRssMB.toFixed(0)} MB`);
  const out = path.join(root, `tests/bench/results/ingest-${result.corpus}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
} finally {
  clearInterval(sampler);
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
