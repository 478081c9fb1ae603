import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions } from "../model-types";
import { TEXT_ONLY } from "../chat-tools";
import { countTokens } from "../tokens";
import { defaultVectorizer, type TextVectorizer } from "./embedding";
import {
  acronymsOf,
  answerKind,
  capitalisedAbbreviations,
  holdsAnswerOfKind,
  NEGATIONS,
  negationBearsOn,
  sameNameVariant,
  type AnswerKind,
} from "./answer-checks";
import { fixedSentences, languageOf, type AnswerLanguage } from "./fixed-sentences";
import { antecedentOf, refersToEarlierTurns } from "./follow-up";
import { readPrompt, type Passage } from "./knowledge-prompt";
import { lexicalScorer } from "./lexical-rerank";
import { rowFields, rowSentence, type RowQuestion } from "./row-sentence";
import type { LexicalScorer, QueryTerm } from "./lexical-scoring";
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, isCjk, tokenize, type Token } from "./text-analysis";

/**
 * "cairn-extractive": Cairn's built-in chat model. It is not a language model and never writes a word
 * of its own about the knowledge: it finds the passages in the prompt (see knowledge-prompt.ts), scores
 * their sentences against the question, and answers with the best ones, each followed by RAGFlow's
 * citation `[ID:n]` of its passage, streamed word by word.
 *
 * Scoring a sentence: its lexical score (lexical-scoring.ts: BM25 per term with WordNet/jieba IDFs,
 * stems, WordNet relations, proximity) counts half; the same for the sentence with its neighbours,
 * three tenths (an answer often sits next to the sentence that repeats the question's words); the
 * cosine of the built-in embedding, the last fifth.
 *
 * The passage's own relevance among the passages adds a last fifth on top.
 *
 * The kind of answer asked for selects the sentences that may hold it: a "when" or "how many" question
 * looks only where a number, a date or a quantity is (in the sentence or its neighbours).
 *
 * Answering at all is decided on the best sentence only: if the place that matches the question best
 * does not answer it, a weaker match elsewhere would be a guess (this is how questions that merely
 * resemble the knowledge are told apart — "who founded X in 1750?" against a text saying 1755). The
 * best sentence, with its neighbours and its document's title (or the heading its passage opens with),
 * answers only when
 * - it holds 45 % of the question's weight or more (each term weighted by its IDF, so that "what
 *   year" weighs little and "Normandy" much; WordNet relations and stems count; the words that frame
 *   the kind of answer — "how many", "what kind of" — do not), and the best sentence itself (with the
 *   sentences its pronouns tie it to) holds at least half of what is found: a question restates one
 *   statement, not facts spread over several;
 * - every term that names something specific — a number, a word too rare for any WordNet gloss (names,
 *   codes), a capitalised word inside the question — occurs in it (a misspelling one or two letters off
 *   counts: "seperate" is "separate"; so do other forms of a name: "Parisian" for "Paris", "EU" for
 *   "European Union", "18th century" for "1700s");
 * - it does not contradict the question: a negated question needs a negation in the sentence itself,
 *   bearing on the question's words, and a question that is not negated is not answered by a sentence
 *   that negates one of its words ("not always practical"); a question word absent from the window
 *   must not have its WordNet antonym in the sentence ("largest" / "smallest"); "only" and "least" in
 *   the question must be there too;
 * - the sentence itself holds the kind of answer asked for, when that kind shows in the words: a year
 *   for "in what year", a count for "how many" (other than the question's own numbers).
 * Without that, the answer is the prompt's "not found" sentence, as RAGFlow's prompt demands. Further
 * sentences that pass the same checks and score nearly as well join the answer.
 */

const SENTENCE_SHARE = 0.5;
const WINDOW_SHARE = 0.3;
const COSINE_SHARE = 0.2;
/** The passage's own relevance among the passages (its lexical score over the best one's), added on top. */
const PASSAGE_SHARE = 0.2;
/** Share of the question's weight the best sentence and its neighbours must contain. */
const MIN_COVERAGE = 0.45;
/**
 * Share of what the window covers of the question that the best sentence's statement (with its title)
 * must cover. A question restates one statement; one whose words are found only across neighbouring
 * sentences joins facts the text keeps apart, as SQuAD 2.0's unanswerable questions often do.
 */
