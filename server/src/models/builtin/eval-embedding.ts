/**
 * Quick, in-memory evaluation of the built-in embedding on BEIR-layout sets (no database, no pipeline):
 * nDCG@10 of the embedding alone, of a plain BM25 written here, and of their fusions.
 *
 *   node -r server/src/testing/register-ts.cjs server/src/models/builtin/eval-embedding.ts [set dir …]
 *   options: --options='{"weights":{…},"relatedWeight":0.3,"dimension":1024}' to evaluate a variant.
 *
 * Each document is embedded and indexed as "title\ntext". BM25 uses the same analysis as the models
 * (Porter2 stems, stop words, jieba) with the textbook k1 = 1.2, b = 0.75. The fusions are the ones the
 * retrieval service can use: a convex combination of BM25 divided by the query's best BM25 score and
 * the raw cosine, at a few keyword weights w; the same with both scores min–max normalised over the
 * union of the two top-100 lists; and reciprocal rank fusion (k = 60). The built-in reranker is scored
 * over the same union, alone and as w·BM25/max + (1 − w)·rerank. No parameter here was fitted to the
 * test queries: the weights are reported side by side, not chosen.
 */
import fs from "node:fs";
import path from "node:path";
import { lexicon } from "./lexicon";
import { DEFAULT_EMBEDDING_OPTIONS, TextVectorizer, type EmbeddingOptions } from "./embedding";
import { lexicalScorer } from "./lexical-rerank";
import { analyze } from "./text-analysis";

interface BenchSet {
  name: string;
  docs: { id: string; text: string }[];
  queries: { id: string; text: string }[];
  qrels: Map<string, Map<string, number>>;
}

function readJsonLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function loadSet(directory: string): BenchSet {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(directory, "qrels.tsv"), "utf8").split("\n").slice(1)) {
    const [query, doc, score] = line.trim().split("\t");
    if (!query || !doc) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)!.set(doc, Number(score));
  }
  const docs = readJsonLines(path.join(directory, "corpus.jsonl")).map((o) => ({ id: String(o._id), text: `${o.title ?? ""}\n${o.text ?? ""}` }));
  const queries = readJsonLines(path.join(directory, "queries.jsonl"))
    .map((o) => ({ id: String(o._id), text: String(o.text) }))
    .filter((q) => qrels.has(q.id));
  return { name: path.basename(directory), docs, queries, qrels };
}

function ndcgAt10(ranked: string[], relevance: Map<string, number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((doc, i) => {
    const gain = relevance.get(doc) ?? 0;
    if (gain > 0) dcg += (2 ** gain - 1) / Math.log2(i + 2);
  });
  const ideal = [...relevance.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((sum, gain, i) => sum + (2 ** gain - 1) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Indices of the k highest scores, ties broken by position (deterministic). */
function top(scores: Float64Array, k: number): number[] {
  const order = Array.from(scores.keys());
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, k);
}

class Bm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: Float64Array;
  private readonly average: number;

  constructor(
    documents: string[][],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.lengths = Float64Array.from(documents, (d) => d.length);
    this.average = this.lengths.reduce((a, c) => a + c, 0) / documents.length;
    documents.forEach((terms, doc) => {
      const counts = new Map<string, number>();
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) {
        if (!this.postings.has(term)) this.postings.set(term, []);
        this.postings.get(term)!.push({ doc, tf });
      }
    });
  }

  scores(query: string[]): Float64Array {
    const n = this.lengths.length;
    const out = new Float64Array(n);
    for (const term of new Set(query)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        out[doc] += (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.average));
      }
    }
    return out;
  }
}

function dotAll(query: Float32Array, matrix: Float32Array, dimension: number): Float64Array {
  const n = matrix.length / dimension;
  const out = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    let s = 0;
    const o = d * dimension;
    for (let i = 0; i < dimension; i++) s += query[i] * matrix[o + i];
    out[d] = s;
  }
  return out;
}

