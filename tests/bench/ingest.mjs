// npm run bench:ingest -- <BEIR dir> — ingests a BEIR corpus (one .txt document per line of corpus.jsonl:
// the title, a blank line, the text) through the real pipeline of the built server. BENCH_PATH says which way:
// - embedded (the default): in embedded mode (PGlite, in-process queue, built-in embedding), uploaded through
//   the document service and parsed on the job queue. Prints documents/s, chunks/s, MB/s, peak RSS, the time
//   of each phase (upload, queueing, parse until the last document finished), where the parse time went stage
//   by stage (ms per document summed over the jobs, which overlap: start, read, parse, chunk, enrich, embed,
//   write), the server process's CPU per document (both its threads; the parse processes apart) and the time of the
//   database's trigger functions per document (pg_stat_user_functions: postings, counters, change records).
//   Writes tests/bench/results/ingest-<corpus>.json.
// - rest: the same embedded server, but the corpus goes through REST as a RAGFlow SDK client sends it (per batch,
//   POST /api/v1/datasets/{id}/documents then POST /api/v1/datasets/{id}/chunks). Prints its documents/s and its
//   ratio to the embedded figure of the last embedded run; writes ingest-<corpus>-rest.json.
// - workers: the production stack (Redis, a shared PostgreSQL-protocol database, local-disk storage, a server with
//   JOB_CONCURRENCY=0) with 1, 2 and 4 `npm run worker` processes (BENCH_WORKERS=1,2 to choose), a new stack for
//   each; prints documents/s for each; writes ingest-<corpus>-workers.json.
// BENCH_LIMIT=n ingests the first n documents.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ingestCorpus, ingestCorpusRest, loadBeir, machine, root, startBenchServer, startProductionStack, writeResult } from "./beir.mjs";

const require = createRequire(import.meta.url);
const beir = loadBeir(process.argv[2]);
const mode = process.env.BENCH_PATH ?? "embedded";
const load = () => os.loadavg().map((l) => Number(l.toFixed(2)));

function figures(ingested, elapsedCpu, peakRss) {
  const { kb, failed, bytes, seconds } = ingested;
  if (failed > 0) console.warn(`${failed} documents failed`);
  return {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: load(),
    corpus: beir.name,
    documents: kb.documentCount,
    chunks: kb.chunkCount,
    failed,
    megabytes: bytes / 1e6,
    totalSeconds: seconds.total,
    uploadSeconds: seconds.upload,
    queueSeconds: seconds.queue,
    parseSeconds: seconds.parse,
    documentsPerSecond: kb.documentCount / seconds.total,
    chunksPerSecond: kb.chunkCount / seconds.total,
    megabytesPerSecond: bytes / 1e6 / seconds.total,
    ...(elapsedCpu ? { serverCpuMsPerDocument: (elapsedCpu.user + elapsedCpu.system) / 1000 / kb.documentCount } : {}),
    ...(peakRss ? { peakRssMB: peakRss / 1024 / 1024 } : {}),
  };
}

function print(result, label) {
  console.log(`${label}: ${result.corpus}: ${result.documents} documents, ${result.chunks} chunks, ${result.megabytes.toFixed(1)} MB (load ${result.loadAverage.join(" ")})`);
  console.log(`  total ${result.totalSeconds.toFixed(1)} s (upload ${result.uploadSeconds.toFixed(1)} s, queueing ${result.queueSeconds.toFixed(1)} s, parse until the last finished ${result.parseSeconds.toFixed(1)} s)`);
  console.log(
    `  ${result.documentsPerSecond.toFixed(1)} documents/s, ${result.chunksPerSecond.toFixed(1)} chunks/s, ${result.megabytesPerSecond.toFixed(2)} MB/s` +
      (result.peakRssMB ? `, peak RSS ${result.peakRssMB.toFixed(0)} MB` : "") +
      (result.serverCpuMsPerDocument ? `, server CPU ${result.serverCpuMsPerDocument.toFixed(1)} ms/document` : ""),
  );
}