const SENTENCE_SHARE_OF_COVERAGE = 0.5;
/** A further sentence joins the answer when it scores at least this fraction of the best one. */
const COMPANION_RATIO = 0.75;
const MAX_SENTENCES = 3;
/** A follow-up that refers back ("and in 1990?", "when was it built?") borrows what it refers to in the previous question (antecedentOf) at this weight at most. */
const HISTORY_WEIGHT = 0.5;
/**
 * Words that frame the kind of answer asked for ("how many", "what kind of", "whose") rather than its
 * subject: the answer's text does not repeat them, so they do not count in the question's weight.
 */
const QUESTION_FRAME = new Set("many much kind kinds sort sorts type types whose".split(" "));
/** Qualifiers that narrow what is asked ("the only …", "at least …"): the answer's text must have them too. */
const RESTRICTIVE = new Set(["only", "least"]);

/**
 * Questions whose answer is a number, a date or a quantity. "When" asks for a time only as the question
 * word ("When did …", "Since when …", "… ended when?"), not inside a clause ("… identifies X when Y happens").
 */
const WANTS_NUMBER = /^\W*(?:\p{L}+\s+)?when\b|\bwhen\s+(?:did|do|does|was|were|is|are|will|would|had|has|have|could|can)\b|\bwhen\W*$|\b(?:what year|which year|what decade|what century|how many|how much|how long|how old|how far|how large|how big|what percentage|what percent)\b|多少|几|哪一年|哪年|何时|什么时候/iu;
const NUMBER_WORDS = new Set(
  (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion billions trillion dozen dozens half quarter " +
    "first second third fourth fifth sixth seventh eighth ninth tenth century centuries decade decades year years january february march april may june july august september october november december " +
    "spring summer autumn fall winter today yesterday tomorrow ago bc bce ad ce 一 二 三 四 五 六 七 八 九 十 百 千 万 亿 年 月 日 世纪"
  ).split(" "),
);

/**
 * The heading a passage opens with, if it does: a short first line without a sentence's final stop
 * ("Normans", "2. Eligibility"). It names what every sentence below it is about, as a document's title
 * does; a chunk's own title is often only its file's name.
 */
function headingOf(text: string): string | undefined {
  const line = /^\s*([^\n]+)\n/.exec(text)?.[1].trim();
  // A table row ("sku: GT-3; product: …") is a statement of the table, not a heading.
  if (!line || /[.!?。！？:;：；]$/.test(line) || line.split(/\s+/).length > 12 || rowFields(line)) return undefined;
  return line;
}

/** Pronouns and determiners that point back to something named before ("It …", "Its designer …", "These ships …"). */
const ANAPHORS = new Set("he she it they him her them his its their this these those such".split(" "));

/** Whether one of a sentence's first words refers back to the sentence before it. */
function refersBack(sentence: string): boolean {
  return tokenize(sentence, { keepStopWords: true })
    .slice(0, 4)
    .some((t) => ANAPHORS.has(t.word));
}

/**
 * The statement a sentence belongs to: with the sentence before it when it refers back to it, and with
 * the next one when that one refers back ("The new breakwater is the longest. Its designer, …").
 */
function statementAround(sentences: string[], index: number): string {
  const first = index > 0 && refersBack(sentences[index]) ? index - 1 : index;
  const last = index + 1 < sentences.length && refersBack(sentences[index + 1]) ? index + 1 : index;
  return sentences.slice(first, last + 1).join(" ");
}

function hasNumber(text: string): boolean {
  return tokenize(text, { keepStopWords: true }).some((t) => /\d/.test(t.word) || NUMBER_WORDS.has(t.word));
}

