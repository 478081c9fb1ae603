/**
 * The defaults of a chat assistant, in one place: what a new assistant gets, what the settings form
 * offers, and what the REST facade fills in (RAGFlow v0.24.0's values, API contract §6.2).
 */

import { RETRIEVAL_DEFAULTS } from "../retrieval/retrieval.service";

/** Reserved prompt variable: filled with the retrieved chunks. */
export const KNOWLEDGE_VARIABLE = "knowledge";

/**
 * The product's default system prompt. The specification (§8) asks that it include the sentence
 * "the answer you are looking for is not found in the knowledge base"; the rest is RAGFlow's wording.
 */
export const DEFAULT_SYSTEM_PROMPT = `You are an intelligent assistant. Please summarize the content of the knowledge base to answer the question. Please list the data in the knowledge base and answer in detail. When all knowledge base content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the knowledge base!" Answers need to consider chat history.
      Here is the knowledge base:
      {knowledge}
      The above is the knowledge base.`;

/**
 * RAGFlow v0.24.0's default prompt byte for byte (its HTTP test suite compares it exactly): what
 * `POST /api/v1/chats` stores when the request gives no prompt. It says "dataset" where the product
 * says "knowledge base"; both ask for a "not found" sentence.
 */
export const RAGFLOW_DEFAULT_SYSTEM_PROMPT = `You are an intelligent assistant. Please summarize the content of the dataset to answer the question. Please list the data in the dataset and answer in detail. When all dataset content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the dataset!" Answers need to consider chat history.
      Here is the knowledge base:
      {knowledge}
      The above is the knowledge base.`;

export const DEFAULT_DESCRIPTION = "A helpful Assistant";
export const DEFAULT_OPENER = "Hi! I'm your assistant. What can I do for you?";
export const DEFAULT_EMPTY_RESPONSE = "Sorry! No relevant content was found in the knowledge base!";
export const DEFAULT_LANGUAGE = "English";

export interface PromptVariable {
  key: string;
  optional: boolean;
}

export const DEFAULT_VARIABLES: readonly PromptVariable[] = [{ key: KNOWLEDGE_VARIABLE, optional: false }];

/** RAGFlow's `llm_setting` keys. */
export interface LlmSetting {
  temperature: number;
  top_p: number;
  presence_penalty: number;
  frequency_penalty: number;
  max_tokens: number;
}

/** RAGFlow's default model settings (a new chat without `llm`). */
export const DEFAULT_LLM_SETTING: Readonly<LlmSetting> = { temperature: 0.1, top_p: 0.3, presence_penalty: 0.4, frequency_penalty: 0.7, max_tokens: 512 };

/**
 * Retrieval settings of a new assistant: retrieval's own defaults, and the six best chunks in the prompt.
 * `vectorSimilarityWeight` weighs vector similarity (keyword weight = 1 − it).
 */
export const ASSISTANT_RETRIEVAL_DEFAULTS = {
  similarityThreshold: RETRIEVAL_DEFAULTS.similarityThreshold,
  vectorSimilarityWeight: RETRIEVAL_DEFAULTS.vectorSimilarityWeight,
  topN: 6,
  topK: RETRIEVAL_DEFAULTS.topK,
} as const;

/** The columns of a new assistant that its creator leaves out (GraphQL and the REST facade alike). */
export function newAssistantColumns() {
  return {
    description: DEFAULT_DESCRIPTION,
    icon: null,
    language: DEFAULT_LANGUAGE,
    ...ASSISTANT_RETRIEVAL_DEFAULTS,
    rerankId: "",
    doRefer: "1",
    metaDataFilter: {},
  };
}

/** Switches of the prompt engine (RAGFlow's prompt_config keys). */
export const DEFAULT_SWITCHES = { quote: true, tts: false, refine_multiturn: true, keyword: false, self_rag: false } as const;

export type FreedomName = "improvise" | "precise" | "balance";

export interface FreedomPreset {
  name: FreedomName;
  temperature: number;
  topP: number;
  presencePenalty: number;
  frequencyPenalty: number;
}

/** RAGFlow's freedom presets: choosing one sets temperature, top P and the two penalties. */
export const FREEDOM_PRESETS: readonly FreedomPreset[] = [
  { name: "improvise", temperature: 0.8, topP: 0.9, presencePenalty: 0.1, frequencyPenalty: 0.1 },
  { name: "precise", temperature: 0.2, topP: 0.75, presencePenalty: 0.5, frequencyPenalty: 0.5 },
  { name: "balance", temperature: 0.5, topP: 0.85, presencePenalty: 0.2, frequencyPenalty: 0.3 },
];

/** A preset's name, or "custom" for settings that are none of them. */
export const FREEDOM_NAMES = ["improvise", "precise", "balance", "custom"] as const;

export function freedomPreset(name: string): FreedomPreset | undefined {
  return FREEDOM_PRESETS.find((p) => p.name === name);
}

/** The preset these settings are exactly, else "custom". */
export function freedomOf(setting: Partial<LlmSetting>): string {
  const preset = FREEDOM_PRESETS.find(
    (p) =>
      p.temperature === setting.temperature &&
      p.topP === setting.top_p &&
      p.presencePenalty === setting.presence_penalty &&
      p.frequencyPenalty === setting.frequency_penalty,
  );
  return preset?.name ?? "custom";
}