/** Runs an in-process ingestion with the server's stage timings, CPU and peak RSS measured. */
async function measuredInProcess(ingest) {
  const timings = require(path.join(root, "server/dist/ingestion/stage-timings.js"));
  timings.resetStageTimings();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const cpu = process.cpuUsage();
  try {
    const ingested = await ingest();
    const result = figures(ingested, process.cpuUsage(cpu), peakRss);
    const { documents, milliseconds } = timings.stageTimings();
    result.stageMsPerDocument = Object.fromEntries(Object.entries(milliseconds).map(([stage, ms]) => [stage, ms / Math.max(documents, 1)]));
    return result;
  } finally {
    clearInterval(sampler);
  }
}

function printStages(result) {
  const stages = Object.entries(result.stageMsPerDocument).map(([stage, ms]) => `${stage} ${ms.toFixed(2)}`);
  console.log(`  per document, summed over overlapping jobs (ms): ${stages.join(", ")}`);
}

const embeddedResultFile = `ingest-${beir.name}.json`;

if (mode === "embedded" || mode === "rest") {
  const bench = await startBenchServer();
  try {
    const rest = mode === "rest";
    const { db } = bench.services.platform;
    // The embedded database is one session: this times every trigger function from here on.
    await db.query("SET track_functions = 'all'");
    const result = await measuredInProcess(() => (rest ? ingestCorpusRest : ingestCorpus)(bench, beir.name, beir.corpus));
    result.path = mode;
    result.jobConcurrency = bench.config.jobConcurrency;
    const triggers = await db.query(`SELECT funcname AS name, total_time AS ms FROM pg_stat_user_functions WHERE total_time > 0 ORDER BY total_time DESC`);
    result.triggerMsPerDocument = Object.fromEntries(triggers.map((t) => [t.name, t.ms / Math.max(result.documents, 1)]));
    print(result, mode);
    printStages(result);
    const triggerTimes = Object.entries(result.triggerMsPerDocument).map(([name, ms]) => `${name} ${ms.toFixed(2)}`);
    console.log(`  the database's trigger functions, per document (ms): ${triggerTimes.join(", ")}`);
    if (rest) {
      const embeddedFile = path.join(root, "tests/bench/results", embeddedResultFile);
      const embedded = fs.existsSync(embeddedFile) ? JSON.parse(fs.readFileSync(embeddedFile, "utf8")) : null;
      if (embedded) {
        result.embeddedDocumentsPerSecond = embedded.documentsPerSecond;
        result.ratioToEmbedded = result.documentsPerSecond / embedded.documentsPerSecond;
        console.log(`  ${(100 * result.ratioToEmbedded).toFixed(0)} % of the last embedded run's ${embedded.documentsPerSecond.toFixed(1)} documents/s (target: at least 80 %)`);
      }
    }
    writeResult(rest ? `ingest-${beir.name}-rest.json` : embeddedResultFile, result);
  } finally {
    await bench.close();
  }
} else if (mode === "workers") {
  const counts = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
  const runs = [];
  for (const workers of counts) {
    const stack = await startProductionStack(workers);
    try {
      // Each worker loads the built-in models on its first document: that one-off start is not ingestion.
      await ingestCorpus(stack, `${beir.name}-warm-up`, beir.corpus.slice(0, 8 * workers));
      const result = figures(await ingestCorpus(stack, beir.name, beir.corpus));
      result.workers = workers;
      print(result, `${workers} worker${workers > 1 ? "s" : ""}`);
      runs.push(result);
    } finally {
      await stack.close();
    }
  }
  console.log(`documents/s by workers: ${runs.map((r) => `${r.workers}: ${r.documentsPerSecond.toFixed(1)}`).join(", ")}`);
  writeResult(`ingest-${beir.name}-workers.json`, { date: new Date().toISOString(), machine: machine(), corpus: beir.name, runs });
} else {
  console.error(`BENCH_PATH must be embedded, rest or workers, not "${mode}"`);
  process.exit(2);
}
