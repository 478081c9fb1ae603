import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions } from "../model-types";
import { countTokens } from "../tokens";
import { defaultVectorizer, type TextVectorizer } from "./embedding";
import { readPrompt, type Passage } from "./knowledge-prompt";
import { lexicalScorer } from "./lexical-rerank";
import type { AnalyzedText, LexicalScorer, QueryTerm } from "./lexical-scoring";
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, isCjk, tokenize } from "./text-analysis";

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
 * Answering at all: a passage can answer a question only if it is about what the question is about.
 * - It must be among the best-matching passages (at least 3/4 of the best passage's lexical score);
 * - it must hold at least half of the question's weight (each term weighted by its IDF, so that "what
 *   year" weighs little and "Normandy" much);
 * - every term that names something specific — a number, a word too rare for any WordNet gloss (names,
 *   codes), a capitalised word inside the question — must occur in it.
 * A sentence can hold the answer only if its neighbourhood does not contradict the question: a negated
 * question needs a negation; a question word absent from it must not have its WordNet antonym there
 * ("largest" / "smallest"); a "when" or "how many" question needs a number, a date or a quantity.
 * Without such a sentence the answer is the prompt's "not found" sentence, as RAGFlow's prompt demands.
 */

const SENTENCE_SHARE = 0.5;
const WINDOW_SHARE = 0.3;
const COSINE_SHARE = 0.2;
/** Only passages scoring at least this fraction of the best passage may answer: a weak match answers nothing. */
const PASSAGE_RATIO = 0.75;
/** Share of the question's weight the chosen passage must contain. */
const MIN_COVERAGE = 0.5;
/** A further sentence joins the answer when it scores at least this fraction of the best one. */
const COMPANION_RATIO = 0.75;
const MAX_SENTENCES = 3;
/** A short follow-up ("and in 1990?") borrows the previous question's terms at this weight. */
const HISTORY_WEIGHT = 0.5;

const EXPLANATION = {
  en: {
    noKnowledge:
      "I am Cairn's built-in extractive model, not a language model: I can only answer by quoting the knowledge base, and this conversation has no knowledge attached. Link a knowledge base to this assistant, or choose a chat model from a model provider to converse freely.",
    noQuestion: "I am Cairn's built-in extractive model: I answer questions by quoting the knowledge base. Please ask a question about its content.",
  },
  zh: {
    noKnowledge: "我是 Cairn 内置的抽取式模型，不是大语言模型：我只能摘录知识库中的原文来回答，而当前对话没有关联知识库。请为助手关联知识库，或在模型设置中选择一个对话模型以便自由对话。",
    noQuestion: "我是 Cairn 内置的抽取式模型：我通过摘录知识库原文来回答问题。请提出与知识库内容有关的问题。",
  },
};

/** Words that turn a statement around; a question that has one is not answered by a passage that has none. */
const NEGATIONS = new Set("not no never none nobody nothing neither nor without cannot can't don't doesn't didn't isn't aren't wasn't weren't won't 不 没 没有 未 非 无 别".split(" "));
/** Questions whose answer is a number, a date or a quantity. */
const WANTS_NUMBER = /\b(?:when|what year|which year|what decade|what century|how many|how much|how long|how old|how far|how large|how big|what percentage|what percent)\b|多少|几|哪一年|哪年|何时|什么时候/i;
const NUMBER_WORDS = new Set(
  (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion billions trillion dozen dozens half quarter " +
    "first second third fourth fifth sixth seventh eighth ninth tenth century centuries decade decades year years january february march april may june july august september october november december " +
    "spring summer autumn fall winter today yesterday tomorrow ago bc bce ad ce 一 二 三 四 五 六 七 八 九 十 百 千 万 亿 年 月 日 世纪"
  ).split(" "),
);

function hasNumber(text: string): boolean {
  return tokenize(text, { keepStopWords: true }).some((t) => /\d/.test(t.word) || NUMBER_WORDS.has(t.word));
}

interface QuestionShape {
  negated: boolean;
  /** Stems of the question's content words. */
  terms: string[];
  wantsNumber: boolean;
}

interface Candidate {
  /** Index of the passage, and of the sentence in it. */
  passage: number;
  sentence: number;
  score: number;
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

  private questionTerms(question: string, history: string[]): QueryTerm[] {
    const terms = this.scorer.analyzeQuery(question);
    const previous = history[history.length - 1];
    if (terms.filter((t) => !t.term.startsWith("\u0002")).length >= 2 || !previous) return terms;
    const known = new Set(terms.map((t) => t.term));
    const borrowed = this.scorer
      .analyzeQuery(previous)
      .filter((t) => !known.has(t.term))
      .map((t) => ({ ...t, weight: t.weight * HISTORY_WEIGHT }));
    return [...terms, ...borrowed];
  }

  /**
   * Terms that name something specific — numbers, words too rare for any WordNet gloss (names, codes),
   * capitalised words inside the question (proper names) — which a passage must contain to answer.
   */
  private specificTerms(question: string): string[] {
    const specific = new Set<string>();
    for (const t of tokenize(question)) if (!t.cjk && (/\d/.test(t.term) || this.scorer.idf(t) >= this.scorer.maxIdf)) specific.add(t.term);
    const words = [...question.matchAll(/[\p{L}\p{N}]+/gu)];
    words.forEach((match, i) => {
      if (i === 0 || !/^\p{Lu}/u.test(match[0])) return;
      for (const t of tokenize(match[0])) if (!t.cjk) specific.add(t.term);
    });
    return [...specific];
  }

  /** Why a window of text cannot hold the answer, if it cannot: the question's polarity, opposites, or the kind of answer. */
  private contradicts(question: QuestionShape, window: string, analyzed: AnalyzedText): boolean {
    const words = tokenize(window, { keepStopWords: true });
    if (question.negated && !words.some((t) => NEGATIONS.has(t.word))) return true;
    for (const term of question.terms) {
      if (analyzed.positions.has(term)) continue;
      const opposites = this.scorer.antonyms(term);
      if (opposites.some((o) => analyzed.positions.has(o) || analyzed.positions.has(`${o}est`) || analyzed.positions.has(`${o}er`))) return true;
    }
    if (question.wantsNumber && !hasNumber(window)) return true;
    return false;
  }

  private shape(question: string): QuestionShape {
    const words = tokenize(question, { keepStopWords: true });
    return {
      negated: words.some((t) => NEGATIONS.has(t.word)),
      terms: words.filter((t) => !t.cjk && !ENGLISH_STOP_WORDS.has(t.word)).map((t) => t.term),
      wantsNumber: WANTS_NUMBER.test(question),
    };
  }

  answer(passages: Passage[], question: string, history: string[], notFound: string): ExtractiveAnswer {
    const terms = this.questionTerms(question, history);
    const notFoundAnswer = { text: notFound, cited: [], found: false };
    if (terms.length === 0 || passages.length === 0) return notFoundAnswer;

    const questionVector = this.vectorizer.vector(question);
    const specific = this.specificTerms(question);
    const analyzedPassages = passages.map((p) => this.scorer.analyzeText(`${p.title ?? ""}\n${p.text}`));
    const passageLength = analyzedPassages.reduce((s, a) => s + a.length, 0) / passages.length;
    const passageScores = passages.map((_, i) => this.scorer.score(terms, analyzedPassages[i], passageLength));
    const bestPassage = Math.max(...passageScores.map((s) => s.score));
    const answerable = passages.map(
      (_, i) =>
        passageScores[i].score >= PASSAGE_RATIO * bestPassage &&
        passageScores[i].coverage >= MIN_COVERAGE &&
        specific.every((term) => analyzedPassages[i].positions.has(term)),
    );

    const shape = this.shape(question);
    const sentencesOf = passages.map((p) => splitSentences(p.text));
    const all = sentencesOf.flat();
    const sentenceLength = all.reduce((s, x) => s + tokenize(x).length, 0) / Math.max(all.length, 1);
    const candidates: Candidate[] = [];
    passages.forEach((_, p) => {
      if (!answerable[p]) return;
      const sentences = sentencesOf[p];
      sentences.forEach((sentence, i) => {
        const own = this.scorer.score(terms, this.scorer.analyzeText(sentence), sentenceLength);
        if (own.score === 0) return;
        const window = sentences.slice(Math.max(0, i - 1), i + 2).join(" ");
        const analyzedWindow = this.scorer.analyzeText(window);
        if (this.contradicts(shape, window, analyzedWindow)) return;
        const around = this.scorer.score(terms, analyzedWindow, sentenceLength * Math.min(3, sentences.length));
        const semantic = Math.max(0, cosine(questionVector, this.vectorizer.vector(sentence)));
        candidates.push({ passage: p, sentence: i, score: SENTENCE_SHARE * own.score + WINDOW_SHARE * around.score + COSINE_SHARE * semantic });
      });
    });
    if (candidates.length === 0) return notFoundAnswer;

    candidates.sort((a, b) => b.score - a.score);
    const chosen = candidates.filter((c, i) => i === 0 || c.score >= COMPANION_RATIO * candidates[0].score).slice(0, MAX_SENTENCES);

    // Sentences picked per passage, in reading order; a picked sentence that lacks the kind of answer
    // asked for (a number for "how many") brings the neighbour that has it.
    const picked = new Map<number, Set<number>>();
    for (const c of chosen) {
      const set = picked.get(c.passage) ?? new Set<number>();
      set.add(c.sentence);
      const sentences = sentencesOf[c.passage];
      if (shape.wantsNumber && !hasNumber(sentences[c.sentence])) {
        const neighbour = [c.sentence + 1, c.sentence - 1].find((j) => j >= 0 && j < sentences.length && hasNumber(sentences[j]));
        if (neighbour !== undefined) set.add(neighbour);
      }
      picked.set(c.passage, set);
    }
    const chinese = isCjk(question);
    const joiner = chinese ? "" : " ";
    const cited: string[] = [];
    const pieces: string[] = [];
    for (const c of chosen) {
      const set = picked.get(c.passage);
      if (!set) continue;
      picked.delete(c.passage);
      const id = passages[c.passage].id;
      cited.push(id);
      pieces.push(`${[...set].sort((a, b) => a - b).map((j) => sentencesOf[c.passage][j]).join(joiner)} [ID:${id}]`);
    }
    return { text: pieces.join(joiner), cited, found: true };
  }
}

let shared: Promise<ExtractiveAnswerer> | undefined;

export function extractiveAnswerer(): Promise<ExtractiveAnswerer> {
  shared ??= Promise.all([lexicalScorer(), defaultVectorizer()]).then(([scorer, vectorizer]) => new ExtractiveAnswerer(scorer, vectorizer));
  shared.catch(() => (shared = undefined));
  return shared;
}

export class BuiltinExtractiveChat implements ChatModel {
  /** `delayMs`: the pause between streamed words, so that clients render a stream rather than a block. */
  constructor(private readonly delayMs = 12) {}

  async *stream(messages: ChatMessage[], options?: GenerationOptions): AsyncIterable<ChatEvent> {
    const prompt = readPrompt(messages);
    const chinese = isCjk(prompt.question);
    const texts = chinese ? EXPLANATION.zh : EXPLANATION.en;
    let text: string;
    if (prompt.passages === null) text = texts.noKnowledge;
    else if (isSmallTalk(prompt.question)) text = texts.noQuestion;
    else {
      const answerer = await extractiveAnswerer();
      text = answerer.answer(prompt.passages, prompt.question, prompt.history, prompt.notFoundSentence).text;
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
