import { chineseSegmenter, ENGLISH_STOP_WORDS, tokenize } from "../../models/builtin/text-analysis";
import type { Graph, GraphEntity, GraphRelation } from "../types";

/**
 * The offline extractor used with the built-in chat model, which quotes passages and cannot write JSON.
 * Entities are proper names — runs of capitalised words, acronyms, dates, and in Chinese the words jieba
 * tags as person (nr), place (ns), organisation (nt) or time (t) — typed by simple cues (a suffix such as
 * "University" or "River", a title such as "Dr.", a preposition such as "in"); relations join entities
 * named in the same sentence, weighted by the number of such sentences. It is a heuristic, not an
 * understanding of the text, and the notes say so.
 */

type Cue = "organization" | "person" | "location" | "event" | "time";

const ORGANIZATION_WORDS = new Set(
  "inc inc. corp corp. corporation company co co. ltd ltd. llc plc group university college institute school academy bank association agency ministry department council committee foundation party court army navy press club society union organization organisation federation commission bureau office laboratory labs hospital museum airlines airways motors systems technologies church parliament congress senate government police team fc".split(" "),
);
const LOCATION_WORDS = new Set(
  "city river mountain mountains mount lake ocean sea island islands street avenue road province county state valley bay desert park kingdom republic empire region district peninsula coast village town square bridge canyon strait gulf".split(" "),
);
const EVENT_WORDS = new Set(
  "war battle revolution olympics games conference summit festival election treaty championship cup expo crisis pandemic earthquake massacre uprising rebellion dynasty award awards prize".split(" "),
);
const PERSON_TITLES = /(?:\b(?:mr|mrs|ms|miss|dr|prof|professor|president|king|queen|prince|princess|sir|lord|lady|saint|st|general|captain|senator|governor|minister|judge|pope|emperor|chairman|ceo)\.?\s+)$/i;
const PERSON_VERBS = /^\s*(?:said|says|told|wrote|writes|was born|is born|died|married|argued|believed|thought|explained|stated|recalled|himself|herself|,\s*(?:who|whose|aged))\b/i;
const PLACE_PREPOSITIONS = /\b(?:in|at|from|near|into|across|to|toward|towards|throughout|outside|inside)\s+(?:the\s+)?$/i;
const MONTHS = "january february march april may june july august september october november december".split(" ");
const NOT_NAMES = new Set(
  [...MONTHS, "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "however", "therefore", "thus", "also", "yes", "no", "chapter", "section", "figure", "table", "article", "page"],
);

const CAPITALISED_RUN = /(?:[A-Z][\p{L}'’&-]*\.?|[A-Z]{2,}\d*)(?:\s+(?:(?:of|the|for|de|la|le|van|von|du|del|da)\s+)*(?:[A-Z][\p{L}'’&-]*|[A-Z]{2,}\d*))*/gu;
const DATE = new RegExp(
  `\\b(?:\\d{1,2}\\s+)?(?:${MONTHS.map((m) => m[0].toUpperCase() + m.slice(1)).join("|")})(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?,?\\s+\\d{4}\\b|\\b(?:1[5-9]\\d{2}|20\\d{2})s?\\b|\\d{2,4}年(?:\\d{1,2}月)?(?:\\d{1,2}日)?|\\d{1,2}月\\d{1,2}日`,
  "gu",
);

interface Mention {
  name: string;
  cue?: Cue;
}

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？；;])\s+|(?<=[。！？；])|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