interface QuestionShape {
  text: string;
  negated: boolean;
  /** Its restrictive qualifiers ("only", "least"). */
  restrictive: string[];
  /** Stems of the question's content words. */
  terms: string[];
  wantsNumber: boolean;
  /** The kind of answer the sentence itself must hold, when the question asks for one (answer-checks.ts). */
  kind: AnswerKind | undefined;
}

interface Question {
  terms: QueryTerm[];
  /**
   * Terms a follow-up borrowed from the question before: they rank sentences, but are not what the answer
   * must cover — the sentence that answers "What percentage of its population was Protestant?" need not
   * repeat "Warsaw".
   */
  borrowed: Set<string>;
  chinese: boolean;
  /** Each term's word as written in the question, for matching misspellings. */
  words: Map<string, string>;
  /** Terms that must occur where the answer is (see specificTerms). */
  specific: Token[];
  shape: QuestionShape;
  /** Acronyms that the question's runs of capitalised words spell ("European Union" → eu), and its own abbreviations ("EU"). */
  acronyms: Map<string, string[]>;
  abbreviations: Set<string>;
}

interface Candidate {
  /** Index of the passage, and of the sentence in it. */
  passage: number;
  sentence: number;
  score: number;
}

/** Sentences of one passage picked for one question (or part of a question). */
interface Pick {
  passage: number;
  sentences: number[];
  question: Question;
}

export interface ExtractiveAnswer {
  /** The answer text, citations included. */
  text: string;
  /** Passage ids cited, in order of first citation; empty when nothing was found. */
  cited: string[];
  found: boolean;
}

const SMALL_TALK = new Set(
  "hi hello hey hallo hiya yo thanks thank thx ok okay bye goodbye morning afternoon evening good please 你好 您好 嗨 哈喽 谢谢 多谢 再见 早上好 晚上好 好的".split(" "),
);

/** A greeting or thanks, or no words at all: nothing to look up. */
function isSmallTalk(question: string): boolean {
  return tokenize(question, { keepStopWords: true }).every((t) => SMALL_TALK.has(t.word) || ENGLISH_STOP_WORDS.has(t.word) || CHINESE_STOP_WORDS.has(t.word));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sentences of a passage: after 。！？； and after . ! ? followed by a capital, a digit or an opening quote; lines apart. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/([。！？；])/g, "$1\u0000")
    .replace(/([.!?]["”’)\]]?)\s+(?=["“‘(\[]?[A-Z0-9\u3400-\u9fff])/g, "$1\u0000")
    .split(/\u0000|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Deltas of a text: a word with the spaces before it, a Chinese character, or a citation. Joined, they give the text back. */
export function streamPieces(text: string): string[] {
  return text.match(/\s*(?:\[ID:[^\]]*\]|[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]|[^\s\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]+)|\s+$/g) ?? [];
}

function foldDiacritics(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "");
}

/**
 * The same word with a typo: Damerau-Levenshtein distance 1 for words of 5 to 8 letters, 2 from 9 on;
 * shorter words must match exactly (too many short words lie one letter apart).
 */
export function nearlySameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const n = a.length;
  const m = b.length;
  if (Math.min(n, m) < 5 || /\d/.test(a) || /\d/.test(b)) return false;
  const limit = Math.min(n, m) >= 9 ? 2 : 1;
  if (Math.abs(n - m) > limit) return false;
  let before: number[] = [];
  let previous = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= m; j++) {
      let cost = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, before[j - 2] + 1);
      current.push(cost);
      best = Math.min(best, cost);
    }
    if (best > limit) return false;
    before = previous;
    previous = current;
  }
  return previous[m] <= limit;
}

