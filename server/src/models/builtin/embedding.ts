import type { EmbeddingModel, EmbeddingResult } from "../model-types";
import { countTokens } from "../tokens";
import { finalMix, murmur3, pairHash } from "./hashing";
import { chineseIdfTable } from "./chinese-idf";
import { lexicon, ngrams, type Lexicon } from "./lexicon";
import { tokenize, type Token } from "./text-analysis";

/**
 * Cairn's built-in embedding ("cairn-embedding"): no neural network — there are no weights to ship —
 * but a fixed, deterministic text-to-vector map built from resources inside npm packages. A text is
 * the weighted sum of four normalised parts, each a classic retrieval signal:
 *
 *  - words (45 %): stems (or jieba words for Chinese) weighted by a saturating term frequency (BM25's
 *    k1 = 1.2) and an IDF estimated from WordNet's glosses (from jieba's IDF table for Chinese), plus
 *    the stems WordNet relates to them (synonyms, derivations, pertainyms) at 30 % of their weight;
 *  - character n-grams (30 %): 3–5-grams of each word with IDFs from WordNet's glosses (for Chinese,
 *    character unigrams and bigrams with jieba's IDFs), which meet morphological variants stemming
 *    misses ("vasodilating" / "vasodilator", "ageing") and survive segmentation differences;
 *  - word pairs (15 %): adjacent term pairs, the proximity evidence of the sequential dependence model;
 *  - concepts (10 %): IDF-weighted sum of 128-dimensional LSA word vectors learnt from WordNet (see
 *    lexicon.ts), which brings together words that never co-occur in the text.
 *
 * The sparse parts are feature-hashed (signed, MurmurHash3) into the vector, the concept part occupies
 * its own leading dimensions. Because each part is normalised before they are mixed, the cosine of two
 * vectors is approximately the weighted mean of the four parts' cosines. Same text, same vector, in any
 * process; queries and documents are embedded alike.
 */

export const EMBEDDING_DIMENSION = 1024;

export interface EmbeddingOptions {
  dimension: number;
  /** Share of each part in the cosine; they are renormalised over the parts a text actually has. */
  weights: { words: number; grams: number; pairs: number; concepts: number };
  /** Weight of WordNet-related stems relative to the stem itself. */
  relatedWeight: number;
}

export const DEFAULT_EMBEDDING_OPTIONS: EmbeddingOptions = {
  dimension: EMBEDDING_DIMENSION,
  weights: { words: 0.45, grams: 0.3, pairs: 0.15, concepts: 0.1 },
  relatedWeight: 0.3,
};

/** Dimensions each word or pair feature is spread over; n-grams, ten times more numerous, get fewer. */
const FEATURE_COPIES = 4;
const GRAM_COPIES = 2;

const SEED_WORDS = 0x5eed0001;
const SEED_GRAMS = 0x5eed0002;

/** BM25's term-frequency saturation with k1 = 1.2, without length normalisation (cosine does that). */
function saturate(tf: number): number {
  return (tf * 2.2) / (tf + 1.2);
}

interface WordFeatures {
  hash: number;
  idf: number;
  /** Hashes and relative weights of WordNet-related stems. */
  related: [number, number][];
  /** Row of the word in the concept vectors, or -1. */
  concept: number;
}

interface GramFeatures {
  hashes: number[];
  weights: number[];
}

/** Bounded memo: vocabularies repeat, and a word's features never change. */
class Memo<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string, make: () => V): V {
    let value = this.map.get(key);
    if (value === undefined) {
      value = make();
      if (this.map.size >= this.limit) this.map.clear();
      this.map.set(key, value);
    }
    return value;
  }
}

/** Turns texts into vectors with one lexicon; stateless apart from its memos. */
export class TextVectorizer {
  private readonly words = new Memo<WordFeatures>(300_000);
  private readonly grams = new Memo<GramFeatures>(300_000);
  private readonly maxIdf: number;

  constructor(
    private readonly lexicon: Lexicon,
    readonly options: EmbeddingOptions = DEFAULT_EMBEDDING_OPTIONS,
  ) {
    this.maxIdf = Math.log(lexicon.glossCount + 1);
  }

