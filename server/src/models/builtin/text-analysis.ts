import type { Jieba } from "@node-rs/jieba";
import { stemEnglish } from "./english-stemmer";

/**
 * Text analysis shared by the built-in models and keyword search: words of alphabetic scripts are
 * lower-cased, stripped of stop words and stemmed (Porter2), a lone Greek letter is spelt out and a
 * hyphenated compound also yields its joined form; runs of Chinese characters are folded to Simplified
 * Chinese (OpenCC's Traditional, Taiwan and Hong Kong tables, phrase-aware: 臺灣 and 台灣 are both 台湾) and
 * segmented with jieba, whose dictionary is Simplified — unfolded, a Traditional text segments into other
 * words than the same text in Simplified script, and a question in one script never meets a passage in the other.
 * Deterministic and dependent on nothing but the text, so that the same text always yields the same terms.
 * A change here changes stored terms: it needs a migration that analyses the chunks again (as
 * 1764200000000-reanalyse-search-terms) and new versions of the lexicon's caches (lexicon.ts).
 */

export interface Token {
  /** The term used for matching: a stem, or a Chinese word. */
  term: string;
  /** The word as written, lower-cased. */
  word: string;
  cjk: boolean;
  /**
   * A hyphenated compound written as one word ("IL-6" → "il6"), which follows its parts: authors spell
   * such compounds both ways. It overlaps its parts, so it is not a word of its own in a text's length.
   */
  joined?: true;
}

/**
 * English stop words: the Snowball list (function words only). Content words such as "new" or "first"
 * stay, because a claim like "first-line treatment" depends on them.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself " +
    "they them their theirs themselves what which who whom this that these those am is are was were be been being have has had " +
    "having do does did doing would should could ought i'm you're he's she's it's we're they're i've you've we've they've i'd " +
    "you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't aren't wasn't weren't hasn't haven't hadn't " +
    "doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't mustn't let's that's who's what's here's there's " +
    "when's where's why's how's a an the and but if or because as until while of at by for with about against between into " +
    "through during before after above below to from up down in out on off over under again further then once here there when " +
    "where why how all any both each few more most other some such only own same so than too very can will just should now"
  ).split(" "),
);

/** Chinese function words and particles that carry no topic. */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "的 了 是 在 和 与 及 或 也 都 就 而 且 并 又 着 过 吗 呢 吧 啊 呀 么 之 其 于 以 为 被 把 将 从 对 向 由 所 这 那 这个 那个 这些 那些 " +
    "一个 一种 我 你 他 她 它 我们 你们 他们 她们 它们 自己 什么 哪 哪个 哪些 谁 怎么 怎样 如何 为什么 多少 几 是否 有 没有 " +
    "的話 的话 們 這 這個 那個 這些 甚麼 什麼 為 與 於 對 從 將 把 個 嗎 吧 呢"
  ).split(" "),
);

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ffff}]/u;
const CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ffff}]+/gu;
/** Letters and digits of any other script; an apostrophe inside a word ("don't") stays part of it. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** A hyphenated compound needs a letter: ranges of numbers ("2-3") are no compounds. */
const HAS_LETTER = /\p{L}/u;

let jieba: Jieba | undefined;
let toSimplified: ((text: string) => string) | undefined;

/** Stems of words already seen: stemming is the costliest step of analysis, and vocabularies repeat. */
const stems = new Map<string, string>();
const STEM_MEMORY = 200_000;

function stem(word: string): string {
  let result = stems.get(word);
  if (result === undefined) {
    result = /^[a-z']+$/.test(word) ? stemEnglish(word) : word;
    if (stems.size >= STEM_MEMORY) stems.clear();
    stems.set(word, result);
  }
  return result;
}

/** jieba with its default dictionary (~0.3 s to load), on first use. */
export function chineseSegmenter(): Jieba {
  if (!jieba) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Jieba } = require("@node-rs/jieba") as typeof import("@node-rs/jieba");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { dict } = require("@node-rs/jieba/dict") as typeof import("@node-rs/jieba/dict");
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

/**
 * Chinese text in Simplified script: Traditional characters and the Taiwan and Hong Kong variant forms become
 * their Simplified forms (~10 ms to load the tables, on first use). Simplified text stays as it is.
 */
export function foldChineseScript(text: string): string {
  toSimplified ??= simplifiedConverter();
  return toSimplified(text);
}

function simplifiedConverter(): (text: string) => string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ConverterFactory, Locale } = require("opencc-js/t2cn") as typeof import("opencc-js");
  return ConverterFactory(Locale.from.tw, Locale.from.hk, Locale.to.cn);
}