function cosine(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export class ExtractiveAnswerer {
  constructor(
    private readonly scorer: LexicalScorer,
    private readonly vectorizer: TextVectorizer,
  ) {}

  /** The question's terms, and those a follow-up borrows from the question before (the latter also listed in `borrowed`). */
  private questionTerms(question: string, history: string[]): { terms: QueryTerm[]; borrowed: Set<string> } {
    const terms = this.scorer.analyzeQuery(question);
    const previous = history[history.length - 1];
    if (!previous || !refersToEarlierTurns(question)) return { terms, borrowed: new Set() };
    const known = new Set(terms.map((t) => t.term));
    const taken = this.scorer.analyzeQuery(antecedentOf(previous) ?? previous).filter((t) => !known.has(t.term));
    // Together the borrowed terms weigh at most HISTORY_WEIGHT of the question's own: many words of the
    // question before must not outrank the one word the follow-up asks about ("Can they carry them over?").
    const own = terms.reduce((sum, t) => sum + t.weight, 0);
    const theirs = taken.reduce((sum, t) => sum + t.weight, 0);
    const scale = theirs === 0 ? 0 : HISTORY_WEIGHT * Math.min(1, own > 0 ? own / theirs : 1);
    const borrowed = taken.map((t) => ({ ...t, weight: t.weight * scale }));
    return { terms: [...terms, ...borrowed], borrowed: new Set(borrowed.map((t) => t.term)) };
  }

  /**
   * Terms that name something specific — numbers, words too rare for any WordNet gloss (names, codes),
   * capitalised words inside the question (proper names) — which a passage must contain to answer.
   */
  private specificTerms(question: string): Token[] {
    const specific = new Map<string, Token>();
    for (const t of tokenize(question)) if (!t.cjk && (/\d/.test(t.term) || this.scorer.idf(t) >= this.scorer.maxIdf)) specific.set(t.term, t);
    const words = [...question.matchAll(/[\p{L}\p{N}]+/gu)];
    words.forEach((match, i) => {
      if (i === 0 || !/^\p{Lu}/u.test(match[0])) return;
      for (const t of tokenize(match[0])) if (!t.cjk) specific.set(t.term, t);
    });
    return [...specific.values()];
  }

  /**
   * WordNet opposites of a question's stem; for a comparative or superlative, those of its base as well
   * ("lowest" has its own antonym "best", but it is "highest" that a sentence answers it wrongly with).
   */
  private opposites(stem: string): string[] {
    const base = /^(.{3,}?)(?:est|er)$/.exec(stem)?.[1];
    return base ? [...this.scorer.antonyms(stem), ...this.scorer.antonyms(base)] : this.scorer.antonyms(stem);
  }

  /** Why a sentence (with its neighbours, `window`) cannot hold the answer, if it cannot: the question's polarity, opposites, or the kind of answer. */
  private contradicts(question: QuestionShape, sentence: string, window: string): boolean {
    const terms = new Set(question.terms);
    // The negation must bear on the question's words in the sentence itself: a "not" elsewhere is about something else.
    if (question.negated && !negationBearsOn(sentence, terms)) return true;
    // A sentence that denies what the question states ("… is not always practical" for "What is always
    // practical?") does not answer it: a negation right before one of the question's words.
    if (!question.negated && negationBearsOn(sentence, terms, 1)) return true;
    if (question.restrictive.length > 0) {
      const words = new Set(tokenize(window, { keepStopWords: true }).map((t) => t.word));
      if (question.restrictive.some((w) => !words.has(w))) return true;
    }
    // An opposite counts where the answer would be, in the sentence, and only when the question does not
    // use it itself ("Western texts about the East"): WordNet's opposites of rarer senses ("take" / "give")
    // are common words, which a neighbouring sentence has by chance.
    const inWindow = this.scorer.analyzeText(window).positions;
    const inSentence = this.scorer.analyzeText(sentence).positions;
    const has = (stem: string) => inSentence.has(stem) || inSentence.has(`${stem}est`) || inSentence.has(`${stem}er`);
    for (const term of terms) {
      if (!inWindow.has(term) && this.opposites(term).some((o) => !terms.has(o) && has(o))) return true;
    }
    if (question.wantsNumber && !hasNumber(window)) return true;
    if (question.kind && !holdsAnswerOfKind(question.kind, sentence, question.text)) return true;
    return false;
  }

  private shape(question: string): QuestionShape {
    const words = tokenize(question, { keepStopWords: true });
    return {
      text: question,
      negated: words.some((t) => NEGATIONS.has(t.word)),
      restrictive: [...new Set(words.filter((t) => RESTRICTIVE.has(t.word)).map((t) => t.word))],
      terms: words.filter((t) => !t.cjk && !ENGLISH_STOP_WORDS.has(t.word)).map((t) => t.term),
      wantsNumber: WANTS_NUMBER.test(question),
      kind: answerKind(question),
    };
  }

  /**
   * Whether a sentence, with its neighbours (`window`) and its document's title, answers the question;
   * see the class comment.
   */
  private answers(question: Question, sentence: string, statement: string, window: string, passage: Passage): boolean {
    if (this.contradicts(question.shape, sentence, window)) return false;
    const title = [passage.title, headingOf(passage.text)].filter(Boolean).join("\n");
    const inWindow = this.presence(question, `${title}\n${window}`);
    if (!question.specific.every((t) => inWindow.has(t.term, t.word))) return false;
    // Chinese has no WordNet here to relate a question's words to a paraphrase's, so its coverage is
    // measured over the whole passage, as a topic check (cmrc2018: 87 % → 91 % of the questions answered from the right passage).
    const inPassage = question.chinese ? this.scorer.analyzeText(`${title}\n${passage.text}`).positions : undefined;
    const inStatement = this.presence(question, `${title}\n${statement}`);
    let total = 0;
    let covered = 0;
    let coveredByStatement = 0;
    // Chinese character bigrams only help matching; the weight to cover is that of the question's words.
    const words = question.terms.some((t) => !t.term.startsWith("\u0002"));
    for (const term of question.terms) {
      if (QUESTION_FRAME.has(term.term) || question.borrowed.has(term.term) || (words && term.term.startsWith("\u0002"))) continue;
      total += term.weight;
      if (inPassage?.has(term.term) || inWindow.has(term.term) || inWindow.hasRelated(term)) covered += term.weight;
      if (inStatement.has(term.term) || inStatement.hasRelated(term)) coveredByStatement += term.weight;
    }
    if (total === 0 || covered < MIN_COVERAGE * total) return false;
    return question.chinese || coveredByStatement >= SENTENCE_SHARE_OF_COVERAGE * covered;
  }

  /**
   * Whether the question's words occur in a text: as written, misspelt (long words only), or as another
   * form of the same name — "Parisian" for "Paris", "18th" (century) for "1700s", "EU" for "European
   * Union" and back; `hasRelated`: through WordNet's relations.
   */
  private presence(question: Question, text: string) {
    const positions = this.scorer.analyzeText(text).positions;
    let written: string[] | undefined;
    let acronyms: Map<string, string[]> | undefined;
    let abbreviations: Set<string> | undefined;
    return {
      has: (term: string, word = question.words.get(term)): boolean => {
        if (positions.has(term)) return true;
        if (word === undefined) return false;
        written ??= [...new Set(tokenize(text).map((t) => foldDiacritics(t.word)))];
        const folded = foldDiacritics(word);
        if (written.some((w) => sameNameVariant(folded, w) || (folded.length >= 5 && nearlySameWord(folded, w)))) return true;
        acronyms ??= acronymsOf(text);
        if (question.abbreviations.has(word) && acronyms.has(word)) return true;
        abbreviations ??= capitalisedAbbreviations(text);
        for (const [acronym, spelled] of question.acronyms) if (spelled.includes(word) && abbreviations.has(acronym)) return true;
        return false;
      },
      hasRelated: (term: QueryTerm): boolean => term.related.some(([stem]) => positions.has(stem)),
    };
  }


  /**
   * The answer: each part of the question (questionParts) answered from the passages, the parts' sentences
   * told once each in reading order; "not found" when no part is answered.
   */
  answer(passages: Passage[], question: string, history: string[], notFound: string): ExtractiveAnswer {
    const notFoundAnswer = { text: notFound, cited: [], found: false };
    if (passages.length === 0) return notFoundAnswer;
    // A heading is not a statement that could answer: it serves as the passage's title (see answers).
    const sentencesOf = passages.map((p) => splitSentences(p.text).slice(headingOf(p.text) === undefined ? 0 : 1));
    const parts = questionParts(question);
    const picks = parts.flatMap((part, i) => this.select(passages, sentencesOf, part, [...history, ...parts.slice(0, i)]) ?? []);
    if (picks.length === 0) return notFoundAnswer;
    return this.render(passages, sentencesOf, picks, question);
  }

  /** The sentences that answer one question, per passage, best first; null when the best place does not answer it. */
  private select(passages: Passage[], sentencesOf: string[][], question: string, history: string[]): Pick[] | null {
    const { terms, borrowed } = this.questionTerms(question, history);
    if (terms.length === 0) return null;
    const asked: Question = {
      terms,
      borrowed,
      chinese: isCjk(question),
      words: new Map(tokenize(question).map((t) => [t.term, t.word])),
      specific: this.specificTerms(question),
      shape: this.shape(question),
      acronyms: acronymsOf(question),
      abbreviations: capitalisedAbbreviations(question),
    };

    const questionVector = this.vectorizer.vector(question);
    const analyzedPassages = passages.map((p) => this.scorer.analyzeText(`${p.title ?? ""}\n${p.text}`));
    const passageLength = analyzedPassages.reduce((s, a) => s + a.length, 0) / passages.length;
    const passageScores = passages.map((_, i) => this.scorer.score(terms, analyzedPassages[i], passageLength).score);
    const bestPassage = Math.max(...passageScores);
    if (bestPassage === 0) return null;

    const all = sentencesOf.flat();
    const sentenceLength = all.reduce((s, x) => s + tokenize(x).length, 0) / Math.max(all.length, 1);
    const candidates: Candidate[] = [];
    passages.forEach((_, p) => {
      const sentences = sentencesOf[p];
      sentences.forEach((sentence, i) => {
        const own = this.scorer.score(terms, this.scorer.analyzeText(sentence), sentenceLength);
        if (own.score === 0) return;
        const window = sentences.slice(Math.max(0, i - 1), i + 2).join(" ");
        // The kind of answer asked for selects where to look: a "when" question is answered where a date is.
        if (asked.shape.wantsNumber && !hasNumber(window)) return;
        const around = this.scorer.score(terms, this.scorer.analyzeText(window), sentenceLength * Math.min(3, sentences.length));
        const semantic = Math.max(0, cosine(questionVector, this.vectorizer.vector(sentence)));
        const score =
          SENTENCE_SHARE * own.score + WINDOW_SHARE * around.score + COSINE_SHARE * semantic + (PASSAGE_SHARE * passageScores[p]) / bestPassage;
        candidates.push({ passage: p, sentence: i, score });
      });
    });
    if (candidates.length === 0) return null;

    candidates.sort((a, b) => b.score - a.score);
    const answering = (c: Candidate) => {
      const sentences = sentencesOf[c.passage];
      const window = sentences.slice(Math.max(0, c.sentence - 1), c.sentence + 2).join(" ");
      return this.answers(asked, sentences[c.sentence], statementAround(sentences, c.sentence), window, passages[c.passage]);
    };
    if (!answering(candidates[0])) return null;
    const chosen = [candidates[0]];
    for (const c of candidates.slice(1)) {
      if (chosen.length >= MAX_SENTENCES || c.score < COMPANION_RATIO * candidates[0].score) break;
      // A sentence that says again what a chosen one says (the same text in another chunk, a RAPTOR
      // summary quoting it) takes no place among the answer's sentences.
      if (chosen.some((o) => sameStatement(sentencesOf[o.passage][o.sentence], sentencesOf[c.passage][c.sentence]))) continue;
      if (answering(c)) chosen.push(c);
    }

    // Sentences picked per passage, in reading order; a picked sentence that lacks the kind of answer
    // asked for (a number for "how many") brings the neighbour that has it.
    const picks: Pick[] = [];
    for (const c of chosen) {
      let pick = picks.find((p) => p.passage === c.passage);
      if (!pick) picks.push((pick = { passage: c.passage, sentences: [], question: asked }));
      pick.sentences.push(c.sentence);
      const sentences = sentencesOf[c.passage];
      if (asked.shape.wantsNumber && !hasNumber(sentences[c.sentence])) {
        const neighbour = [c.sentence + 1, c.sentence - 1].find((j) => j >= 0 && j < sentences.length && hasNumber(sentences[j]));
        if (neighbour !== undefined) pick.sentences.push(neighbour);
      }
    }
    return picks;
  }

  /**
   * The picked sentences as the answer: per passage in reading order, each followed by its citation; a
   * sentence said once only (nor one that repeats an earlier one nearly word for word); a table row told
   * as a sentence (row-sentence.ts).
   */
  private render(passages: Passage[], sentencesOf: string[][], picks: Pick[], question: string): ExtractiveAnswer {
    const language = languageOf(question);
    const joiner = isCjk(question) ? "" : " ";
    const said: string[] = [];
    const cited: string[] = [];
    const pieces: string[] = [];
    for (const pick of picks) {
      const told: string[] = [];
      for (const j of [...new Set(pick.sentences)].sort((a, b) => a - b)) {
        const sentence = sentencesOf[pick.passage][j];
        if (said.some((s) => sameStatement(s, sentence))) continue;
        said.push(sentence);
        told.push(rowSentence(sentence, this.rowQuestion(pick.question, language)) ?? sentence);
      }
      if (told.length === 0) continue;
      const id = passages[pick.passage].id;
      const at = cited.indexOf(id);
      if (at >= 0) {
        // Another part of the question picked from the same passage: its sentences join that passage's.
        pieces[at] = pieces[at].replace(/ \[ID:[^\]]*\]$/, `${joiner}${told.join(joiner)} [ID:${id}]`);
        continue;
      }
      cited.push(id);
      pieces.push(`${told.join(joiner)} [ID:${id}]`);
    }
    return { text: pieces.join(joiner), cited, found: true };
  }

  /** What a table row needs to know of the question to be told as its answer. */
  private rowQuestion(question: Question, language: AnswerLanguage): RowQuestion {
    const stems = new Set(question.terms.flatMap((t) => [t.term, ...t.related.map(([stem]) => stem)]));
    const named = this.scorer.analyzeText(question.shape.text).positions;
    return {
      text: question.shape.text,
      language,
      wantsNumber: question.shape.wantsNumber,
      asksAbout: (column) => [...this.scorer.analyzeText(column).positions.keys()].some((stem) => stems.has(stem)),
      names: (value) => {
        const stemsOfValue = [...this.scorer.analyzeText(value).positions.keys()];
        return stemsOfValue.length > 0 && stemsOfValue.every((stem) => named.has(stem));
      },
    };
  }
}

