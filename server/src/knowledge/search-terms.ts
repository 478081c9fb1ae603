import { chineseBigrams, foldChineseScript, isCjk, tokenize } from "../models/builtin/text-analysis";

/**
 * Keyword search inside PostgreSQL. Cairn analyses text itself — lower-casing, English stop words and
 * Porter2 stems, jieba segmentation of Chinese folded to Simplified script, and the character bigrams of
 * Chinese beside its words (matched at a lower weight, retrieval/query-terms.ts) — and stores each chunk's
 * terms as a jsonb object term → frequency; triggers turn them into postings (chunk_term, migration
 * 1764100000000) that BM25 reads (retrieval/keyword-search.ts), so every database (PGlite, any PostgreSQL)
 * gives the same result without text-search dictionaries. The frequency is BM25F-like: an occurrence in
 * the title counts TITLE_WEIGHT times, one in the keywords or generated questions KEYWORD_WEIGHT times,
 * one in the text once.
 */

export interface SearchFields {
  title?: string;
  keywords?: string[];
  questions?: string[];
  content: string;
}

export const TITLE_WEIGHT = 2;
export const KEYWORD_WEIGHT = 3;

export interface IndexedText {
  /** Term → weighted frequency. */
  terms: Record<string, number>;
  /** Terms of the text (the length BM25 normalises by). */
  termCount: number;
}

export function indexText(fields: SearchFields): IndexedText {
  const terms: Record<string, number> = Object.create(null);
  let termCount = 0;
  const add = (text: string, weight: number) => {
    for (const token of tokenize(text)) {
      terms[token.term] = (terms[token.term] ?? 0) + weight;
      if (weight === 1 && !token.joined) termCount += 1;
    }
    // Bigrams overlap the words: they are no words of their own in the text's length.
    for (const bigram of chineseBigrams(text)) terms[bigram] = (terms[bigram] ?? 0) + weight;
  };
  if (fields.title) add(fields.title, TITLE_WEIGHT);
  for (const keyword of fields.keywords ?? []) add(keyword, KEYWORD_WEIGHT);
  for (const question of fields.questions ?? []) add(question, KEYWORD_WEIGHT);
  add(fields.content, 1);
  return { terms, termCount };
}

/** The distinct terms of a query, in order of first appearance. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text).map((t) => t.term))];
}

/**
 * The text with the words whose terms are in `terms` wrapped in <em>…</em> (RAGFlow's highlight), the
 * rest HTML-escaped so that the markup is the only markup.
 */
export function highlight(text: string, terms: ReadonlySet<string>): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (terms.size === 0) return escape(text);
  let out = "";
  let last = 0;
  const pattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
  for (const match of text.matchAll(pattern)) {
    const hits = tokenize(match[0]).filter((t) => terms.has(t.term));
    if (hits.length === 0) continue;
    const word = match[0];
    out += escape(text.slice(last, match.index));
    last = match.index! + word.length;
    // A word of alphabetic scripts is marked whole (its term may be spelt otherwise: "α" is "alpha").
    if (!isCjk(word)) {
      out += "<em>" + escape(word) + "</em>";
      continue;
    }
    // A Chinese run is segmented into several words: mark just the matching ones. Their words are folded to
    // Simplified script, found in the folded run; a fold that changed the run's length (a rare character
    // becoming one outside the Basic Multilingual Plane) leaves no offsets to follow, so the run is marked whole.
    const lower = foldChineseScript(word.normalize("NFKC").toLowerCase());
    if (lower.length !== word.length) {
      out += "<em>" + escape(word) + "</em>";
      continue;
    }
    let marked = "";
    let cursor = 0;
    for (const hit of hits) {
      const at = lower.indexOf(hit.word, cursor);
      if (at < 0) continue;
      marked += escape(word.slice(cursor, at)) + "<em>" + escape(word.slice(at, at + hit.word.length)) + "</em>";
      cursor = at + hit.word.length;
    }
    out += marked + escape(word.slice(cursor));
  }
  return out + escape(text.slice(last));
}