function cueOf(name: string, before: string, after: string): Cue | undefined {
  const words = name.toLowerCase().split(/\s+/);
  if (words.some((w) => EVENT_WORDS.has(w))) return "event";
  // Any word may carry the cue: "University of Paris", "Bank of England", "River Thames".
  if (words.some((w) => ORGANIZATION_WORDS.has(w)) || /^[A-Z]{2,6}\d*$/.test(name)) return "organization";
  if (words.some((w) => LOCATION_WORDS.has(w)) || ["cape", "port", "fort"].includes(words[0])) return "location";
  if (PERSON_TITLES.test(before) || PERSON_VERBS.test(after)) return "person";
  if (PLACE_PREPOSITIONS.test(before)) return "location";
  // Two or three capitalised words with no other cue are most often a person's name.
  if (words.length >= 2 && words.length <= 3 && name.split(/\s+/).every((w) => /^[A-Z][a-z'’-]+\.?$/.test(w))) return "person";
  return undefined;
}

function englishMentions(sentence: string): Mention[] {
  const mentions: Mention[] = [];
  for (const match of sentence.matchAll(CAPITALISED_RUN)) {
    // A capitalised function word opening the run ("The", "In", "However") is not part of the name.
    const words = match[0].replace(/[.’']+$/, "").split(/\s+/);
    while (words.length > 0 && (ENGLISH_STOP_WORDS.has(words[0].toLowerCase()) || NOT_NAMES.has(words[0].toLowerCase()) || /^(?:of|and|for)$/.test(words[0]))) {
      words.shift();
    }
    if (words.length === 0) continue;
    const name = words.join(" ");
    const index = sentence.indexOf(name, match.index!);
    if (name.length < 2 || NOT_NAMES.has(name.toLowerCase())) continue;
    const before = sentence.slice(Math.max(0, index - 24), index);
    const after = sentence.slice(index + name.length, index + name.length + 24);
    const atStart = sentence.slice(0, index).trim() === "" || /[“"(:]\s*$/.test(sentence.slice(0, index));
    const cue = cueOf(name, before, after);
    // A lone capitalised word opening a sentence is usually an ordinary word, unless a cue says otherwise.
    if (atStart && words.length === 1 && !cue) continue;
    mentions.push({ name, cue });
  }
  for (const match of sentence.matchAll(DATE)) mentions.push({ name: match[0], cue: "time" });
  return mentions;
}

const JIEBA_CUES: Record<string, Cue> = { nr: "person", nrfg: "person", nrt: "person", ns: "location", nt: "organization", t: "time" };

function chineseMentions(sentence: string): Mention[] {
  if (!/[\u4e00-\u9fff]/.test(sentence)) return [];
  return chineseSegmenter()
    .tag(sentence, true)
    .flatMap(({ tag, word }) => {
      const cue = JIEBA_CUES[tag];
      // One-character words (姓, 省) are too ambiguous to be entities, and a time without a number
      // (后来, 今天) names no point in time.
      if (!cue || [...word].length < 2 || /^\d+$/.test(word)) return [];
      if (cue === "time" && !/[\d一二三四五六七八九十零〇]/.test(word)) return [];
      return [{ name: word, cue }];
    });
}

/** Content words of a sentence that name no entity: the relation's keywords. */
function keywordsOf(sentence: string, names: string[]): string[] {
  const inNames = new Set(names.flatMap((n) => tokenize(n).map((t) => t.word)));
  const words = tokenize(sentence)
    .map((t) => t.word)
    .filter((w) => !inNames.has(w) && /\p{L}/u.test(w) && [...w].length > 1);
  return [...new Set(words)].slice(0, 3);
}

const MAX_DESCRIPTION_SENTENCES = 2;
/** Pairs are formed among the first entities of a sentence only: a list of 40 names is not 780 relations. */
const MAX_ENTITIES_PER_SENTENCE = 8;

export function extractGraphOffline(text: string, entityTypes: string[]): Graph {
  const wanted = new Set(entityTypes.map((t) => t.toLowerCase()));
  const sentences = sentencesOf(text);
  const perSentence = sentences.map((sentence) => [...englishMentions(sentence), ...chineseMentions(sentence)]);

  // A name seen once without a cue may take the cue it has elsewhere ("Curie said…", later "Curie").
  const cues = new Map<string, Cue>();
  for (const mentions of perSentence) for (const m of mentions) if (m.cue && !cues.has(m.name.toLowerCase())) cues.set(m.name.toLowerCase(), m.cue);

  const entities = new Map<string, GraphEntity & { sentences: number }>();
  const relations = new Map<string, GraphRelation>();
  perSentence.forEach((mentions, index) => {
    const sentence = sentences[index];
    const names: string[] = [];
    for (const mention of mentions) {
      const key = mention.name.toLowerCase();
      const type = mention.cue ?? cues.get(key);
      if (!type || !wanted.has(type)) continue;
      const entity = entities.get(key) ?? { name: mention.name, type, description: "", sentences: 0 };
      if (!entities.has(key)) entities.set(key, entity);
      if (!names.includes(entity.name)) {
        names.push(entity.name);
        if (entity.sentences < MAX_DESCRIPTION_SENTENCES) {
          entity.description = entity.description ? `${entity.description} ${sentence}` : sentence;
          entity.sentences++;
        }
      }
    }
    const paired = names.slice(0, MAX_ENTITIES_PER_SENTENCE);
    for (let i = 0; i < paired.length; i++) {
      for (let j = i + 1; j < paired.length; j++) {
        const [source, target] = [paired[i], paired[j]];
        const key = [source.toLowerCase(), target.toLowerCase()].sort().join("\u0000");
        const found = relations.get(key);
        if (found) found.weight += 1;
        else relations.set(key, { source, target, description: sentence, keywords: keywordsOf(sentence, paired), weight: 1 });
      }
    }
  });
  return {
    entities: [...entities.values()].map(({ sentences: _sentences, ...entity }) => entity),
    relations: [...relations.values()],
  };
}
