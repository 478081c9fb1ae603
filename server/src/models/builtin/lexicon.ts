import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { childScript } from "../../platform/child-script";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../../platform/private-files";
import { stemEnglish } from "./english-stemmer";
import { tokenize } from "./text-analysis";
import { Breather, conceptVectors, ppmiMatrix } from "./lsa";
import { readWordNet, type WordNet } from "./wordnet";

/**
 * What the built-in models know about English words, derived deterministically from WordNet 3.1 by the
 * build (prepare-lexicon.ts) into two files — word statistics (~4 s to make) and the concept space (~15 s)
 * — each loaded in a fraction of a second by the server:
 * - `idf`: how specific a stem is, as an inverse document frequency over WordNet's 118k glosses — the
 *   only general English text that ships with Cairn. A word no gloss uses gets the highest value.
 * - `gramIdf`: the same for character n-grams (3–5 letters, with word boundaries).
 * - `related`: for each stem, the stems WordNet links it to — synonyms (same synset), derivationally
 *   related forms ("induce" ↔ "induction"), pertainyms ("genetic" → "gene") — weighted by how likely
 *   each sense is (SemCor tag counts, add-one smoothed), so that rare senses barely count.
 * - `antonyms`: WordNet's opposites between stems, which tell the extractive model that a passage about
 *   the "smallest" does not answer a question about the "largest".
 * - `concepts`: word vectors from a truncated SVD of the positive PMI matrix of stems that co-occur in a
 *   synset's lemmas and definition (latent semantic analysis of the dictionary), so that "infarction"
 *   lies near "myocardial", "thrombolytic" and "angina" without sharing a letter.
 */
export interface WordStatistics {
  glossCount: number;
  idf: Map<string, number>;
  gramIdf: Map<string, number>;
  related: Map<string, [string, number][]>;
  antonyms: Map<string, string[]>;
}

export interface ConceptSpace {
  /** Stem → row of `vectors`. */
  vocabulary: Map<string, number>;
  dimension: number;
  /** Unit rows, `dimension` floats each. */
  vectors: Float32Array;
}

export interface Lexicon extends WordStatistics {
  concepts: ConceptSpace;
}

/**
 * Bump when anything that changes a cached part changes (analysis, weights, format): caches of another
 * version are ignored and rebuilt.
 */
export const STATISTICS_VERSION = 3;
export const CONCEPTS_VERSION = 2;
const CONCEPT_DIMENSION = 128;
/** Stems seen in fewer glosses than this are too rare for co-occurrence statistics. */
const CONCEPT_MIN_COUNT = 2;
/** Related stems weaker than this (after normalisation) are dropped: they are noise, and cost time. */
const MIN_RELATED_WEIGHT = 0.02;

let cacheDirectory: string | undefined;

/** Where derived model data is cached: `DATA_DIR/cache/models`, else the system's temporary folder. */
export function setModelCacheDirectory(directory: string): void {
  cacheDirectory = directory;
}

export function modelCacheDirectory(): string {
  if (cacheDirectory) return cacheDirectory;
  const dataDir = process.env.CAIRN_MODEL_CACHE ?? (process.env.DATA_DIR ? path.join(process.env.DATA_DIR, "cache", "models") : undefined);
  return path.resolve(dataDir ?? path.join(os.tmpdir(), "cairn-models"));
}

export function ngrams(word: string, min = 3, max = 5): string[] {
  const marked = `<${word}>`;
  const grams: string[] = [];
  for (let n = min; n <= max; n++) for (let i = 0; i + n <= marked.length; i++) grams.push(marked.slice(i, i + n));
  return grams;
}

export function idfOf(count: number, total: number): number {
  return Math.log((total + 1) / (count + 1));
}

function stemOfLemma(lemma: string): string | null {
  return /^[a-z]+$/.test(lemma) ? stemEnglish(lemma) : null;
}

/** A definition without its quoted usage examples. */
function definitionOf(gloss: string): string {
  return gloss.replace(/"[^"]*"/g, " ");
}

