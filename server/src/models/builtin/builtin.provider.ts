import type { ModelClients, ModelType } from "../model-types";
import type { CatalogueModel, ModelSpec, ProviderDefinition } from "../provider";
import { pickClient } from "../providers/shared";
import { BuiltinEmbedding } from "./embedding";
import { BuiltinExtractiveChat } from "./extractive-chat";
import { BuiltinLexicalRerank } from "./lexical-rerank";
import { lexicon, setModelCacheDirectory } from "./lexicon";
import { closeTesseract, TesseractOcr } from "./tesseract-ocr";

/**
 * The models that ship inside Cairn: no key, no network, no download, no neural network. The first model
 * of each type is the default of that type for a tenant who chose none; the settings page describes each
 * for what it is (locales: models.builtin.about.<type>).
 */
const catalogue: readonly CatalogueModel[] = [
  /** Extractive, not a language model: quotes the most relevant sentences of the knowledge, with citations, or says it is not found. */
  { name: "cairn-extractive", type: "chat", maxTokens: 8192 },
  /** Cairn's own 1024-dimension embedding, computed without a neural network (see embedding.ts). */
  { name: "cairn-embedding", type: "embedding", maxTokens: 8192 },
  /**
   * Not BGE: the name RAGFlow clients send for their default embedding, served by cairn-embedding itself
   * (same vectors). The settings page labels a second built-in model of a type as another name for the first.
   */
  { name: "BAAI/bge-small-en-v1.5", type: "embedding", maxTokens: 8192 },
  /** Lexical: BM25-style term matching with stems, WordNet relations, jieba words and proximity; scores 0..1. */
  { name: "cairn-lexical-rerank", type: "rerank" },
  /** Offline OCR (Tesseract) for English, Simplified and Traditional Chinese: it reads text, it does not describe pictures. */
  { name: "tesseract-ocr", type: "img2txt" },
];

const factories = {
  chat: () => new BuiltinExtractiveChat(),
  embedding: () => new BuiltinEmbedding(),
  rerank: () => new BuiltinLexicalRerank(),
  img2txt: () => new TesseractOcr(),
};

export const builtin: ProviderDefinition = {
  name: "Builtin",
  modelTypes: ["chat", "embedding", "rerank", "img2txt"],
  credentialFields: [],
  catalogue,
  create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
    if (!catalogue.some((m) => m.name === spec.modelName && m.type === type)) {
      throw new Error(`Builtin offers no ${type} model named "${spec.modelName}"`);
    }
    return pickClient("Builtin", type, factories);
  },
};

/**
 * Where the built-in models cache what they derive from WordNet (`DATA_DIR/cache/models` is the natural
 * place); without this call, `$DATA_DIR/cache/models` when that variable is set, else the system's temporary folder.
 */
export function configureBuiltinModels(options: { cacheDirectory: string }): void {
  setModelCacheDirectory(options.cacheDirectory);
}

/**
 * Loads (~1 s) what the built-in models derive from WordNet — prepared by the build, or, where the build left
 * none, in a process of its own (~20 s) — so that the first embedding does not wait for it. Servers call it in
 * the background at start.
 */
export async function prepareBuiltinModels(): Promise<void> {
  await lexicon();
}

/** Releases what the built-in models hold outside the heap (the OCR workers): for server shutdown and tests. */
export async function closeBuiltinModels(): Promise<void> {
  await closeTesseract();
}