  private wordFeatures(token: Token): WordFeatures {
    return this.words.get(token.cjk ? `\u0001${token.term}` : token.term, () => {
      if (token.cjk) {
        const { table, median } = chineseIdfTable();
        return { hash: murmur3(token.term, SEED_WORDS), idf: table.get(token.term) ?? median, related: [], concept: -1 };
      }
      const related = (this.lexicon.related.get(token.term) ?? []).map(([stem, weight]) => [murmur3(stem, SEED_WORDS), weight] as [number, number]);
      return {
        hash: murmur3(token.term, SEED_WORDS),
        idf: this.lexicon.idf.get(token.term) ?? this.maxIdf,
        related,
        concept: this.lexicon.concepts.vocabulary.get(token.term) ?? -1,
      };
    });
  }

  /** A word's n-grams, weighted by their IDF and scaled so that long words do not outweigh short ones. */
  private gramFeatures(word: string): GramFeatures {
    return this.grams.get(word, () => {
      const grams = ngrams(word);
      const scale = 1 / Math.sqrt(grams.length);
      return {
        hashes: grams.map((g) => murmur3(g, SEED_GRAMS)),
        weights: grams.map((g) => (this.lexicon.gramIdf.get(g) ?? this.maxIdf) * scale),
      };
    });
  }

  vector(text: string): number[] {
    const { dimension, weights, relatedWeight } = this.options;
    const conceptDimension = this.lexicon.concepts.dimension;
    const conceptVectors = this.lexicon.concepts.vectors;
    const tokens = tokenize(text);

    // Each sparse part is feature-hashed into its own array, normalised, then mixed.
    const wordPart = new Float64Array(dimension);
    const gramPart = new Float64Array(dimension);
    const pairPart = new Float64Array(dimension);
    const conceptPart = new Float64Array(conceptDimension);
    // The concept part has the leading dimensions to itself; hashed features share the rest.
    const hashedDimension = dimension - conceptDimension;
    // Every feature is spread over a few dimensions (a sparse Johnson–Lindenstrauss projection), so that a
    // collision costs a fraction of a feature's weight: a short text's few features never cancel out whole.
    // The top bit of each hash chooses the sign, so that collisions cancel out on average.
    const spread = (copies: number) => {
      const share = 1 / Math.sqrt(copies);
      return (part: Float64Array, hash: number, value: number) => {
        for (let copy = 0; copy < copies; copy++) {
          const h = copy === 0 ? hash : finalMix((hash + Math.imul(copy, 0x9e3779b9)) >>> 0);
          part[conceptDimension + (h % hashedDimension)] += h & 0x80000000 ? -value * share : value * share;
        }
      };
    };
    const add = spread(FEATURE_COPIES);
    const addGram = spread(GRAM_COPIES);

    const termCounts = new Map<string, { token: Token; count: number }>();
    const wordCounts = new Map<string, number>();
    for (const token of tokens) {
      const key = token.cjk ? `\u0001${token.term}` : token.term;
      const entry = termCounts.get(key);
      if (entry) entry.count++;
      else termCounts.set(key, { token, count: 1 });
      if (!token.cjk) wordCounts.set(token.word, (wordCounts.get(token.word) ?? 0) + 1);
    }

    for (const { token, count } of termCounts.values()) {
      const features = this.wordFeatures(token);
      const weight = features.idf * saturate(count);
      add(wordPart, features.hash, weight);
      for (const [hash, share] of features.related) add(wordPart, hash, weight * relatedWeight * share);
      if (features.concept >= 0) {
        const row = features.concept * conceptDimension;
        for (let c = 0; c < conceptDimension; c++) conceptPart[c] += weight * conceptVectors[row + c];
      }
    }

    for (const [word, count] of wordCounts) {
      const { hashes, weights: gramWeights } = this.gramFeatures(word);
      const tf = saturate(count);
      for (let i = 0; i < hashes.length; i++) addGram(gramPart, hashes[i], gramWeights[i] * tf);
    }
    this.addChineseCharacters(text, gramPart, addGram);

    const pairCounts = new Map<number, { count: number; idf: number }>();
    for (let i = 1; i < tokens.length; i++) {
      const previous = this.wordFeatures(tokens[i - 1]);
      const current = this.wordFeatures(tokens[i]);
      const hash = finalMix(pairHash(previous.hash, current.hash));
      const entry = pairCounts.get(hash);
      if (entry) entry.count++;
      else pairCounts.set(hash, { count: 1, idf: (previous.idf + current.idf) / 2 });
    }
    for (const [hash, { count, idf }] of pairCounts) add(pairPart, hash, idf * saturate(count));

    const out = new Float64Array(dimension);
    const mix = (part: Float64Array, share: number) => {
      let norm = 0;
      for (let i = 0; i < part.length; i++) norm += part[i] * part[i];
      if (norm === 0 || share === 0) return;
      const scale = Math.sqrt(share / norm);
      for (let i = 0; i < part.length; i++) out[i] += part[i] * scale;
    };
    mix(wordPart, weights.words);
    mix(gramPart, weights.grams);
    mix(pairPart, weights.pairs);
    let conceptNorm = 0;
    for (let c = 0; c < conceptDimension; c++) conceptNorm += conceptPart[c] * conceptPart[c];
    if (conceptNorm > 0 && weights.concepts > 0) {
      const scale = Math.sqrt(weights.concepts / conceptNorm);
      for (let c = 0; c < conceptDimension; c++) out[c] = conceptPart[c] * scale;
    }

    let norm = 0;
    for (let i = 0; i < dimension; i++) norm += out[i] * out[i];
    if (norm === 0) {
      // A text with no words at all (empty, punctuation) still gets a valid unit vector, the same for all such texts.
      out[0] = 1;
      return Array.from(out);
    }
    const scale = 1 / Math.sqrt(norm);
    return Array.from(out, (x) => x * scale);
  }

