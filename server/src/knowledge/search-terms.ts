import { tokenize } from "../models/builtin/text-analysis";

/**
 * Keyword search inside PostgreSQL. Cairn analyses text itself — lower-casing, English stop words and
 * Porter2 stems, jieba segmentation of Chinese (Simplified and Traditional) — and stores the terms as a
 * `tsvector` literal, so that PostgreSQL only indexes (GIN) and matches them and every database (PGlite,
 * any PostgreSQL) gives the same result without text-search dictionaries. Positions give each term's
 * frequency for BM25; weights mark the field a term came from, for field boosts: A title, B keywords
 * and generated questions, D text.
 */

export interface SearchFields {
  title?: string;
  keywords?: string[];
  questions?: string[];
  content: string;
}

/** PostgreSQL's limits: positions 1..16383, at most 256 per lexeme, lexemes under 2 KB. */
const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_TERM = 256;
const MAX_TERM_BYTES = 2047;

export function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

export interface IndexedText {
  /** A tsvector literal. */
  vector: string;
  /** Terms of the text (the length BM25 normalises by). */
  termCount: number;
}

export function indexText(fields: SearchFields): IndexedText {
  const positions = new Map<string, string[]>();
  let position = 0;
  let termCount = 0;
  const add = (text: string, weight: "A" | "B" | "D") => {
    for (const token of tokenize(text)) {
      position = Math.min(position + 1, MAX_POSITION);
      if (weight === "D") termCount += 1;
      if (Buffer.byteLength(token.term) > MAX_TERM_BYTES) continue;
      let list = positions.get(token.term);
      if (!list) positions.set(token.term, (list = []));
      if (list.length < MAX_POSITIONS_PER_TERM) list.push(weight === "D" ? String(position) : `${position}${weight}`);
    }
  };
  if (fields.title) add(fields.title, "A");
  for (const keyword of fields.keywords ?? []) add(keyword, "B");
  for (const question of fields.questions ?? []) add(question, "B");
  add(fields.content, "D");
  const vector = [...positions].map(([term, list]) => `${quoteLexeme(term)}:${list.join(",")}`).join(" ");
  return { vector, termCount };
}

/** The distinct terms of a query, in order of first appearance. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text).map((t) => t.term))].filter((t) => Buffer.byteLength(t) <= MAX_TERM_BYTES);
}

/** A tsquery literal matching any of the terms, or null when the text has none. */
export function anyTermQuery(terms: string[]): string | null {
  return terms.length === 0 ? null : terms.map(quoteLexeme).join(" | ");
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
    // A Chinese run is segmented into several words: mark just the matching ones.
    let marked = "";
    let cursor = 0;
    const lower = word.normalize("NFKC").toLowerCase();
    for (const hit of hits) {
      const at = lower.indexOf(hit.word, cursor);
      if (at < 0) continue;
      marked += escape(word.slice(cursor, at)) + "<em>" + escape(word.slice(at, at + hit.word.length)) + "</em>";
      cursor = at + hit.word.length;
    }
    marked += escape(word.slice(cursor));
    out += escape(text.slice(last, match.index)) + marked;
    last = match.index! + word.length;
  }
  return out + escape(text.slice(last));
}