/** Share of the shorter sentence's words that the longer must hold for the two to say the same thing. */
const SAME_STATEMENT_OVERLAP = 0.8;
/** A sentence of fewer content words is the same as another only word for word: a few words are found anywhere. */
const SAME_STATEMENT_MIN_WORDS = 4;

/** Two sentences that say the same thing: the same words, or nearly all of the shorter one's within the longer. */
export function sameStatement(a: string, b: string): boolean {
  const words = (text: string) => new Set(tokenize(text).map((t) => t.term));
  const [x, y] = [words(a), words(b)];
  if (x.size === 0 || y.size === 0) return a.trim() === b.trim();
  const [shorter, longer] = x.size <= y.size ? [x, y] : [y, x];
  let shared = 0;
  for (const w of shorter) if (longer.has(w)) shared++;
  if (shorter.size < SAME_STATEMENT_MIN_WORDS) return shared === longer.size;
  return shared >= SAME_STATEMENT_OVERLAP * shorter.size;
}

/** Words that open a question, and those that open a yes/no question. */
const WH_WORD = "what|when|where|who|whom|whose|which|why|how";
const QUESTION_OPENER = new RegExp(`^\\W*(?:${WH_WORD}|is|are|was|were|do|does|did|can|could|will|would|should|has|have|if so)\\b`, "i");
/** "… and when …" (a wh-word: "… and are known to …" joins two verbs of one question), a question mark or a semicolon within. */
const SECOND_QUESTION = new RegExp(`\\s*,?\\s+and\\s+(?=(?:${WH_WORD})\\b)|(?<=[?？])\\s*(?=\\S)|\\s*[;；]\\s*`, "i");
const CHINESE_QUESTION_WORD = /什么|甚麼|哪|谁|誰|多少|几|幾|如何|怎么|怎麼|为什么|為什麼|是否|吗|嗎/;

