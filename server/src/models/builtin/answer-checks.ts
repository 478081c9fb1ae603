import { tokenize } from "./text-analysis";

/**
 * Checks that tell a sentence that answers a question from one that is merely about the same thing.
 * SQuAD 2.0's unanswerable questions show what to look for, since they were written against the very
 * paragraph that seems to answer them: the kind of answer asked for ("in what year", "how many") is
 * not in the sentence; the question negates what the sentence states; or it names the thing in
 * another form than the text ("Parisian" for "Paris", "EU" for "European Union"), which must not count
 * as a different name.
 */

/** Words that turn a statement around; "non" too, as in "non-Imperialism". */
export const NEGATIONS: ReadonlySet<string> = new Set(
  (
    "not no never none nobody nothing neither nor without cannot non can't don't doesn't didn't isn't aren't wasn't weren't won't " +
    "couldn't wouldn't shouldn't hasn't haven't hadn't mustn't 不 没 没有 未 非 无 别"
  ).split(" "),
);

/** How far (in words) a negation reaches forward: "did not invade", "was never officially crowned". */
const NEGATION_REACH = 3;

/**
 * Whether a negation in the sentence bears on one of the question's words, i.e. precedes one of them
 * closely. A negated question ("What did the Court not allow?") is answered by a sentence that negates
 * the same thing, not by one whose "not" is about something else ("…, not just in a dispute …").
 */
export function negationBearsOn(sentence: string, questionTerms: ReadonlySet<string>, reach = NEGATION_REACH): boolean {
  const words = tokenize(sentence, { keepStopWords: true });
  return words.some(
    (word, i) => NEGATIONS.has(word.word) && words.slice(i + 1, i + 1 + reach).some((next) => !NEGATIONS.has(next.word) && questionTerms.has(next.term)),
  );
}

/**
 * Kinds of answer that a sentence visibly holds or lacks: a year (or decade, century) for "in what
 * year", a count for "how many". A looser "when" or "how long" is left to the window check of the
 * caller, since an event ("after the war") answers it as well as a date.
 */
export type AnswerKind = "year" | "count";

export function answerKind(question: string): AnswerKind | undefined {
  if (/\b(?:what|which)\s+(?:year|decade|century)\b/i.test(question)) return "year";
  if (/\bhow\s+many\b/i.test(question)) return "count";
  return undefined;
}

const YEAR = /^(?:\d{3,4}s?|\d{1,2}(?:st|nd|rd|th)|centur(?:y|ies)|decades?)$/;
const COUNT = new RegExp(
  "^(?:\\d[\\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|" +
    "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|half|several|many|few)$",
);

/**
 * Whether the sentence holds an answer of that kind other than the question's own words: "When was the
 * treaty of 1763 signed?" is not answered by the 1763 the question already gives.
 */
export function holdsAnswerOfKind(kind: AnswerKind, sentence: string, question: string): boolean {
  const asked = new Set(tokenize(question, { keepStopWords: true }).map((t) => t.word));
  const pattern = kind === "year" ? YEAR : COUNT;
  return tokenize(sentence, { keepStopWords: true }).some((t) => !asked.has(t.word) && pattern.test(t.word));
}

/** Endings that make a demonym or an adjective of a place name: "Paris" → "Parisian", "Japan" → "Japanese". */
const DEMONYM_ENDING = /^(?:ian|ean|an|n|ese|i|ish|ic|ite)s?$/;
const ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"];

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
}

/** "Paris" and "Parisian", "Africa" and "African": the name with a demonym ending, its final vowel dropped. */
function isDemonymOf(name: string, other: string): boolean {
  const base = name.replace(/[aeiouy]$/, "");
  return base.length >= 4 && other !== name && other.startsWith(base) && DEMONYM_ENDING.test(other.slice(base.length));
}

/** Spellings of the same number or period: "1700s" / "18th" (century), "1950" / "1950s" ("the 1950's"), "2" / "ii". */
function numberVariants(word: string): string[] {
  const hundreds = /^(\d{1,2})00s$/.exec(word);
  if (hundreds) return [ordinal(Number(hundreds[1]) + 1)];
  const century = /^(\d{1,2})(?:st|nd|rd|th)$/.exec(word);
  if (century) return [`${Number(century[1]) - 1}00s`];
  const variants: string[] = [];
  if (/^\d+0$/.test(word)) variants.push(`${word}s`);
  if (/^\d+$/.test(word) && Number(word) >= 1 && Number(word) <= ROMAN.length) variants.push(ROMAN[Number(word) - 1]);
  const roman = ROMAN.indexOf(word);
  if (roman >= 0) variants.push(String(roman + 1));
  return variants;
}

/** Whether two lower-cased words name the same thing in different forms (demonyms, numbers, periods). */
export function sameNameVariant(a: string, b: string): boolean {
  return isDemonymOf(a, b) || isDemonymOf(b, a) || numberVariants(a).includes(b);
}

/** Short words that may sit inside a name without giving a letter to its acronym ("Bank of England" → "BE"). */
const ACRONYM_FILLERS = new Set(["of", "the", "and", "for", "de", "du", "von"]);

/**
 * Acronyms that runs of capitalised words spell, each with the words that spell it (lower-case):
 * "the European Union's law" → eu: [european, union].
 */
export function acronymsOf(text: string): Map<string, string[]> {
  const acronyms = new Map<string, string[]>();
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
  words.forEach((first, i) => {
    if (!/^\p{Lu}/u.test(first)) return;
    let letters = "";
    const spelled: string[] = [];
    for (const word of words.slice(i)) {
      if (/^\p{Lu}/u.test(word)) {
        letters += word[0].toLowerCase();
        spelled.push(word.toLowerCase());
        if (letters.length >= 2 && !acronyms.has(letters)) acronyms.set(letters, [...spelled]);
      } else if (!ACRONYM_FILLERS.has(word.toLowerCase())) break;
    }
  });
  return acronyms;
}

/** Words written in capitals (2 to 6 letters: "EU", "OPEC", "CJEU"), lower-cased. */
export function capitalisedAbbreviations(text: string): Set<string> {
  return new Set([...text.matchAll(/\b\p{Lu}{2,6}\b/gu)].map((m) => m[0].toLowerCase()));
}
