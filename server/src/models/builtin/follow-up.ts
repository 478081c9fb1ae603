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
const DUMMY_IT = /\b(?:is|was|will|would|does|can)\s+it\s+\w+\s+(?:to|that|if)\b|\bit(?:\s+is|'s|\s+was)\s+\w+\s+(?:to|that|if)\b|\bhow\s+is\s+it\s+that\b/i;
const FOLLOW_UP_OPENER = /^\W*(?:and|but|also|or|so|then|plus|what about|how about|what if|what else|why not|same for)\b/i;
/** The longest question that is a fragment ("In which year?", "How much?", "The price?"). */
const FRAGMENT_WORDS = 3;

const CHINESE_POINTERS = /它|他们|她们|他們|她們|这个|那个|這個|那個|这些|那些|這些|其中|上述|前者|后者|後者|此事|该公司|該公司|这家|那家|這家|同样|同樣|还有呢|還有呢/;
/** "那…呢？", "…呢？", "还有…", "那么…": Chinese follow-up markers. */
const CHINESE_FOLLOW_UP = /^\W*(?:那么|那麼|那|还有|還有|另外|而且|以及)|呢\W*$/;
/** A Chinese question of so few characters names too little to stand alone ("为什么？", "价格呢？"). */
const CHINESE_FRAGMENT_CHARACTERS = 4;

export function refersToEarlierTurns(question: string): boolean {
  const text = question.trim();
  if (text === "") return false;
  const han = text.match(/[\u3400-\u9fff]/g)?.length ?? 0;
  if (han > 0) return CHINESE_POINTERS.test(text) || CHINESE_FOLLOW_UP.test(text) || han <= CHINESE_FRAGMENT_CHARACTERS;
  const words = text.toLowerCase().replace(/’/g, "'").match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length === 0) return false;
  if (FOLLOW_UP_OPENER.test(text) || words.length <= FRAGMENT_WORDS) return true;
  const withoutDummyIt = DUMMY_IT.test(text) ? words.filter((w) => w !== "it") : words;
  return withoutDummyIt.some((word, i) => {
    const bare = word.replace(/'s$/, "");
    if (POINTING_PRONOUNS.has(bare) || BACK_REFERENCES.has(bare)) return true;
    return DEMONSTRATIVES.has(bare) && (i === 0 || i === withoutDummyIt.length - 1 || BEFORE_DEMONSTRATIVE.has(withoutDummyIt[i - 1]));
  });
}