/**
 * The questions a question asks: "What causes tides and when are they highest?" asks two, each answered
 * on its own ("when are they highest?" with the first as its antecedent). It is split only where every
 * part is itself a question (opens with a question word, or holds one in Chinese); a part without a
 * content word of its own stays with the part before it.
 */
export function questionParts(question: string): string[] {
  const chinese = isCjk(question);
  const pieces = (chinese ? question.split(/(?<=[？?；;])|[，,](?:以及|并且|並且|还有|還有)?|以及|并且|並且/) : question.split(SECOND_QUESTION))
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (!pieces.every((p) => (chinese ? CHINESE_QUESTION_WORD.test(p) : QUESTION_OPENER.test(p)))) return [question];
  const parts: string[] = [];
  for (const piece of pieces) {
    if (parts.length > 0 && tokenize(piece).length === 0) parts[parts.length - 1] += ` ${piece}`;
    else parts.push(piece);
  }
  return parts.length > 1 ? parts : [question];
}

let shared: Promise<ExtractiveAnswerer> | undefined;

export function extractiveAnswerer(): Promise<ExtractiveAnswerer> {
  shared ??= Promise.all([lexicalScorer(), defaultVectorizer()]).then(([scorer, vectorizer]) => new ExtractiveAnswerer(scorer, vectorizer));
  shared.catch(() => (shared = undefined));
  return shared;
}

