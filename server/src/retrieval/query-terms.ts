import { wordStatistics } from "../models/builtin/lexicon";
import { chineseBigrams, tokenize } from "../models/builtin/text-analysis";

/**
 * Query processing for keyword search: the question's terms (stems without stop words, jieba words for
 * Chinese — the same analysis as the chunks, knowledge/search-terms.ts), each at weight 1, plus for English
 * stems the stems WordNet relates to them — synonyms, derivations, pertainyms, weighted by how likely each
 * sense is (models/builtin/lexicon.ts) — at SYNONYM_WEIGHT of that, so that "heart attack" also finds
 * "myocardial infarction" text without outweighing the words the user chose. Chinese has no shipped
 * synonym lexicon; its character bigrams join its words at CHINESE_BIGRAM_WEIGHT, indexed alike
 * (knowledge/search-terms.ts), so that a passage segmented otherwise than the question still matches.
 */

export interface QueryTerm {
  term: string;
  weight: number;
  /**
   * Where the term comes from: the question's own words; the joined form of a hyphenated compound in it
   * ("il6" of "IL-6", another spelling of its parts); a character bigram of its Chinese; or an added synonym.
   * The question's words and bigrams count in the Σ weight·idf that normalises term similarity; all but
   * synonyms are highlighted (a bigram, no word of the text, marks nothing).
   */
  source: "question" | "compound" | "bigram" | "synonym";
}

/**
 * Weight of a Chinese character bigram beside the question's words. Chosen on the development half of
 * CMRC 2018's queries (0.25–0.5 alike; 1 is worse: the bigrams of a word then outweigh the word).
 */
export const CHINESE_BIGRAM_WEIGHT = 0.35;

/** Share of a term's weight its related stems get, times their own relatedness (0..1). */
export const SYNONYM_WEIGHT = 0.3;
/**
 * Related stems per term: only the most related ones (the words of WordNet's most likely sense, which tie),
 * at most this many, since every added term costs postings to read.
 */
const SYNONYMS_PER_TERM = 3;
/** Related stems below this relatedness (after SYNONYM_WEIGHT) add noise, not recall. */
const MIN_SYNONYM_WEIGHT = 0.05;

export async function weightedQueryTerms(question: string): Promise<QueryTerm[]> {
  const tokens = tokenize(question);
  const terms = new Map<string, QueryTerm>();
  for (const token of tokens) {
    if (terms.get(token.term)?.source !== "question") terms.set(token.term, { term: token.term, weight: 1, source: token.joined ? "compound" : "question" });
  }
  for (const bigram of chineseBigrams(question)) terms.set(bigram, { term: bigram, weight: CHINESE_BIGRAM_WEIGHT, source: "bigram" });
  if (tokens.some((t) => !t.cjk)) {
    const { related } = await wordStatistics();
    for (const token of tokens) {
      if (token.cjk || token.joined) continue;
      const byRelatedness = (related.get(token.term) ?? []).slice().sort((a, b) => b[1] - a[1]);
      const best = byRelatedness[0]?.[1] ?? 0;
      for (const [stem, relatedness] of byRelatedness.slice(0, SYNONYMS_PER_TERM)) {
        if (relatedness < best) break;
        const weight = SYNONYM_WEIGHT * relatedness;
        const known = terms.get(stem);
        if (weight < MIN_SYNONYM_WEIGHT || (known && known.source !== "synonym")) continue;
        if (!known || known.weight < weight) terms.set(stem, { term: stem, weight, source: "synonym" });
      }
    }
  }
  return [...terms.values()];
}
