import fs from "node:fs";
import path from "node:path";
import { wordnetDirectory } from "../../models/builtin/wordnet";

/**
 * Whether an English word is most likely a verb or an adverb, from WordNet's index files alone (~0.1 s to
 * read, once): key-phrase extraction keeps such words out of phrases, so that "Aspirin inhibits" or
 * "assistant cites" are not proposed as noun phrases. A lemma counts as verb-like when WordNet has it as a
 * verb and either not as a noun or adjective at all ("inhibit"), or only with senses no corpus ever tagged
 * ("cite": the noun is a rare abbreviation of citation). An inflected form is reduced by the regular
 * English endings (-s, -es, -ies, -ed, -ing) unless WordNet knows the form itself as a noun ("building").
 */

interface Classes {
  verbLike: Set<string>;
  nouns: Set<string>;
}

let classes: Classes | undefined;

/** lemma → tagged-sense count, from one index file. */
function readIndex(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  const text = fs.readFileSync(path.join(wordnetDirectory(), file), "latin1");
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.split(" ");
    const pointerCount = Number(fields[3]);
    const tagged = Number(fields[4 + pointerCount + 1]);
    if (!fields[0].includes("_")) counts.set(fields[0], Number.isFinite(tagged) ? tagged : 0);
  }
  return counts;
}

function load(): Classes {
  if (!classes) {
    const nouns = readIndex("index.noun");
    const adjectives = readIndex("index.adj");
    const verbs = readIndex("index.verb");
    const adverbs = readIndex("index.adv");
    const verbLike = new Set<string>();
    const taggedAs = (index: Map<string, number>, lemma: string) => (index.has(lemma) ? index.get(lemma)! : -1);
    for (const [lemma, tagged] of [...verbs, ...adverbs]) {
      const noun = taggedAs(nouns, lemma);
      const adjective = taggedAs(adjectives, lemma);
      if ((noun < 0 && adjective < 0) || (tagged > 0 && noun <= 0 && adjective <= 0)) verbLike.add(lemma);
    }
    classes = { verbLike, nouns: new Set([...nouns.keys(), ...adjectives.keys()]) };
  }
  return classes;
}

function bases(word: string): string[] {
  const out = [word];
  const strip = (suffix: string, ...replacements: string[]) => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) for (const r of replacements) out.push(word.slice(0, -suffix.length) + r);
  };
  strip("ies", "y");
  strip("es", "");
  strip("s", "");
  strip("ied", "y");
  strip("ed", "", "e");
  strip("d", "");
  strip("ing", "", "e");
  // A doubled consonant before -ed / -ing: "stopped", "running".
  const doubled = /^(.*([bdfgklmnprtz]))\2(?:ed|ing)$/.exec(word);
  if (doubled) out.push(doubled[1]);
  return out;
}

/** `word` is lower-case English. */
export function isVerbLike(word: string): boolean {
  const { verbLike, nouns } = load();
  if (nouns.has(word)) return verbLike.has(word);
  return bases(word).some((base) => verbLike.has(base));
}