export class BuiltinExtractiveChat implements ChatModel {
  /** It quotes sentences: it can neither call tools nor shape an answer to a schema. */
  readonly capabilities = TEXT_ONLY;
  readonly extractive = true;

  /** `delayMs`: the pause between streamed words, so that clients render a stream rather than a block. */
  constructor(private readonly delayMs = 12) {}

  async *stream(messages: ChatMessage[], options?: GenerationOptions): AsyncIterable<ChatEvent> {
    const prompt = readPrompt(messages);
    // Its own sentences in the question's language; the prompt's "not found" sentence when the prompt is in that language too.
    const texts = fixedSentences(prompt.question);
    const notFound = languageOf(prompt.notFoundSentence) === languageOf(prompt.question) ? prompt.notFoundSentence : texts.notFound;
    let text: string;
    if (prompt.passages === null) text = texts.noKnowledge;
    else if (isSmallTalk(prompt.question)) text = texts.noQuestion;
    else {
      const answerer = await extractiveAnswerer();
      text = answerer.answer(prompt.passages, prompt.question, prompt.history, notFound).text;
    }

    const promptTokens = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    let completionTokens = 0;
    let reason: "stop" | "length" = "stop";
    for (const piece of streamPieces(text)) {
      options?.signal?.throwIfAborted();
      const tokens = countTokens(piece);
      if (options?.maxTokens !== undefined && completionTokens + tokens > options.maxTokens) {
        reason = "length";
        break;
      }
      completionTokens += tokens;
      yield { type: "delta", text: piece };
      if (this.delayMs > 0) await sleep(this.delayMs);
    }
    yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens } };
    yield { type: "finish", reason };
  }
}
