// npm run bench:retrieval -- <BEIR dir> — ingests the corpus through the real pipeline (embedded mode,
// built-in models) and runs every query that has relevance judgements through the retrieval service the
// testing page, chat and the REST API use, with the default settings (similarity threshold 0 so that the
// ranking, not the cut-off, is measured). Prints nDCG@10 (over all queries, and over the development and held-out
// halves of relevance.mjs, beside plain BM25's on each half), Recall@100, MRR@10 and the latency per query
// (p50/p95/p99) of those 100-hit queries and of the same queries with the service's defaults, then the same two
// passes through `POST /api/v1/retrieval` with an API key (nDCG@10 and latency as a REST client sees them: the key's
// lookup, the route's checks and the JSON answer included), then nDCG@10 over a sweep of the vector similarity weight;
// writes tests/bench/results/retrieval-<corpus>.json. The first pass of each path follows an untimed one over the
// same queries (warm caches, as a server that has been answering), on the knowledge base's packed postings (packed
// once ingested, as the server does once it stops changing; the time it took is printed). BENCH_NO_SWEEP=1 skips the sweep. BENCH_LIMIT=n keeps the first n documents,
// BENCH_QUERIES=n the first n judged queries, BENCH_SCRIPT=traditional a Chinese set in Traditional script (traditional-passages: its passages only). The targets: p95 ≤ 20 ms in the service and ≤ 40 ms through REST.
import os from "node:os";
import { ingestCorpus, loadBeir, machine, startBenchServer, writeResult } from "./beir.mjs";
import { HALVES, mrrAt, ndcgAt, PLAIN_ANALYSERS, plainBm25, queryHalf, recallAt } from "./relevance.mjs";

const beir = loadBeir(process.argv[2]);
const chinese = /[\u4e00-\u9fff]/.test(beir.corpus.slice(0, 20).map((d) => d.text).join(""));
const language = chinese ? "Chinese" : "English";
const queries = beir.queries.filter((q) => beir.qrels.has(q._id)).slice(0, Number(process.env.BENCH_QUERIES ?? Infinity));

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/**
 * Other ways to fuse the keyword and vector similarities of the same candidates (the service's hits, each with
 * both), against the service's weighted sum: reciprocal-rank fusion (Cormack et al., 2009; k = 60) of the two
 * rankings, equally weighted and weighted as the sum is (0.7 / 0.3); and the sum with another normalisation.
 */
function reciprocalRankFusion(keywordWeight, k = 60) {
  return (hits) => {
    const rankBy = (key) => new Map([...hits.keys()].sort((a, b) => hits[b][key] - hits[a][key] || a - b).map((index, rank) => [index, rank + 1]));
    const byTerm = rankBy("term");
    const byVector = rankBy("vector");
    const score = (i) => keywordWeight / (k + byTerm.get(i)) + (1 - keywordWeight) / (k + byVector.get(i));
    return [...hits.keys()].sort((a, b) => score(b) - score(a) || a - b).map((i) => hits[i].documentId);
  };
}
/**
 * The weighted sum with the keyword score divided by the best candidate's instead of saturated against the question's
 * Σ weight·idf: every question's best keyword hit scores 1, however many terms it has (bm25 / Σ weight·idf is
 * −ln(1 − term similarity), so it is read back from the hits).
 */
function maxNormalisedSum(keywordWeight) {
  return (hits) => {
    const keyword = hits.map((h) => -Math.log(Math.max(1e-12, 1 - h.term)));
    const best = Math.max(...keyword, 1e-12);
    const score = (i) => (keywordWeight * keyword[i]) / best + (1 - keywordWeight) * hits[i].vector;
    return [...hits.keys()].sort((a, b) => score(b) - score(a) || a - b).map((i) => hits[i].documentId);
  };
}
const FUSIONS = {
  "RRF, equal weights": reciprocalRankFusion(0.5),
  "RRF, 0.7 keyword / 0.3 vector": reciprocalRankFusion(0.7),
  "a weighted sum, keyword score over the best candidate's, 0.7 / 0.3": maxNormalisedSum(0.7),
};

