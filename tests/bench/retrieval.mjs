// npm run bench:retrieval -- <BEIR dir> — ingests the corpus through the real pipeline (embedded mode,
// built-in models) and runs every query that has relevance judgements through the retrieval service the
// testing page, chat and the REST API use, with the default settings (similarity threshold 0 so that the
// ranking, not the cut-off, is measured). Prints nDCG@10, Recall@100, MRR@10 and the latency per query
// (p50/p95/p99) of those 100-hit queries and of the same queries with the service's defaults, then the same two
// passes through `POST /api/v1/retrieval` with an API key (nDCG@10 and latency as a REST client sees them: the key's
// lookup, the route's checks and the JSON answer included), then nDCG@10 over a sweep of the vector similarity weight;
// writes tests/bench/results/retrieval-<corpus>.json. The first pass of each path follows an untimed one over the
// same queries (warm caches, as a server that has been answering). BENCH_NO_SWEEP=1 skips the sweep. BENCH_LIMIT=n keeps the first n documents,
// BENCH_QUERIES=n the first n judged queries. The targets: p95 ≤ 20 ms in the service and ≤ 40 ms through REST.
import os from "node:os";
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

const summary = (values) => ({ p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) });
const ms = (l) => `p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;

const bench = await startBenchServer();
try {
  const { kb, corpusIdOf, seconds } = await ingestCorpus(bench, beir.name, beir.corpus, language);
  console.log(`${beir.name}: ${kb.documentCount} documents, ${kb.chunkCount} chunks ingested in ${seconds.total.toFixed(1)} s; ${queries.length} queries`);
  const { token: apiKey } = await bench.services.apiTokens.create(bench.principal);

  /** One query through the service: its document ids in rank order, and the service's own stage timings. */
  async function throughService(question, settings) {
    const result = await bench.services.retrieval.retrieve(bench.principal, { question, knowledgeBaseIds: [kb.id], ...settings });
    return { documentIds: result.hits.map((h) => h.chunk.documentId), timings: result.timings };
  }
  /** The same query as a RAGFlow client sends it. */
  async function throughRest(question, settings) {
    const body = { question, dataset_ids: [kb.id] };
    if (settings.similarityThreshold !== undefined) body.similarity_threshold = settings.similarityThreshold;
    if (settings.vectorSimilarityWeight !== undefined) body.vector_similarity_weight = settings.vectorSimilarityWeight;
    if (settings.pageSize !== undefined) body.page_size = settings.pageSize;
    const response = await fetch(`${bench.url}/api/v1/retrieval`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (answer.code !== 0) throw new Error(`POST /api/v1/retrieval answered ${JSON.stringify(answer)}`);
    return { documentIds: answer.data.chunks.map((c) => c.document_id) };
  }

  /** Every query (after an untimed pass over them all when `warm`): the ranking's quality and the latencies. */
  async function evaluate(through, settings, { warm = false } = {}) {
    if (warm) for (const query of queries) await through(query.text, settings);
    const totals = { ndcg10: 0, recall100: 0, mrr10: 0 };
    const latencies = [];
    const stages = { keywordMs: [], vectorMs: [] };
    for (const query of queries) {
      const started = performance.now();
      const { documentIds, timings } = await through(query.text, settings);
      latencies.push(performance.now() - started);
      if (timings) {
        stages.keywordMs.push(timings.keywordMs);
        stages.vectorMs.push(timings.vectorMs);
      }
      const ranked = [...new Set(documentIds.map((id) => corpusIdOf.get(id)))];
      const relevance = beir.qrels.get(query._id);
      totals.ndcg10 += ndcgAt(ranked, relevance, 10);
      totals.recall100 += recallAt(ranked, relevance, 100);
      totals.mrr10 += mrrAt(ranked, relevance, 10);
    }
    const n = queries.length;
    return {
      ...(settings.vectorSimilarityWeight === undefined ? {} : { vectorSimilarityWeight: settings.vectorSimilarityWeight }),
      ndcg10: totals.ndcg10 / n,
      recall100: totals.recall100 / n,
      mrr10: totals.mrr10 / n,
      latencyMs: summary(latencies),
      ...(stages.keywordMs.length ? { keywordMsP50: percentile(stages.keywordMs, 50), vectorMsP50: percentile(stages.vectorMs, 50) } : {}),
    };
  }
  // The ranking is measured on 100 hits a query, every hit kept (threshold 0); what a user waits for is every
  // query again with nothing but the question, i.e. the defaults (threshold 0.2, a page of 30 hits).
  const ranking = (vectorSimilarityWeight) => ({ similarityThreshold: 0, vectorSimilarityWeight, pageSize: 100 });
  const quality = (p) => `nDCG@10 ${p.ndcg10.toFixed(4)}, Recall@100 ${p.recall100.toFixed(4)}, MRR@10 ${p.mrr10.toFixed(4)}`;

  const defaults = await evaluate(throughService, ranking(0.3), { warm: true });
  console.log(`service, default weight 0.3, 100 hits: ${quality(defaults)}; latency ${ms(defaults.latencyMs)} (keyword p50 ${defaults.keywordMsP50.toFixed(1)} ms, vector p50 ${defaults.vectorMsP50.toFixed(1)} ms)`);
  const served = await evaluate(throughService, {});
  console.log(`service, defaults (30 hits): latency ${ms(served.latencyMs)}`);
  const rest = await evaluate(throughRest, ranking(0.3), { warm: true });
  console.log(`REST, default weight 0.3, 100 hits: ${quality(rest)}; latency ${ms(rest.latencyMs)}`);
  const restServed = await evaluate(throughRest, {});
  console.log(`REST, defaults (30 hits): latency ${ms(restServed.latencyMs)}`);
  console.log(`targets: service p95 ${served.latencyMs.p95.toFixed(1)} ms (≤ 20), REST p95 ${restServed.latencyMs.p95.toFixed(1)} ms (≤ 40), nDCG@10 through REST ${rest.ndcg10.toFixed(4)} (≥ 0.701)`);

  const sweep = [];
  if (!process.env.BENCH_NO_SWEEP) {
    for (const weight of [0, 0.1, 0.2, 0.4, 0.5, 0.7, 1]) {
      const point = await evaluate(throughService, ranking(weight));
      sweep.push(point);
      console.log(`  vector weight ${weight.toFixed(1)} (keyword ${(1 - weight).toFixed(1)}): ${quality(point)}`);
    }
  }
  writeResult(`retrieval-${beir.name}.json`, {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg(),
    corpus: beir.name,
    documents: kb.documentCount,
    chunks: kb.chunkCount,
    queries: queries.length,
    ingestSeconds: seconds.total,
    defaults,
    servedLatencyMs: served.latencyMs,
    rest: { ranking: rest, servedLatencyMs: restServed.latencyMs },
    sweep,
  });
} finally {
  await bench.close();
}