export function isCjk(text: string): boolean {
  return CJK.test(text);
}

const GREEK_NAMES = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma sigma tau upsilon phi chi psi omega".split(" ");
const GREEK_LETTER = /[\u03b1-\u03c9]/;
const LONE_GREEK_LETTER = /(?<!\p{Script=Greek})[\u03b1-\u03c9](?!\p{Script=Greek})/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * A Greek letter standing alone in Latin text is a scientific symbol ("TNF-α", "β-catenin", "TNFα"), which
 * authors also spell out ("TNF-alpha"): it becomes its name, a word of its own. Greek words are left alone.
 */
function spellGreekLetters(text: string): string {
  if (!GREEK_LETTER.test(text)) return text;
  return text.replace(LONE_GREEK_LETTER, (letter, at: number) => {
    const name = GREEK_NAMES[letter.charCodeAt(0) - 0x3b1];
    const before = LETTER_OR_DIGIT.test(text[at - 1] ?? "") ? " " : "";
    const after = LETTER_OR_DIGIT.test(text[at + 1] ?? "") ? " " : "";
    return before + name + after;
  });
}

/** Words of `text` in order, with Chinese runs segmented; stop words dropped unless `keepStopWords`. */
export function tokenize(text: string, options: { keepStopWords?: boolean } = {}): Token[] {
  const tokens: Token[] = [];
  const normalized = spellGreekLetters(text.normalize("NFKC").toLowerCase());
  let last = 0;
  const pushWords = (segment: string) => {
    // Where the hyphenated compound being read ("il-6") starts and ends; it is joined once it ends.
    let compoundStart = -1;
    let compoundEnd = -1;
    for (const match of segment.matchAll(WORD)) {
      const word = match[0].replace(/’/g, "'");
      if (options.keepStopWords || !ENGLISH_STOP_WORDS.has(word)) {
        const base = word.endsWith("'s") ? word.slice(0, -2) : word;
        tokens.push({ term: stem(base), word: base, cjk: false });
      }
      const inCompound = match.index === compoundEnd + 1 && segment[compoundEnd] === "-";
      if (!inCompound) compoundStart = match.index!;
      compoundEnd = match.index! + match[0].length;
      const continues = segment[compoundEnd] === "-" && LETTER_OR_DIGIT.test(segment[compoundEnd + 1] ?? "");
      if (inCompound && !continues) {
        const joined = segment.slice(compoundStart, compoundEnd).replace(/-/g, "").replace(/’/g, "'");
        if (HAS_LETTER.test(joined)) tokens.push({ term: stem(joined), word: joined, cjk: false, joined: true });
      }
    }
  };


  for (const run of normalized.matchAll(CJK_RUN)) {
    pushWords(normalized.slice(last, run.index));
    for (const word of chineseSegmenter().cut(foldChineseScript(run[0]), true)) {
      if (!options.keepStopWords && CHINESE_STOP_WORDS.has(word)) continue;
      tokens.push({ term: word, word, cjk: true });
    }
    last = run.index! + run[0].length;
  }
  pushWords(normalized.slice(last));
  return tokens;
}

/** Marks a character bigram as a term of its own, apart from a two-character word. */
const BIGRAM_MARK = "\u0002";

/**
 * The overlapping character bigrams of the Chinese runs of `text` (folded as `tokenize` folds them), as
 * terms: "战国无双" gives 战国, 国无, 无双. They match where segmentation differs between a question and
 * a passage — an unknown name jieba's HMM splits one way here and another there, a long word whose parts
 * are asked for — which is why plain bigram BM25 is the usual baseline for Chinese.
 */
export function chineseBigrams(text: string): string[] {
  const bigrams: string[] = [];
  for (const run of text.normalize("NFKC").toLowerCase().matchAll(CJK_RUN)) {
    const characters = [...foldChineseScript(run[0])];
    for (let i = 0; i + 1 < characters.length; i++) bigrams.push(BIGRAM_MARK + characters[i] + characters[i + 1]);
  }
  return bigrams;
}

/** The matching terms of `text`: stems and Chinese words, without stop words. */
export function analyze(text: string): string[] {
  return tokenize(text).map((t) => t.term);
}
