import type { LexicalScorer } from "../../models/builtin/lexical-scoring";
import { CHINESE_STOP_WORDS, chineseSegmenter, ENGLISH_STOP_WORDS, tokenize } from "../../models/builtin/text-analysis";
import { isVerbLike } from "./verb-forms";

/**
 * Key phrases of a text without a language model: each candidate is scored by term frequency times the
 * IDF the built-in models ship with (WordNet glosses for English, jieba's table for Chinese), so that a
 * word is key when the text repeats it and language in general rarely uses it.
 *
 * Candidates are single content words and phrases of two or three content words. Without a part-of-speech
 * tagger for English, a phrase is only proposed when it is likely a noun phrase: it stands alone between
 * stop words or punctuation ("the [hybrid retrieval] of"), it repeats in the text, or it is a capitalised
 * name. Chinese words come from jieba's tagger, keeping nouns, verbal nouns, idioms and (weighted down)
 * verbs. Phrases are returned as written in the text, not as stems.
 */

export interface KeyPhrase {
  /** As written in the text (the most common spelling, a sentence-initial capital not preferred). */
  text: string;
  score: number;
  /** The matching terms (stems, Chinese words) it is made of. */
  terms: string[];
  /** Ends in a noun (its head word is not a verb), so that "What does the text say about X?" reads well. */
  nominal: boolean;
}

interface Word {
  start: number;
  end: number;
  term: string;
  /** Weight of the word as a keyword; 0 for a word that cannot be one (stop word, number, particle). */
  weight: number;
  /** May be part of a phrase: not a verb or an adverb. */
  phraseable: boolean;
  nominal: boolean;
  capitalised: boolean;
  sentenceStart: boolean;
  cjk: boolean;
}

interface Candidate {
  terms: string[];
  count: number;
  /** Stands alone between stop words or punctuation at least once. */
  alone: boolean;
  name: boolean;
  /** Seen only at the start of sentences, where a capital says nothing. */
  onlyInitial: boolean;
  nominal: boolean;
  spellings: Map<string, number>;
  first: number;
  words: number;
  cjk: boolean;
}

const CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ffff}]+/gu;
/** A word, a space or hyphen (inside a phrase), or anything else (which ends a phrase). */
const PIECE = /([\p{L}\p{N}]+(?:['’][\p{L}]+|[-‐][\p{L}\p{N}]+)*)|(\s+)|./gsu;
const MAX_PHRASE_WORDS = 3;
const MAX_CHINESE_PHRASE_CHARACTERS = 10;
/** jieba tags of words that can be keywords, and how much: nouns, verbal nouns, idioms and abbreviations; verbs less. */
const CHINESE_TAG_WEIGHT: Record<string, number> = { vn: 1, an: 0.8, l: 0.8, i: 0.8, j: 1, eng: 1, v: 0.6 };

/** Verbs and adverbs count for less as keywords on their own. */
const VERB_WEIGHT = 0.4;
/** Quantifiers and sentence adverbs that WordNet files as adjectives or nouns, never keywords. */
const NOT_IN_PHRASES = new Set("many much several various numerous certain also however therefore thus hence often usually".split(" "));

/** A word's term (its parts' stems joined, for a hyphenated word) and its IDF (the rarest part's). */
function termOf(word: string, scorer: LexicalScorer): { term: string; idf: number } {
  const parts = tokenize(word, { keepStopWords: true });
  if (parts.length === 0) return { term: word, idf: 0 };
  return { term: parts.map((p) => p.term).join("-"), idf: Math.max(...parts.map((p) => scorer.idf(p))) };
}

function isSentenceStart(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = text[i];
    if (c === "\n") return true;
    if (/\s|["“‘(\[]/.test(c)) continue;
    return /[.!?。！？:：]/.test(c);
  }
  return true;
}

/** Clauses of the text (split at punctuation and script changes), each a list of its words. */
function clausesOf(text: string, scorer: LexicalScorer): Word[][] {
  const clauses: Word[][] = [];
  let clause: Word[] = [];
  const close = () => {
    if (clause.length > 0) clauses.push(clause);
    clause = [];
  };
  const latin = (from: number, to: number) => {
    for (const match of text.slice(from, to).matchAll(PIECE)) {
      if (match[2] !== undefined) continue;
      if (match[1] === undefined) {
        close();
        continue;
      }
      const start = from + match.index!;
      const written = match[1].replace(/’/g, "'");
      const lower = written.toLowerCase();
      const base = lower.endsWith("'s") ? lower.slice(0, -2) : lower;
      const capitalised = /^\p{Lu}/u.test(written);
      const stop = ENGLISH_STOP_WORDS.has(lower) || ENGLISH_STOP_WORDS.has(base);
      // Numbers alone and one-letter words say nothing; two letters only as an acronym ("AI", "EU").
      const meaningful = /\p{L}/u.test(base) && (base.length >= 3 || (base.length === 2 && /^\p{Lu}+$/u.test(written)));
      const { term, idf } = termOf(base, scorer);
      const end = start + (written.length - (lower.endsWith("'s") ? 2 : 0));
      const verb = !capitalised && isVerbLike(base);
      clause.push({
        start,
        end,
        term,
        weight: stop || !meaningful || NOT_IN_PHRASES.has(base) ? 0 : idf * (verb ? VERB_WEIGHT : 1),
        phraseable: !verb,
        nominal: !verb,
        capitalised,
        sentenceStart: isSentenceStart(text, start),
        cjk: false,
      });
    }
    close();
  };
  let last = 0;
  for (const run of text.matchAll(CJK_RUN)) {
    latin(last, run.index!);
    let offset = run.index!;
    for (const { word, tag } of chineseSegmenter().tag(run[0], true)) {
      const share = word.length >= 2 && !CHINESE_STOP_WORDS.has(word) ? (tag.startsWith("n") ? 1 : (CHINESE_TAG_WEIGHT[tag] ?? 0)) : 0;
      clause.push({
        start: offset,
        end: offset + word.length,
        term: word,
        weight: share * scorer.idf({ term: word, cjk: true }),
        phraseable: true,
        nominal: tag !== "v",
        capitalised: false,
        sentenceStart: false,
        cjk: true,
      });
      offset += word.length;
    }
    close();
    last = run.index! + run[0].length;
  }
  latin(last, text.length);
  return clauses;
}

/** All key phrases of `text`, best first, overlapping ones included (see `topKeyPhrases`). */
export function rankKeyPhrases(input: string, scorer: LexicalScorer): KeyPhrase[] {
  const text = input.normalize("NFKC");
  const clauses = clausesOf(text, scorer);
  const candidates = new Map<string, Candidate>();
  const wordCounts = new Map<string, number>();
  const weights = new Map<string, number>();
  for (const clause of clauses) {
    for (const word of clause) {
      if (word.weight === 0) continue;
      wordCounts.set(word.term, (wordCounts.get(word.term) ?? 0) + 1);
      weights.set(word.term, word.weight);
    }
  }
  const note = (words: Word[], alone: boolean) => {
    const terms = words.map((w) => w.term);
    const key = terms.join(" ");
    const cjk = words[0].cjk;
    const spelling = cjk ? text.slice(words[0].start, words[words.length - 1].end) : text.slice(words[0].start, words[words.length - 1].end).replace(/\s+/g, " ");
    let candidate = candidates.get(key);
    if (!candidate) {
      candidate = { terms, count: 0, alone: false, name: false, onlyInitial: true, nominal: words[words.length - 1].nominal, spellings: new Map(), first: words[0].start, words: words.length, cjk };
      candidates.set(key, candidate);
    }
    candidate.count++;
    candidate.onlyInitial &&= words[0].sentenceStart;
    candidate.alone ||= alone;
    // A name: every word capitalised, the first not merely because it starts a sentence.
    candidate.name ||= words.length > 1 && words.every((w) => w.capitalised) && !words[0].sentenceStart;
    candidate.spellings.set(spelling, (candidate.spellings.get(spelling) ?? 0) + (words[0].sentenceStart ? 0.5 : 1));
  };
  for (const clause of clauses) {
    for (const word of clause) if (word.weight > 0) note([word], false);
    let runStart = 0;
    for (let i = 0; i <= clause.length; i++) {
      if (i < clause.length && clause[i].weight > 0 && clause[i].phraseable) continue;
      const run = clause.slice(runStart, i);
      runStart = i + 1;
      for (let n = 2; n <= Math.min(MAX_PHRASE_WORDS, run.length); n++) {
        for (let s = 0; s + n <= run.length; s++) note(run.slice(s, s + n), n === run.length);
      }
    }
  }

  const phrases: KeyPhrase[] = [];
  const order = new Map<KeyPhrase, number>();
  for (const candidate of candidates.values()) {
    let spelling = [...candidate.spellings].sort((a, b) => b[1] - a[1])[0][0];
    // "Hybrid retrieval" at the start of a sentence is "hybrid retrieval"; a single word might be a name.
    if (candidate.onlyInitial && candidate.words > 1 && !/\p{Lu}/u.test(spelling.slice(1))) spelling = spelling[0].toLowerCase() + spelling.slice(1);
    const wordScores = candidate.terms.map((t) => (1 + Math.log(wordCounts.get(t)!)) * weights.get(t)!);
    let score: number;
    if (candidate.words === 1) score = wordScores[0];
    else {
      const plausible = candidate.count >= 2 || candidate.alone || candidate.name;
      if (!plausible || (candidate.cjk && spelling.length > MAX_CHINESE_PHRASE_CHARACTERS)) continue;
      // A phrase is worth its words on average, a little more for being specific, more again when it repeats.
      const mean = wordScores.reduce((a, b) => a + b, 0) / wordScores.length;
      score = mean * (1 + 0.25 * (candidate.words - 1)) * (candidate.count >= 2 ? 1.2 : 1);
    }
    const phrase = { text: spelling, score, terms: candidate.terms, nominal: candidate.nominal };
    order.set(phrase, candidate.first);
    phrases.push(phrase);
  }
  return phrases.sort((a, b) => b.score - a.score || order.get(a)! - order.get(b)!);
}

/**
 * The best `count` key phrases without repeating themselves: a phrase inside one already chosen is
 * skipped, and a chosen phrase replaces the single words it contains.
 */
export function topKeyPhrases(text: string, count: number, scorer: LexicalScorer): KeyPhrase[] {
  const chosen: KeyPhrase[] = [];
  if (count <= 0) return chosen;
  const spellings = new Set<string>();
  for (const phrase of rankKeyPhrases(text, scorer)) {
    const inside = chosen.some((c) => phrase.terms.every((t) => c.terms.includes(t)));
    if (inside || spellings.has(phrase.text.toLowerCase())) continue;
    if (phrase.terms.length > 1) {
      for (let i = chosen.length - 1; i >= 0; i--) {
        if (chosen[i].terms.length === 1 && phrase.terms.includes(chosen[i].terms[0])) {
          spellings.delete(chosen[i].text.toLowerCase());
          chosen.splice(i, 1);
        }
      }
    }
    chosen.push(phrase);
    spellings.add(phrase.text.toLowerCase());
    if (chosen.length >= count) break;
  }
  return chosen;
}
