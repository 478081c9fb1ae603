// npm run bench:ingest -- <BEIR dir> — ingests a BEIR corpus (one .txt document per line of corpus.jsonl:
// the title, a blank line, the text) through the real pipeline of the built server in embedded mode
// (PGlite, in-process queue, built-in embedding): upload through the document service, parse on the job
// queue, chunk, embed, index. Prints documents/s, chunks/s, MB/s, peak RSS and the time of each phase;
// writes tests/bench/results/ingest-<corpus>.json. BENCH_LIMIT=n ingests the first n documents.
import { ingestCorpus, loadBeir, machine, startBenchServer, writeResult } from "./beir.mjs";

const beir = loadBeir(process.argv[2]);
const bench = await startBenchServer();
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
try {
  const { kb, failed, bytes, seconds } = await ingestCorpus(bench, beir.name, beir.corpus);
  if (failed > 0) console.warn(`${failed} documents failed`);
  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    corpus: beir.name,
    documents: kb.documentCount,
    chunks: kb.chunkCount,
    megabytes: bytes / 1e6,
    jobConcurrency: bench.config.jobConcurrency,
    totalSeconds: seconds.total,
    uploadSeconds: seconds.upload,
    queueSeconds: seconds.queue,
    parseSeconds: seconds.parse,
    documentsPerSecond: kb.documentCount / seconds.total,
    chunksPerSecond: kb.chunkCount / seconds.total,
    megabytesPerSecond: bytes / 1e6 / seconds.total,
    peakRssMB: peakRss / 1024 / 1024,
  };
  console.log(`${result.corpus}: ${result.documents} documents, ${result.chunks} chunks, ${result.megabytes.toFixed(1)} MB`);
  console.log(`total ${seconds.total.toFixed(1)} s (upload ${seconds.upload.toFixed(1)} s, queueing ${seconds.queue.toFixed(1)} s, parse/embed/index ${seconds.parse.toFixed(1)} s)`);
  console.log(`${result.documentsPerSecond.toFixed(1)} documents/s, ${result.chunksPerSecond.toFixed(1)} chunks/s, ${result.megabytesPerSecond.toFixed(2)} MB/s, peak RSS ${result.peakRssMB.toFixed(0)} MB`);
  writeResult(`ingest-${result.corpus}.json`, result);
} finally {
  clearInterval(sampler);
  await bench.close();
}
