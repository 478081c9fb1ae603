/**
 * Whether a question leans on the conversation before it — a pronoun ("When was it built?"), a
 * demonstrative ("Does that apply to contractors?"), a follow-up opener ("And the price?", "What about
 * winter?", "那冬天呢？") or a fragment too short to stand alone ("Why?", "In 1990?") — or stands alone
 * ("Can I work from home?"). Only a question that refers back borrows from earlier turns: one that stands
 * alone is retrieved and answered exactly as if it opened the conversation.
 */

/** Personal pronouns that name something said before; "I", "you" and "we" name the speakers. */
const POINTING_PRONOUNS = new Set("it its itself they them their theirs themselves he him his himself she her hers herself".split(" "));
/** Demonstratives: referring only where they stand as a pronoun or after a verb or preposition ("about that", "is this"), not as "the law that …". */
const DEMONSTRATIVES = new Set("this that these those".split(" "));
const BEFORE_DEMONSTRATIVE = new Set(
  "about of for in on at with from to by under after before during is was are were does do did can could will would should has have mean means apply applies why how what when where".split(" "),
);
/** Words that name an earlier mention outright. */
const BACK_REFERENCES = new Set("same former latter aforementioned else".split(" "));
/** "it" with nothing behind it: "is it possible to …", "it is required that …". */
const DUMMY_IT = /\b(?:is|was|will|would|does|can)\s+it\s+\w+\s+(?:to|that|if)\b|\bit(?:\s+is|'s|\s+was)\s+\w+\s+(?:to|that|if)\b|\bhow\s+is\s+it\s+that\b|\bwhat\s+does\s+it\s+mean\b|\bwhen\s+it\s+comes\s+to\b/i;
const FOLLOW_UP_OPENER = /^\W*(?:and|but|also|or|so|then|plus|what about|how about|what if|what else|why not|same for)\b/i;
/** The longest question that is a fragment ("In which year?", "How much?", "The price?"). */
const FRAGMENT_WORDS = 3;

const CHINESE_POINTERS = /它|他们|她们|他們|她們|这个|那个|這個|那個|这些|那些|這些|其中|上述|前者|后者|後者|此事|该公司|該公司|这家|那家|這家|同样|同樣|还有呢|還有呢/;
/** "那…呢？", "…呢？", "还有…", "那么…": Chinese follow-up markers. */
const CHINESE_FOLLOW_UP = /^\W*(?:那么|那麼|那|还有|還有|另外|而且|以及)|呢\W*$/;
/** A Chinese question of so few characters names too little to stand alone ("为什么？", "价格呢？"). */
const CHINESE_FRAGMENT_CHARACTERS = 4;

/** Words of a question with their positions; `named`: the index of the first name it gives, if any. */
function wordsOf(text: string) {
  const matches = [...text.replace(/’/g, "'").matchAll(/[\p{L}\p{N}']+/gu)];
  const words = matches.map((m) => m[0].toLowerCase());
  const named = matches.findIndex((m, i) => i > 0 && /^\p{Lu}/u.test(m[0]) && m[0] !== "I");
  return { matches, words, named };
}

export function refersToEarlierTurns(question: string): boolean {
  const text = question.trim();
  if (text === "") return false;
  const han = text.match(/[\u3400-\u9fff]/g)?.length ?? 0;
  if (han > 0) return CHINESE_POINTERS.test(text) || CHINESE_FOLLOW_UP.test(text) || han <= CHINESE_FRAGMENT_CHARACTERS;
  const { words, named } = wordsOf(text);
  if (words.length === 0) return false;
  if (FOLLOW_UP_OPENER.test(text) || words.length <= FRAGMENT_WORDS) return true;
  const dummyIt = DUMMY_IT.test(text);
  return words.some((word, i) => {
    // A pronoun after a name the question gives points to that name: "What did Davies call his system?"
    if (named >= 0 && named < i) return false;
    const bare = word.replace(/'s$/, "");
    if ((POINTING_PRONOUNS.has(bare) && !(dummyIt && bare === "it")) || BACK_REFERENCES.has(bare)) return true;
    return DEMONSTRATIVES.has(bare) && (i === 0 || i === words.length - 1 || BEFORE_DEMONSTRATIVE.has(words[i - 1]));
  });
}

/**
 * What a pronoun of the next question most likely stands for: the first name an earlier question gives —
 * a run of capitalised words after its first word ("Who was the Normans' main enemy in Italy?" → "Normans")
 * — as written; null when it gives none (then its key words stand in: "and the highest?" after "What
 * causes tides?"). Joining only the name, not every word of the earlier question, keeps retrieval on the
 * new question's topic ("What religion were they?") rather than on the earlier one's.
 */
export function antecedentOf(question: string): string | null {
  const { matches, named } = wordsOf(question);
  if (named < 0) return null;
  const run = [matches[named][0]];
  for (let i = named + 1; i < matches.length && /^\p{Lu}/u.test(matches[i][0]); i++) run.push(matches[i][0]);
  return run.join(" ").replace(/'s?$/, "");
}