async function countGlosses(wordnet: WordNet, breather: Breather) {
  const stemCounts = new Map<string, number>();
  // N-grams are numbered as they are met; counting by number is much cheaper than by string.
  const gramIds = new Map<string, number>();
  const gramsOfWord = new Map<string, Int32Array>();
  let gramCounts = new Int32Array(1 << 16);
  let lastSynset = new Int32Array(1 << 16).fill(-1);
  const documents: string[][] = [];
  let synsetNumber = 0;
  for (const synset of wordnet.synsets.values()) {
    const definition = tokenize(definitionOf(synset.gloss));
    const examples = tokenize((synset.gloss.match(/"[^"]*"/g) ?? []).join(" "));
    const lemmas = tokenize(synset.words.join(" ").replace(/_/g, " "));
    for (const stem of new Set([...definition, ...examples].map((t) => t.term))) stemCounts.set(stem, (stemCounts.get(stem) ?? 0) + 1);
    for (const list of [definition, examples, lemmas]) {
      for (const token of list) {
        let ids = gramsOfWord.get(token.word);
        if (!ids) {
          ids = Int32Array.from(ngrams(token.word), (gram) => {
            let id = gramIds.get(gram);
            if (id === undefined) gramIds.set(gram, (id = gramIds.size));
            return id;
          });
          gramsOfWord.set(token.word, ids);
          if (gramIds.size > gramCounts.length) {
            const counts = new Int32Array(gramCounts.length * 2);
            counts.set(gramCounts);
            gramCounts = counts;
            const last = new Int32Array(lastSynset.length * 2).fill(-1);
            last.set(lastSynset);
            lastSynset = last;
          }
        }
        for (const id of ids) {
          if (lastSynset[id] === synsetNumber) continue;
          lastSynset[id] = synsetNumber;
          gramCounts[id]++;
        }
      }
    }
    documents.push([...new Set([...lemmas, ...definition].map((t) => t.term))]);
    synsetNumber++;
    await breather.breathe();
  }
  const gramCount = new Map([...gramIds].map(([gram, id]) => [gram, gramCounts[id]]));
  return { stemCounts, gramCounts: gramCount, documents };
}

async function relatedStems(wordnet: WordNet, breather: Breather): Promise<Map<string, [string, number][]>> {
  const weights = new Map<string, Map<string, number>>();
  const add = (from: string, to: string, weight: number) => {
    if (from === to) return;
    let targets = weights.get(from);
    if (!targets) weights.set(from, (targets = new Map()));
    targets.set(to, (targets.get(to) ?? 0) + weight);
  };
  for (const [lemma, senses] of wordnet.senses) {
    const stem = stemOfLemma(lemma);
    if (!stem) continue;
    const total = senses.reduce((sum, s) => sum + s.tagCount + 1, 0);
    for (const sense of senses) {
      const synset = wordnet.synsets.get(sense.synset);
      if (!synset) continue;
      const likelihood = (sense.tagCount + 1) / total;
      const synonyms = synset.words.map(stemOfLemma).filter((s): s is string => s !== null && s !== stem);
      for (const synonym of synonyms) add(stem, synonym, likelihood / synonyms.length);
      const position = synset.words.indexOf(lemma) + 1;
      // Derivations and pertainyms are lexical pointers: from one word of the synset to one of the target.
      const lexical = synset.pointers.filter((p) => (p.symbol === "+" || p.symbol === "\\") && p.sourceWord === position);
      for (const pointer of lexical) {
        const target = wordnet.synsets.get(pointer.target)?.words[pointer.targetWord - 1];
        const targetStem = target ? stemOfLemma(target) : null;
        if (targetStem) add(stem, targetStem, likelihood / lexical.length);
      }
    }
    await breather.breathe();
  }
  const related = new Map<string, [string, number][]>();
  for (const [stem, targets] of [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // Each sense spreads its likelihood over its links; a stem's links together weigh at most 1.
    const total = Math.max(1, [...targets.values()].reduce((a, b) => a + b, 0));
    const kept = [...targets]
      .map(([to, w]) => [to, w / total] as [string, number])
      .filter(([, w]) => w >= MIN_RELATED_WEIGHT)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (kept.length > 0) related.set(stem, kept);
  }
  return related;
}

/** Word statistics alone: what lexical scoring (rerank, extractive chat) needs; ~4 s to build. */
/**
 * Antonyms between stems: WordNet's direct antonym pointers ("large" ↔ "small"), and the indirect ones
 * of satellite adjectives through their head ("huge", similar to "large", opposes "small").
 */
function antonymStems(wordnet: WordNet): Map<string, string[]> {
  const pairs = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    if (a === b) return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      if (!pairs.has(x)) pairs.set(x, new Set());
      pairs.get(x)!.add(y);
    }
  };
  const opposites = (synsetKey: string): string[] => {
    const synset = wordnet.synsets.get(synsetKey);
    if (!synset) return [];
    return synset.pointers
      .filter((p) => p.symbol === "!")
      .map((p) => wordnet.synsets.get(p.target)?.words[p.targetWord - 1])
      .filter((w): w is string => w !== undefined);
  };
  for (const synset of wordnet.synsets.values()) {
    for (const pointer of synset.pointers) {
      if (pointer.symbol === "!") {
        const from = stemOfLemma(synset.words[pointer.sourceWord - 1] ?? "");
        const to = stemOfLemma(wordnet.synsets.get(pointer.target)?.words[pointer.targetWord - 1] ?? "");
        if (from && to) add(from, to);
      } else if (pointer.symbol === "&" && synset.pos === "a") {
        for (const word of synset.words) {
          const from = stemOfLemma(word);
          if (!from) continue;
          for (const opposite of opposites(pointer.target)) {
            const to = stemOfLemma(opposite);
            if (to) add(from, to);
          }
        }
      }
    }
  }
  return new Map([...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([stem, set]) => [stem, [...set].sort()]));
}

export async function buildWordStatistics(wordnet: WordNet = readWordNet()): Promise<WordStatistics> {
  const breather = new Breather();
  const glossCount = wordnet.synsets.size;
  const { stemCounts, gramCounts } = await countGlosses(wordnet, breather);
  return {
    glossCount,
    idf: new Map([...stemCounts].map(([s, c]) => [s, idfOf(c, glossCount)])),
    gramIdf: new Map([...gramCounts].map(([g, c]) => [g, idfOf(c, glossCount)])),
    related: await relatedStems(wordnet, breather),
    antonyms: antonymStems(wordnet),
  };
}

/** The LSA concept space; ~15 s to build on two cores, mostly the SVD. */
export async function buildConceptSpace(wordnet: WordNet = readWordNet()): Promise<ConceptSpace> {
  const breather = new Breather();
  const { documents } = await countGlosses(wordnet, breather);
  const frequency = new Map<string, number>();
  for (const document of documents) for (const stem of document) frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
  const words = [...frequency]
    .filter(([, c]) => c >= CONCEPT_MIN_COUNT)
    .map(([s]) => s)
    .sort();
  const vocabulary = new Map(words.map((w, i) => [w, i]));
  await breather.breathe();
  // One synchronous step of about a second (sorting the co-occurrence pairs).
  const matrix = ppmiMatrix(
    documents.map((d) => d.map((s) => vocabulary.get(s)).filter((i): i is number => i !== undefined)),
    vocabulary.size,
  );
  const vectors = await conceptVectors(matrix, CONCEPT_DIMENSION, {}, breather);
  return { vocabulary, dimension: CONCEPT_DIMENSION, vectors };
}

function serializeStatistics(statistics: WordStatistics): Buffer {
  return Buffer.from(
    JSON.stringify({
      version: STATISTICS_VERSION,
      glossCount: statistics.glossCount,
      idf: [...statistics.idf],
      gramIdf: [...statistics.gramIdf],
      related: [...statistics.related],
      antonyms: [...statistics.antonyms],
    }),
  );
}

function deserializeStatistics(buffer: Buffer): WordStatistics | null {
  const data = JSON.parse(buffer.toString("utf8"));
  if (data.version !== STATISTICS_VERSION) return null;
  return {
    glossCount: data.glossCount,
    idf: new Map(data.idf),
    gramIdf: new Map(data.gramIdf),
    related: new Map(data.related),
    antonyms: new Map(data.antonyms),
  };
}

// Concepts: a JSON header (version, vocabulary, dimension), then the vectors as raw little-endian floats.
function serializeConcepts(concepts: ConceptSpace): Buffer {
  const header = Buffer.from(JSON.stringify({ version: CONCEPTS_VERSION, vocabulary: [...concepts.vocabulary.keys()], dimension: concepts.dimension }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, Buffer.from(concepts.vectors.buffer, concepts.vectors.byteOffset, concepts.vectors.byteLength)]);
}

function deserializeConcepts(buffer: Buffer): ConceptSpace | null {
  const headerLength = buffer.readUInt32LE(0);
  const header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8"));
  if (header.version !== CONCEPTS_VERSION) return null;
  const raw = buffer.subarray(4 + headerLength);
  const vectors = new Float32Array(raw.byteLength / 4);
  new Uint8Array(vectors.buffer).set(raw);
  const vocabulary = new Map<string, number>((header.vocabulary as string[]).map((w, i) => [w, i]));
  if (vectors.length !== vocabulary.size * header.dimension) return null;
  return { vocabulary, dimension: header.dimension, vectors };
}

/** One file of the lexicon: how it is named, made, written and read. */
interface LexiconPart<T> {
  file: string;
  build(wordnet: WordNet): Promise<T>;
  serialize(value: T): Buffer;
  deserialize(buffer: Buffer): T | null;
}

const statisticsPart: LexiconPart<WordStatistics> = {
  file: `cairn-word-statistics-v${STATISTICS_VERSION}.json`,
  build: buildWordStatistics,
  serialize: serializeStatistics,
  deserialize: deserializeStatistics,
};

const conceptsPart: LexiconPart<ConceptSpace> = {
  file: `cairn-concepts-v${CONCEPTS_VERSION}.bin`,
  build: buildConceptSpace,
  serialize: serializeConcepts,
  deserialize: deserializeConcepts,
};

/** Where `npm run build` leaves the lexicon it derived at build time (server/prepared-models). */
export const PREPARED_MODELS_DIRECTORY = path.resolve(__dirname, "../../../prepared-models");

async function readPart<T>(part: LexiconPart<T>, directory: string): Promise<T | null> {
  try {
    return part.deserialize(await fs.promises.readFile(path.join(directory, part.file)));
  } catch {
    return null; // absent or unreadable
  }
}

/** The part as prepared at build time, else as cached by an earlier preparation at run time. */
async function findPart<T>(part: LexiconPart<T>): Promise<T | null> {
  return (await readPart(part, PREPARED_MODELS_DIRECTORY)) ?? (await readPart(part, modelCacheDirectory()));
}

export interface PreparationProgress {
  /** 0 to 1. */
  fraction: number;
  step: "wordnet" | "statistics" | "concepts" | "done";
}

/**
 * Writes every part of the lexicon missing from `directory` (each aside, then renamed into place, so that
 * a process reading it never sees half a file). This is the long work (~20 s on two cores): the build
 * does it, and a server only when the build's output is missing, in a process of its own.
 */
export async function writeLexicon(directory: string, onProgress: (progress: PreparationProgress) => void = () => undefined): Promise<void> {
  const missing = [];
  for (const part of [statisticsPart, conceptsPart] as LexiconPart<unknown>[]) if (!(await readPart(part, directory))) missing.push(part);
  if (missing.length === 0) return;
  onProgress({ fraction: 0, step: "wordnet" });
  const wordnet = readWordNet();
  await fs.promises.mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  for (const part of missing) {
    onProgress({ fraction: part === statisticsPart ? 0.1 : 0.35, step: part === statisticsPart ? "statistics" : "concepts" });
    const file = path.join(directory, part.file);
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(partial, part.serialize(await part.build(wordnet)), { mode: PRIVATE_FILE_MODE });
    await fs.promises.rename(partial, file);
  }
  onProgress({ fraction: 1, step: "done" });
}

type PreparationListener = (progress: PreparationProgress) => void;
const preparationListeners = new Set<PreparationListener>();
let preparation: { running: Promise<void>; progress: PreparationProgress } | undefined;

/** Whether the built-in models are being prepared in this process's name right now, and how far. */
export function lexiconPreparation(): PreparationProgress | null {
  return preparation?.progress ?? null;
}

/** Calls `listener` with each step of a preparation; returns how to stop listening. */
export function onLexiconPreparation(listener: PreparationListener): () => void {
  preparationListeners.add(listener);
  return () => preparationListeners.delete(listener);
}

/**
 * Derives the lexicon into the cache directory in a child process (prepare-lexicon.ts), never on this
 * process's thread: a server whose build left no prepared models keeps answering while it runs.
 */
function prepareInChildProcess(): Promise<void> {
  if (preparation) return preparation.running;
  const report = (progress: PreparationProgress) => {
    if (preparation) preparation.progress = progress;
    for (const listener of preparationListeners) listener(progress);
  };
  const running = new Promise<void>((resolve, reject) => {
    const { entry, execArgv } = childScript(__filename, "prepare-lexicon");
    const child = fork(entry, [modelCacheDirectory()], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (message) => report(message as PreparationProgress));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the built-in models could not be prepared (exit code ${code})`))));
  }).finally(() => {
    preparation = undefined;
  });
  preparation = { running, progress: { fraction: 0, step: "wordnet" } };
  report(preparation.progress);
  return running;
}

async function loadPart<T>(part: LexiconPart<T>): Promise<T> {
  const found = await findPart(part);
  if (found) return found;
  await prepareInChildProcess();
  const prepared = await readPart(part, modelCacheDirectory());
  if (!prepared) throw new Error(`the built-in models' ${part.file} is missing after its preparation`);
  return prepared;
}

/** A promise made once per process; forgotten if it fails, so that a later call can try again. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = make();
      pending.catch(() => (pending = undefined));
    }
    return pending;
  };
}

export const wordStatistics = once(() => loadPart(statisticsPart));

export const conceptSpace = once(() => loadPart(conceptsPart));

/** Everything the embedding needs, loaded in about half a second. */
export const lexicon = once(async (): Promise<Lexicon> => {
  const statistics = await wordStatistics();
  return { ...statistics, concepts: await conceptSpace() };
});