  /** Unigrams and bigrams of Chinese characters, across jieba's word boundaries. */
  private addChineseCharacters(text: string, part: Float64Array, add: (part: Float64Array, hash: number, value: number) => void) {
    const runs = text.normalize("NFKC").match(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g);
    if (!runs) return;
    const counts = new Map<string, number>();
    for (const run of runs) {
      for (let i = 0; i < run.length; i++) {
        counts.set(run[i], (counts.get(run[i]) ?? 0) + 1);
        if (i > 0) counts.set(run.slice(i - 1, i + 1), (counts.get(run.slice(i - 1, i + 1)) ?? 0) + 1);
      }
    }
    // Weighted by jieba's IDF like English n-grams by theirs: a bigram that is a dictionary word has its
    // own IDF; one that spans a word boundary is at least as specific as its rarer character.
    const { table, median } = chineseIdfTable();
    const idf = (gram: string) => table.get(gram) ?? median;
    for (const [gram, count] of counts) {
      const weight = gram.length === 1 ? 0.5 * idf(gram) : (table.get(gram) ?? Math.max(idf(gram[0]), idf(gram[1])));
      add(part, murmur3(gram, SEED_GRAMS), weight * saturate(count));
    }
  }
}

let shared: Promise<TextVectorizer> | undefined;

export function defaultVectorizer(): Promise<TextVectorizer> {
  shared ??= lexicon().then((l) => new TextVectorizer(l));
  shared.catch(() => (shared = undefined));
  return shared;
}

/** Texts per slice before yielding to the event loop, so that embedding a large batch never stalls a server. */
const SLICE = 64;

export class BuiltinEmbedding implements EmbeddingModel {
  async embed(texts: string[], options?: { purpose?: "query" | "document"; signal?: AbortSignal }): Promise<EmbeddingResult> {
    const vectorizer = await defaultVectorizer();
    const vectors: number[][] = [];
    let tokens = 0;
    for (let i = 0; i < texts.length; i++) {
      if (i > 0 && i % SLICE === 0) {
        options?.signal?.throwIfAborted();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      vectors.push(vectorizer.vector(texts[i]));
      tokens += countTokens(texts[i]);
    }
    return { vectors, usage: { promptTokens: tokens, completionTokens: 0, totalTokens: tokens } };
  }
}
