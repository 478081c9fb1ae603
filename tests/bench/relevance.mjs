// Shared by the retrieval benchmarks: ranking measures, the split of a set's queries into a development half and a
// held-out half, and plain BM25 — the baseline Cairn's keyword side must never fall below.

export function ndcgAt(ranked, relevance, k) {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => (dcg += (2 ** (relevance.get(id) ?? 0) - 1) / Math.log2(i + 2)));
  const ideal = [...relevance.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

export const recallAt = (ranked, relevance, k) => ranked.slice(0, k).filter((id) => (relevance.get(id) ?? 0) > 0).length / [...relevance.values()].filter((r) => r > 0).length;

export function mrrAt(ranked, relevance, k) {
  const i = ranked.slice(0, k).findIndex((id) => (relevance.get(id) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export const HALVES = ["dev", "heldOut"];

/** FNV-1a, 32 bits: a split that is the same on every machine and in every run. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * The half a query belongs to: settings are tuned on "dev" only and checked on "heldOut". Queries are split by
 * their first relevant passage, so that the questions asked of one passage (CMRC 2018, SQuAD ask several) fall in
 * the same half: the held-out half asks about passages tuning never looked at.
 */
export function queryHalf(relevance) {
  return fnv1a([...relevance.keys()].sort()[0] ?? "") & 1 ? "heldOut" : "dev";
}

const HAN = "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u{20000}-\\u{2ffff}";

/**
 * Plain BM25's analysers: lower-cased words with no stemming and no stop words, and Chinese either as single
 * characters (Elasticsearch's standard analyser, BEIR's BM25) or as overlapping character bigrams (the usual
 * Chinese baseline; a lone character stays itself).
 */
export const PLAIN_ANALYSERS = {
  unigrams(text) {
    return [...text.normalize("NFKC").toLowerCase().matchAll(new RegExp(`[${HAN}]|[\\p{L}\\p{N}]+`, "gu"))].map((m) => m[0]);
  },
  bigrams(text) {
    const terms = [];
    for (const [run] of text.normalize("NFKC").toLowerCase().matchAll(new RegExp(`[${HAN}]+|[\\p{L}\\p{N}]+`, "gu"))) {
      const characters = [...run];
      if (!new RegExp(`[${HAN}]`, "u").test(run) || characters.length === 1) terms.push(run);
      else for (let i = 0; i + 1 < characters.length; i++) terms.push(characters[i] + characters[i + 1]);
    }
    return terms;
  },
};

/**
 * nDCG@10 of plain BM25 (k1 1.2, b 0.75) over the corpus entries, one unit each as the benchmark ingests them
 * (the title, a blank line, the text), for every half of the queries.
 */
export function plainBm25(corpus, queries, qrels, analyse) {
  const postings = new Map();
  const lengths = [];
  corpus.forEach((doc, i) => {
    const terms = analyse(`${doc.title ?? ""}\n\n${doc.text ?? ""}`);
    lengths.push(terms.length);
    const frequencies = new Map();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    for (const [term, tf] of frequencies) {
      if (!postings.has(term)) postings.set(term, []);
      postings.get(term).push([i, tf]);
    }
  });
  const n = corpus.length;
  const averageLength = lengths.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  const sums = { dev: 0, heldOut: 0 };
  const counts = { dev: 0, heldOut: 0 };
  for (const query of queries) {
    const scores = new Map();
    for (const term of new Set(analyse(query.text))) {
      const list = postings.get(term) ?? [];
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [i, tf] of list) scores.set(i, (scores.get(i) ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * lengths[i]) / averageLength)));
    }
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([i]) => corpus[i]._id);
    const relevance = qrels.get(query._id);
    const half = queryHalf(relevance);
    sums[half] += ndcgAt(ranked, relevance, 10);
    counts[half] += 1;
  }
  return Object.fromEntries(HALVES.map((half) => [half, counts[half] ? sums[half] / counts[half] : 0]));
}