async function evaluate(directory: string, options: EmbeddingOptions) {
  const set = loadSet(directory);
  const vectorizer = new TextVectorizer(await lexicon(), options);
  const dimension = options.dimension;

  // Warm the analysers so that the timing measures embedding, not dictionary loading.
  vectorizer.vector("warm up 预热");
  const started = performance.now();
  const matrix = new Float32Array(set.docs.length * dimension);
  set.docs.forEach((doc, i) => matrix.set(vectorizer.vector(doc.text), i * dimension));
  const embedSeconds = (performance.now() - started) / 1000;

  const bm25 = new Bm25(set.docs.map((d) => analyze(d.text)));
  const scorer = await lexicalScorer();
  const analyzedDocs = set.docs.map((d) => scorer.analyzeText(d.text));
  const ids = set.docs.map((d) => d.id);
  const totals = new Map<string, number>();
  const add = (name: string, ranked: number[], relevance: Map<string, number>) =>
    totals.set(name, (totals.get(name) ?? 0) + ndcgAt10(ranked.map((i) => ids[i]), relevance));

  for (const query of set.queries) {
    const relevance = set.qrels.get(query.id)!;
    const vector = Float32Array.from(vectorizer.vector(query.text));
    const cosine = dotAll(vector, matrix, dimension);
    const keyword = bm25.scores(analyze(query.text));
    add("embedding", top(cosine, 10), relevance);
    add("bm25", top(keyword, 10), relevance);

    const best = Math.max(...keyword) || 1;
    const candidates = [...new Set([...top(keyword, 100), ...top(cosine, 100)])];
    const range = (scores: Float64Array) => {
      const values = candidates.map((i) => scores[i]);
      return { min: Math.min(...values), span: Math.max(...values) - Math.min(...values) || 1 };
    };
    const k = range(keyword);
    const v = range(cosine);
    for (const w of [0.3, 0.5, 0.7]) {
      const fused = new Float64Array(cosine.length);
      const minMax = new Float64Array(cosine.length).fill(-Infinity);
      for (let i = 0; i < fused.length; i++) fused[i] = (w * keyword[i]) / best + (1 - w) * cosine[i];
      for (const i of candidates) minMax[i] = (w * (keyword[i] - k.min)) / k.span + ((1 - w) * (cosine[i] - v.min)) / v.span;
      add(`fusion w=${w} (bm25/max, cosine)`, top(fused, 10), relevance);
      add(`fusion w=${w} (min-max)`, top(minMax, 10), relevance);
    }
    // The built-in reranker over the candidates, alone and in the hybrid formula of §9 (w·term + (1 − w)·rerank).
    const terms = scorer.analyzeQuery(query.text);
    const averageLength = candidates.reduce((sum, i) => sum + analyzedDocs[i].length, 0) / candidates.length;
    const rerank = new Float64Array(cosine.length).fill(-Infinity);
    for (const i of candidates) rerank[i] = scorer.score(terms, analyzedDocs[i], averageLength).score;
    add("rerank (over the candidates)", top(rerank, 10), relevance);
    for (const w of [0.3, 0.5, 0.7]) {
      const hybrid = new Float64Array(cosine.length).fill(-Infinity);
      for (const i of candidates) hybrid[i] = (w * keyword[i]) / best + (1 - w) * rerank[i];
      add(`bm25/max + rerank w=${w}`, top(hybrid, 10), relevance);
    }
    const rrf = new Float64Array(cosine.length);
    top(keyword, 100).forEach((doc, rank) => (rrf[doc] += 1 / (61 + rank)));
    top(cosine, 100).forEach((doc, rank) => (rrf[doc] += 1 / (61 + rank)));
    add("rrf k=60", top(rrf, 10), relevance);
  }

  console.log(`\n${set.name}: ${set.docs.length} documents, ${set.queries.length} queries; embedded in ${embedSeconds.toFixed(1)} s (${Math.round(set.docs.length / embedSeconds)} texts/s)`);
  for (const [name, total] of totals) console.log(`  nDCG@10 ${(total / set.queries.length).toFixed(4)}  ${name}`);
}

async function main() {
  const args = process.argv.slice(2);
  const optionArg = args.find((a) => a.startsWith("--options="));
  const overrides = optionArg ? (JSON.parse(optionArg.slice("--options=".length)) as Partial<EmbeddingOptions>) : {};
  const options: EmbeddingOptions = {
    ...DEFAULT_EMBEDDING_OPTIONS,
    ...overrides,
    weights: { ...DEFAULT_EMBEDDING_OPTIONS.weights, ...overrides.weights },
  };
  const benchRoot = path.resolve(__dirname, "../../../../../shared/bench");
  const sets = args.filter((a) => !a.startsWith("--"));
  const started = performance.now();
  await lexicon();
  console.log(`lexicon ready in ${((performance.now() - started) / 1000).toFixed(1)} s; options ${JSON.stringify(options)}`);
  for (const directory of sets.length > 0 ? sets : [path.join(benchRoot, "scifact"), path.join(benchRoot, "cmrc2018")]) {
    await evaluate(directory, options);
  }
}

void main();
