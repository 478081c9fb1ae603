// npm run bench:retrieval -- <BEIR dir> — ingests the corpus through the real pipeline (embedded mode,
// built-in models) and runs every query that has relevance judgements through the retrieval service the
// testing page, chat and the REST API use, with the default settings (similarity threshold 0 so that the
// ranking, not the cut-off, is measured). Prints nDCG@10, Recall@100, MRR@10 and the latency per query
// (p50/p95/p99) of those 100-hit queries and of the same queries with the service's defaults, then nDCG@10 over a sweep of the vector similarity weight; writes
// tests/bench/results/retrieval-<corpus>.json. BENCH_LIMIT=n keeps the first n documents, BENCH_QUERIES=n the
// first n judged queries.
import { ingestCorpus, loadBeir, machine, startBenchServer, writeResult } from "./beir.mjs";

const beir = loadBeir(process.argv[2]);
const language = /[\u4e00-\u9fff]/.test(beir.corpus.slice(0, 20).map((d) => d.text).join("")) ? "Chinese" : "English";
const queries = beir.queries.filter((q) => beir.qrels.has(q._id)).slice(0, Number(process.env.BENCH_QUERIES ?? Infinity));

function ndcgAt(ranked, relevance, k) {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => (dcg += ((2 ** (relevance.get(id) ?? 0)) - 1) / Math.log2(i + 2)));
  const ideal = [...relevance.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, rel, i) => sum + ((2 ** rel) - 1) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}
const recallAt = (ranked, relevance, k) => ranked.slice(0, k).filter((id) => (relevance.get(id) ?? 0) > 0).length / [...relevance.values()].filter((r) => r > 0).length;
function mrrAt(ranked, relevance, k) {
  const i = ranked.slice(0, k).findIndex((id) => (relevance.get(id) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

const bench = await startBenchServer();
try {
  const { kb, corpusIdOf, seconds } = await ingestCorpus(bench, beir.name, beir.corpus, language);
  console.log(`${beir.name}: ${kb.documentCount} documents, ${kb.chunkCount} chunks ingested in ${seconds.total.toFixed(1)} s; ${queries.length} queries`);

  async function evaluate(vectorSimilarityWeight) {
    const totals = { ndcg10: 0, recall100: 0, mrr10: 0 };
    const latencies = [];
    const stages = { keywordMs: [], vectorMs: [] };
    for (const query of queries) {
      const started = performance.now();
      const result = await bench.services.retrieval.retrieve(bench.principal, {
        question: query.text,
        knowledgeBaseIds: [kb.id],
        similarityThreshold: 0,
        vectorSimilarityWeight,
        pageSize: 100,
      });
      latencies.push(performance.now() - started);
      stages.keywordMs.push(result.timings.keywordMs);
      stages.vectorMs.push(result.timings.vectorMs);
      const ranked = [...new Set(result.hits.map((h) => corpusIdOf.get(h.chunk.documentId)))];
      const relevance = beir.qrels.get(query._id);
      totals.ndcg10 += ndcgAt(ranked, relevance, 10);
      totals.recall100 += recallAt(ranked, relevance, 100);
      totals.mrr10 += mrrAt(ranked, relevance, 10);
    }
    const n = queries.length;
    return {
      vectorSimilarityWeight,
      ndcg10: totals.ndcg10 / n,
      recall100: totals.recall100 / n,
      mrr10: totals.mrr10 / n,
      latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
      keywordMsP50: percentile(stages.keywordMs, 50),
      vectorMsP50: percentile(stages.vectorMs, 50),
    };
  }

  const defaults = await evaluate(0.3);
  console.log(`default settings (vector weight 0.3): nDCG@10 ${defaults.ndcg10.toFixed(4)}, Recall@100 ${defaults.recall100.toFixed(4)}, MRR@10 ${defaults.mrr10.toFixed(4)}`);
  console.log(`latency per query (100 hits): p50 ${defaults.latencyMs.p50.toFixed(1)} ms, p95 ${defaults.latencyMs.p95.toFixed(1)} ms, p99 ${defaults.latencyMs.p99.toFixed(1)} ms (keyword p50 ${defaults.keywordMsP50.toFixed(1)} ms, vector p50 ${defaults.vectorMsP50.toFixed(1)} ms)`);
  // What a user waits for: every query again with nothing but the question, i.e. the service's defaults
  // (threshold 0.2, a page of 30 hits); the ranking above needed 100 hits a query.
  const served = [];
  for (const query of queries) {
    const started = performance.now();
    await bench.services.retrieval.retrieve(bench.principal, { question: query.text, knowledgeBaseIds: [kb.id] });
    served.push(performance.now() - started);
  }
  const servedLatency = { p50: percentile(served, 50), p95: percentile(served, 95), p99: percentile(served, 99) };
  console.log(`latency per query with the service's defaults (30 hits): p50 ${servedLatency.p50.toFixed(1)} ms, p95 ${servedLatency.p95.toFixed(1)} ms, p99 ${servedLatency.p99.toFixed(1)} ms`);
  const sweep = [];
  for (const weight of [0, 0.1, 0.2, 0.4, 0.5, 0.7, 1]) {
    const point = await evaluate(weight);
    sweep.push(point);
    console.log(`  vector weight ${weight.toFixed(1)} (keyword ${(1 - weight).toFixed(1)}): nDCG@10 ${point.ndcg10.toFixed(4)}, Recall@100 ${point.recall100.toFixed(4)}, MRR@10 ${point.mrr10.toFixed(4)}`);
  }
  writeResult(`retrieval-${beir.name}.json`, {
    date: new Date().toISOString(),
    machine: machine(),
    corpus: beir.name,
    documents: kb.documentCount,
    chunks: kb.chunkCount,
    queries: queries.length,
    ingestSeconds: seconds.total,
    defaults,
    servedLatencyMs: servedLatency,
    sweep,
  });
} finally {
  await bench.close();
}
