// Conversations for bench:answers' multi-turn set, generated from a QA set (SQuAD's qa.jsonl and its
// corpus' article titles) with a fixed seed, so that every run asks the same ones and nothing is tuned
// to particular questions:
// - an unrelated question: an answerable question on an article no earlier turn of the conversation is about;
// - a follow-up: after a question that names its article's subject ("… the Normans …"), another question
//   on that article that names the subject, with the subject replaced by a pronoun ("they", "it"; "their",
//   "its" for a possessive). Asked alone it lacks its subject; after the turn before, it has one.
// Each conversation has 4 to 6 turns; it opens with an unrelated question, and after a question that names
// its subject, a follow-up comes next half of the time when the article has one left.

/** mulberry32: a small seeded generator, the same sequence on every machine. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Words that may stand next to a noun phrase that a pronoun replaces (not "Huguenot refugees", "North American … War"). */
const FUNCTION_WORDS = "a an the of in on at to from for with by and or is was are were be been has have had do does did that which who whom when where what how why during after before about against between into through under over as than since until while can could will would should may might".split(" ");
const ARTICLES = new Set(["a", "an", "the"]);
// Before the name: the start, a punctuation mark, a function word, or any word when "the" comes between ("started the Scottish Parliament").
const BESIDE = `(?:^|[^\\p{L}\\p{N}\\s]\\s*|\\b(?:${FUNCTION_WORDS.filter((w) => !ARTICLES.has(w)).join("|")})\\s+|\\b\\p{L}+\\s+(?=the\\s))`;
const AFTER = `(?=\\s*(?:$|[^\\p{L}\\p{N}\\s]|(?:${FUNCTION_WORDS.join("|")})\\b))`;

/** The subject's name used as a noun phrase in a question ("Normans" for the article "Normans", "Steam engine" for "Steam_engine"), or null. */
function subjectPattern(title) {
  const name = title.replace(/_/g, " ").trim();
  return name === "" ? null : new RegExp(`(${BESIDE})(?:the\\s+)?${escape(name)}(?:('s|’s)|${AFTER})`, "iu");
}

/** The question with its subject replaced by a pronoun; null when it does not name it. */
function withPronoun(question, title) {
  const pattern = subjectPattern(title);
  if (!pattern || !pattern.test(question)) return null;
  const plural = /[^s]s$/i.test(title);
  return question.replace(pattern, (_, before, possessive) => `${before}${possessive ? (plural ? "their" : "its") : plural ? "they" : "it"}`);
}

export function multiTurnConversations(qas, titleOf, count, seed = 14) {
  const random = seeded(seed);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const answerable = qas.filter((qa) => !qa.is_impossible && titleOf.get(qa.context_id));
  const byTitle = new Map();
  for (const qa of answerable) {
    const title = titleOf.get(qa.context_id);
    if (!byTitle.has(title)) byTitle.set(title, []);
    byTitle.get(title).push(qa);
  }
  const naming = (title) => (byTitle.get(title) ?? []).filter((qa) => withPronoun(qa.question, title) !== null);
  const conversations = [];
  for (let c = 0; c < count && byTitle.size > 1; c++) {
    const length = 4 + Math.floor(random() * 3);
    const turns = [];
    const used = new Set();
    const titles = new Set();
    for (let attempts = 0; turns.length < length && attempts < 100; attempts++) {
      const previous = turns.at(-1);
      const title = previous && titleOf.get(previous.qa.context_id);
      const followUps = previous && previous.kind !== "follow-up" && withPronoun(previous.question, title) !== null ? naming(title).filter((qa) => !used.has(qa.id)) : [];
      if (followUps.length > 0 && random() < 0.5) {
        const qa = pick(followUps);
        used.add(qa.id);
        turns.push({ kind: "follow-up", qa, question: withPronoun(qa.question, title) });
        continue;
      }
      const fresh = [...byTitle.keys()].filter((t) => !titles.has(t));
      if (fresh.length === 0) break;
      const next = pick(fresh);
      // Half of the unrelated questions name their subject, so that a follow-up may come after them.
      const candidates = (random() < 0.5 ? naming(next) : byTitle.get(next)).filter((qa) => !used.has(qa.id));
      if (candidates.length === 0) continue;
      const qa = pick(candidates);
      used.add(qa.id);
      titles.add(next);
      turns.push({ kind: "unrelated", qa, question: qa.question });
    }
    conversations.push(turns);
  }
  return conversations;
}