const summary = (values) => ({ p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) });
const ms = (l) => `p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;

const bench = await startBenchServer();
try {
  const { kb, corpusIdOf, seconds } = await ingestCorpus(bench, beir.name, beir.corpus, language);
  console.log(`${beir.name}: ${kb.documentCount} documents, ${kb.chunkCount} chunks ingested in ${seconds.total.toFixed(1)} s; ${queries.length} queries`);
  // What the server's packer does once the knowledge base has stopped changing for a pass interval, done now.
  const packStarted = performance.now();
  await bench.services.postingsPacker.packAll();
  const packSeconds = (performance.now() - packStarted) / 1000;
  console.log(`postings packed in ${packSeconds.toFixed(1)} s`);
  const { token: apiKey } = await bench.services.apiTokens.create(bench.principal);

  /** One query through the service: its document ids in rank order, and the service's own stage timings. */
  async function throughService(question, settings) {
    const result = await bench.services.retrieval.retrieve(bench.principal, { question, knowledgeBaseIds: [kb.id], ...settings });
    const hits = result.hits.map((h) => ({ documentId: h.chunk.documentId, term: h.termSimilarity, vector: h.vectorSimilarity }));
    return { documentIds: hits.map((h) => h.documentId), hits, timings: result.timings };
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
  async function evaluate(through, settings, { warm = false, fusions = {} } = {}) {
    if (warm) for (const query of queries) await through(query.text, settings);
    const totals = { ndcg10: 0, recall100: 0, mrr10: 0 };
    const halves = { dev: { sum: 0, count: 0 }, heldOut: { sum: 0, count: 0 } };
    const fused = Object.fromEntries(Object.keys(fusions).map((name) => [name, { dev: 0, heldOut: 0 }]));
    const latencies = [];
    let unanswered = 0;
    const stages = { keywordMs: [], vectorMs: [] };
    for (const query of queries) {
      const started = performance.now();
      const { documentIds, hits, timings } = await through(query.text, settings);
      latencies.push(performance.now() - started);
      if (documentIds.length === 0) unanswered += 1;
      if (timings) {
        stages.keywordMs.push(timings.keywordMs);
        stages.vectorMs.push(timings.vectorMs);
      }
      const ranked = [...new Set(documentIds.map((id) => corpusIdOf.get(id)))];
      const relevance = beir.qrels.get(query._id);
      const ndcg10 = ndcgAt(ranked, relevance, 10);
      totals.ndcg10 += ndcg10;
      const half = halves[queryHalf(relevance)];
      half.sum += ndcg10;
      half.count += 1;
      for (const [name, fuse] of Object.entries(fusions)) {
        fused[name][queryHalf(relevance)] += ndcgAt([...new Set(fuse(hits).map((id) => corpusIdOf.get(id)))], relevance, 10);
      }
      totals.recall100 += recallAt(ranked, relevance, 100);
      totals.mrr10 += mrrAt(ranked, relevance, 10);
    }
    const n = queries.length;
    return {
      ...(settings.vectorSimilarityWeight === undefined ? {} : { vectorSimilarityWeight: settings.vectorSimilarityWeight }),
      ndcg10: totals.ndcg10 / n,
      ndcg10ByHalf: Object.fromEntries(HALVES.map((h) => [h, halves[h].count ? halves[h].sum / halves[h].count : 0])),
      ...(Object.keys(fusions).length ? { fusions: Object.fromEntries(Object.entries(fused).map(([name, sums]) => [name, Object.fromEntries(HALVES.map((h) => [h, halves[h].count ? sums[h] / halves[h].count : 0]))])) } : {}),
      recall100: totals.recall100 / n,
      mrr10: totals.mrr10 / n,
      unanswered,
      latencyMs: summary(latencies),
      ...(stages.keywordMs.length ? { keywordMsP50: percentile(stages.keywordMs, 50), vectorMsP50: percentile(stages.vectorMs, 50) } : {}),
    };
  }
  // The ranking is measured on 100 hits a query, every hit kept (threshold 0); what a user waits for is every
  // query again with nothing but the question, i.e. the defaults (threshold 0.2, a page of 30 hits).
  const ranking = (vectorSimilarityWeight) => ({ similarityThreshold: 0, vectorSimilarityWeight, pageSize: 100 });
  const byHalf = (h) => `dev ${h.dev.toFixed(4)}, held-out ${h.heldOut.toFixed(4)}`;
  const quality = (p) => `nDCG@10 ${p.ndcg10.toFixed(4)} (${byHalf(p.ndcg10ByHalf)}), Recall@100 ${p.recall100.toFixed(4)}, MRR@10 ${p.mrr10.toFixed(4)}`;
  // Plain BM25 over the same entries: Chinese as characters (BEIR's BM25) and, for Chinese, as bigrams too.
  const baselines = Object.fromEntries(
    Object.entries(PLAIN_ANALYSERS)
      .filter(([name]) => chinese || name === "unigrams")
      .map(([name, analyse]) => [name, plainBm25(beir.corpus, queries, beir.qrels, analyse)]),
  );
  for (const [name, halves] of Object.entries(baselines)) console.log(`plain BM25 (${name === "unigrams" ? "words, no stemming" + (chinese ? "; Chinese characters" : "") : "words; Chinese character bigrams"}): nDCG@10 ${byHalf(halves)}`);

  const defaults = await evaluate(throughService, ranking(0.3), { warm: true, fusions: FUSIONS });
  console.log(`service, default weight 0.3, 100 hits: ${quality(defaults)}; latency ${ms(defaults.latencyMs)} (keyword p50 ${defaults.keywordMsP50.toFixed(1)} ms, vector p50 ${defaults.vectorMsP50.toFixed(1)} ms)`);
  for (const [name, halves] of Object.entries(defaults.fusions)) console.log(`  the same candidates fused by ${name}: nDCG@10 ${byHalf(halves)}`);
  // The built-in reranker over the first 64 candidates, as an assistant or the testing page may ask for it.
  const reranked = await evaluate(throughService, { ...ranking(0.3), rerankModel: "cairn-lexical-rerank@Builtin" });
  console.log(`service, default weight 0.3, built-in rerank: ${quality(reranked)}; latency ${ms(reranked.latencyMs)}`);
  const served = await evaluate(throughService, {});
  console.log(`service, defaults (threshold 0.2, 30 hits): nDCG@10 ${byHalf(served.ndcg10ByHalf)}, ${served.unanswered} of ${queries.length} queries with no hit; latency ${ms(served.latencyMs)}`);
  const rest = await evaluate(throughRest, ranking(0.3), { warm: true });
  console.log(`REST, default weight 0.3, 100 hits: ${quality(rest)}; latency ${ms(rest.latencyMs)}`);
  const restServed = await evaluate(throughRest, {});
  console.log(`REST, defaults (30 hits): latency ${ms(restServed.latencyMs)}`);
  console.log(`targets: service p95 ${served.latencyMs.p95.toFixed(1)} ms (≤ 20), REST p95 ${restServed.latencyMs.p95.toFixed(1)} ms (≤ 40), nDCG@10 through REST ${rest.ndcg10.toFixed(4)} (≥ 0.701)`);
  const best = Object.fromEntries(HALVES.map((h) => [h, Math.max(...Object.values(baselines).map((b) => b[h]))]));
  const margins = HALVES.map((h) => `${h === "dev" ? "dev" : "held-out"} ${(defaults.ndcg10ByHalf[h] - best[h] >= 0 ? "+" : "") + (defaults.ndcg10ByHalf[h] - best[h]).toFixed(4)}`);
  console.log(`never below plain BM25 (the better of the plain analysers): ${margins.join(", ")}`);

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
    packSeconds,
    script: beir.script,
    plainBm25: baselines,
    defaults,
    reranked,
    served: { ndcg10ByHalf: served.ndcg10ByHalf, unanswered: served.unanswered },
    servedLatencyMs: served.latencyMs,
    rest: { ranking: rest, servedLatencyMs: restServed.latencyMs },
    sweep,
  });
} finally {
  await bench.close();
}
