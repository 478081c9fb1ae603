/**
 * The Porter2 ("Snowball English") stemmer, as specified at snowballstem.org/algorithms/english: the
 * stemmer Lucene's and Elasticsearch's English analysers use, so that "inducing", "induced" and "induces"
 * meet as "induc". Input is one lower-case word.
 */

const EXCEPTIONS = new Map<string, string>(Object.entries({
  skis: "ski",
  skies: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  idly: "idl",
  gently: "gentl",
  ugly: "ugli",
  early: "earli",
  only: "onli",
  singly: "singl",
  sky: "sky",
  news: "news",
  howe: "howe",
  atlas: "atlas",
  cosmos: "cosmos",
  bias: "bias",
  andes: "andes",
}));

const AFTER_STEP_1A = new Set(["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]);

const STEP_2: [string, string][] = [
  ["ization", "ize"],
  ["ational", "ate"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["tional", "tion"],
  ["biliti", "ble"],
  ["lessli", "less"],
  ["entli", "ent"],
  ["ation", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["ousli", "ous"],
  ["iviti", "ive"],
  ["fulli", "ful"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["izer", "ize"],
  ["ator", "ate"],
  ["alli", "al"],
  ["bli", "ble"],
  ["ogi", "og"],
  ["li", ""],
];

const STEP_3: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ative", ""],
  ["ical", "ic"],
  ["ness", ""],
  ["ful", ""],
];

const STEP_4 = ["ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion", "al", "er", "ic"];

const DOUBLES = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]);

function isVowel(c: string | undefined): boolean {
  return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || c === "y";
}

/** Start of the region after the first non-vowel that follows a vowel, from `from`. */
function regionAfter(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) {
    if (!isVowel(word[i]) && isVowel(word[i - 1])) return i + 1;
  }
  return word.length;
}

function endsWithShortSyllable(word: string): boolean {
  const n = word.length;
  if (n === 2) return isVowel(word[0]) && !isVowel(word[1]);
  if (n < 2) return false;
  const last = word[n - 1];
  return !isVowel(word[n - 3]) && isVowel(word[n - 2]) && !isVowel(last) && last !== "w" && last !== "x" && last !== "Y";
}

export function stemEnglish(input: string): string {
  if (input.length <= 2) return input;
  const exception = EXCEPTIONS.get(input);
  if (exception) return exception;

  let word = input.startsWith("'") ? input.slice(1) : input;
  if (word.startsWith("y")) word = "Y" + word.slice(1);
  word = word.replace(/([aeiouy])y/g, "$1Y");

  const prefix = /^(gener|commun|arsen)/.exec(word);
  const r1 = prefix ? prefix[1].length : regionAfter(word, 0);
  const r2 = regionAfter(word, r1);
  // R1 and R2 are positions in the original word; suffix removal only shortens it, so they stay valid.
  const inR1 = (suffix: string) => word.length - suffix.length >= r1;
  const inR2 = (suffix: string) => word.length - suffix.length >= r2;

  // Step 0: possessives.
  for (const suffix of ["'s'", "'s", "'"]) {
    if (word.endsWith(suffix)) {
      word = word.slice(0, -suffix.length);
      break;
    }
  }

  // Step 1a: plurals.
  if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("ied") || word.endsWith("ies")) word = word.slice(0, -3) + (word.length > 4 ? "i" : "ie");
  else if (word.endsWith("us") || word.endsWith("ss")) {
    // unchanged
  } else if (word.endsWith("s")) {
    const stem = word.slice(0, -1);
    if (/[aeiouy]/.test(stem.slice(0, -1))) word = stem;
  }
  if (AFTER_STEP_1A.has(word)) return word;

  // Step 1b: -ed, -ing.
  let m: RegExpExecArray | null;
  if ((m = /(eedly|eed)$/.exec(word))) {
    if (inR1(m[1])) word = word.slice(0, -m[1].length) + "ee";
  } else if ((m = /(ingly|edly|ing|ed)$/.exec(word))) {
    const stem = word.slice(0, -m[1].length);
    if (/[aeiouy]/.test(stem)) {
      word = stem;
      if (/(at|bl|iz)$/.test(word)) word += "e";
      else if (DOUBLES.has(word.slice(-2))) word = word.slice(0, -1);
      else if (r1 >= word.length && endsWithShortSyllable(word)) word += "e";
    }
  }

  // Step 1c: a final y after a consonant that is not the first letter becomes i.
  if (word.length > 2 && /[yY]$/.test(word) && !isVowel(word[word.length - 2])) word = word.slice(0, -1) + "i";

  // Step 2.
  for (const [suffix, replacement] of STEP_2) {
    if (!word.endsWith(suffix)) continue;
    if (inR1(suffix)) {
      if (suffix === "ogi") {
        if (word[word.length - 4] === "l") word = word.slice(0, -3) + replacement;
      } else if (suffix === "li") {
        if ("cdeghkmnrt".includes(word[word.length - 3] ?? "")) word = word.slice(0, -2);
      } else word = word.slice(0, -suffix.length) + replacement;
    }
    break;
  }

  // Step 3.
  for (const [suffix, replacement] of STEP_3) {
    if (!word.endsWith(suffix)) continue;
    if (inR1(suffix)) {
      if (suffix === "ative") {
        if (inR2(suffix)) word = word.slice(0, -suffix.length);
      } else word = word.slice(0, -suffix.length) + replacement;
    }
    break;
  }

  // Step 4.
  for (const suffix of STEP_4) {
    if (!word.endsWith(suffix)) continue;
    if (inR2(suffix)) {
      if (suffix === "ion") {
        if ("st".includes(word[word.length - 4] ?? "x")) word = word.slice(0, -3);
      } else word = word.slice(0, -suffix.length);
    }
    break;
  }

  // Step 5.
  if (word.endsWith("e")) {
    if (inR2("e") || (inR1("e") && !endsWithShortSyllable(word.slice(0, -1)))) word = word.slice(0, -1);
  } else if (word.endsWith("ll") && inR2("l")) {
    word = word.slice(0, -1);
  }

  return word.replace(/Y/g, "y");
}
