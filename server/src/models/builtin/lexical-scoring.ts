import { chineseIdfTable } from "./chinese-idf";
import type { WordStatistics } from "./lexicon";
import { tokenize, type Token } from "./text-analysis";

/**
 * Lexical relevance of a text to a query, in 0..1, shared by the built-in reranker and the extractive
 * chat model. It is BM25 in its per-term form — saturating term frequency (k1 = 1.2) with length
 * normalisation (b = 0.75) against the other texts being compared — weighted by corpus-free IDFs
 * (WordNet glosses for English, jieba's table for Chinese), and divided by the best score the query
 * could reach, so that 1 means "every query term, well represented". On top of it:
 * - WordNet-related stems count as a third of an occurrence ("physician" answers "doctor");
 * - for Chinese, character bigrams are matched too (half weight), so that a different segmentation of
 *   the same characters still matches;
 * - proximity: the closer the matched query terms sit (the smallest window holding two of them, as in
 *   Tao & Zhai's MinDist), the more of the last 15 % of the score is granted.
 */

export interface QueryTerm {
  term: string;
  weight: number;
  related: [string, number][];
}

export interface AnalyzedText {
  /** Term → positions (token indices). */
  positions: Map<string, number[]>;
  length: number;
}

export interface LexicalScore {
  score: number;
  /** Share of the query's weight whose terms occur in the text (exactly or through WordNet). */
  coverage: number;
  /** Query terms found. */
  matched: string[];
}

const K1 = 1.2;
const B = 0.75;
const RELATED_OCCURRENCE = 1 / 3;
const BIGRAM_WEIGHT = 0.5;
const PROXIMITY_SHARE = 0.15;

const CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
const INTERROGATIVE = /[哪谁誰什甚么麼几幾怎啥吗嗎呢]/;

export class LexicalScorer {
  /** The IDF of an English word no WordNet gloss uses. */
  readonly maxIdf: number;

  constructor(private readonly statistics: WordStatistics) {
    this.maxIdf = Math.log(statistics.glossCount + 1);
  }

  /** How specific a term is, from resources that ship with Cairn: never from the texts at hand. */
  idf(token: Pick<Token, "term" | "cjk">): number {
    if (token.cjk) {
      const { table, median } = chineseIdfTable();
      return table.get(token.term) ?? median;
    }
    return this.statistics.idf.get(token.term) ?? this.maxIdf;
  }

  /** WordNet opposites of a stem, also for comparatives and superlatives ("largest" → "small"). */
  antonyms(stem: string): string[] {
    const direct = this.statistics.antonyms.get(stem);
    if (direct) return direct;
    const base = /^(.{3,}?)(?:est|er)$/.exec(stem)?.[1];
    return (base && (this.statistics.antonyms.get(base) ?? this.statistics.antonyms.get(`${base}e`))) || [];
  }

  private bigramIdf(bigram: string): number {
    const { table, median } = chineseIdfTable();
    return table.get(bigram) ?? Math.max(table.get(bigram[0]) ?? median, table.get(bigram[1]) ?? median);
  }

  analyzeQuery(text: string): QueryTerm[] {
    const terms = new Map<string, QueryTerm>();
    for (const token of tokenize(text)) {
      if (terms.has(token.term)) continue;
      terms.set(token.term, {
        term: token.term,
        weight: this.idf(token),
        related: token.cjk ? [] : (this.statistics.related.get(token.term) ?? []),
      });
    }
    for (const bigram of chineseBigrams(text)) {
      // A bigram holding an interrogative (哪两, 由谁) is the question's own form, never the answer's text.
      if (INTERROGATIVE.test(bigram)) continue;
      const key = `\u0002${bigram}`;
      if (!terms.has(key)) terms.set(key, { term: key, weight: BIGRAM_WEIGHT * this.bigramIdf(bigram), related: [] });
    }
    return [...terms.values()];
  }

  analyzeText(text: string): AnalyzedText {
    const positions = new Map<string, number[]>();
    const tokens = tokenize(text);
    tokens.forEach((token, i) => {
      const list = positions.get(token.term);
      if (list) list.push(i);
      else positions.set(token.term, [i]);
    });
    // Bigrams are placed at the position of the token they start in, roughly, for proximity purposes.
    let offset = 0;
    for (const bigram of chineseBigrams(text)) {
      const key = `\u0002${bigram}`;
      const list = positions.get(key);
      if (list) list.push(offset);
      else positions.set(key, [offset]);
      offset++;
    }
    return { positions, length: tokens.length };
  }

  /**
   * The score of one text among others whose average length is `averageLength` (pass the text's own
   * length when there is nothing to compare with).
   */
  score(query: QueryTerm[], text: AnalyzedText, averageLength: number): LexicalScore {
    const total = query.reduce((sum, t) => sum + t.weight, 0);
    if (total === 0) return { score: 0, coverage: 0, matched: [] };
    const lengthFactor = 1 - B + (B * text.length) / Math.max(averageLength, 1);
    let achieved = 0;
    let covered = 0;
    const matched: string[] = [];
    const matchedPositions: { weight: number; positions: number[] }[] = [];
    for (const q of query) {
      let tf = text.positions.get(q.term)?.length ?? 0;
      const exact = tf > 0;
      let relatedPositions: number[] = [];
      for (const [stem, share] of q.related) {
        const found = text.positions.get(stem);
        if (!found) continue;
        tf += RELATED_OCCURRENCE * share * found.length;
        relatedPositions = relatedPositions.concat(found);
      }
      if (tf === 0) continue;
      achieved += (q.weight * (tf * (K1 + 1))) / (tf + K1 * lengthFactor) / (K1 + 1);
      covered += exact ? q.weight : q.weight * Math.min(1, tf);
      if (exact) matched.push(q.term);
      matchedPositions.push({ weight: q.weight, positions: exact ? text.positions.get(q.term)! : relatedPositions });
    }
    const lexical = achieved / total;
    const proximity = closeness(matchedPositions);
    return { score: lexical * (1 - PROXIMITY_SHARE + PROXIMITY_SHARE * proximity), coverage: covered / total, matched };
  }
}

/**
 * 1 when two matched query terms are adjacent, decaying with the distance between the closest pair
 * (Tao & Zhai's MinDist); 0 when fewer than two query terms matched.
 */
function closeness(terms: { positions: number[] }[]): number {
  if (terms.length < 2) return 0;
  const events: [number, number][] = [];
  terms.forEach((t, i) => t.positions.forEach((p) => events.push([p, i])));
  events.sort((a, b) => a[0] - b[0]);
  let best = Infinity;
  for (let i = 1; i < events.length; i++) {
    if (events[i][1] !== events[i - 1][1]) best = Math.min(best, events[i][0] - events[i - 1][0]);
  }
  return best === Infinity ? 0 : Math.exp(-(Math.max(best, 1) - 1) / 4);
}

export function chineseBigrams(text: string): string[] {
  const bigrams: string[] = [];
  for (const run of text.normalize("NFKC").match(CJK_RUN) ?? []) {
    for (let i = 1; i < run.length; i++) bigrams.push(run.slice(i - 1, i + 1));
  }
  return bigrams;
}
