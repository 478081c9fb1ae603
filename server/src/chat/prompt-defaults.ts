/**
 * The defaults of a chat assistant, in one place: what a new assistant gets, what the settings form
 * offers, and what the REST facade fills in (RAGFlow v0.24.0's values, API contract §6.2).
 */

import { localizedMessage, type Locale } from "../platform/messages";
import { RETRIEVAL_DEFAULTS } from "../knowledge/knowledge-base.service";

/** Reserved prompt variable: filled with the retrieved chunks. */
export const KNOWLEDGE_VARIABLE = "knowledge";

export const DEFAULT_LANGUAGE = "English";

/** The assistant languages that have texts of their own: those of the interface. The others get English ones. */
const LOCALE_OF_LANGUAGE: Readonly<Record<string, Locale>> = { English: "en", Chinese: "zh", "Traditional Chinese": "zh-TRADITIONAL", Indonesian: "id", Spanish: "es" };

/** The assistant language of an interface language ("zh" → "Chinese"): what a user's new assistant speaks unless told otherwise. */
export function assistantLanguageOf(locale: string): string {
  return Object.entries(LOCALE_OF_LANGUAGE).find(([, code]) => code === locale)?.[0] ?? DEFAULT_LANGUAGE;
}

/** The texts a new assistant starts with. */
export interface AssistantTexts {
  systemPrompt: string;
  opener: string;
  emptyResponse: string;
}

/**
 * A new assistant's texts in its language (`chat.defaults.*` of the locales). The specification (§8) asks that the
 * system prompt include the sentence "the answer you are looking for is not found in the knowledge base"; the rest
 * is RAGFlow's wording, in Chinese RAGFlow's Chinese defaults.
 */
export function defaultTexts(language: string): AssistantTexts {
  const locale = LOCALE_OF_LANGUAGE[language] ?? "en";
  return {
    systemPrompt: localizedMessage(locale, "chat.defaults.systemPrompt"),
    opener: localizedMessage(locale, "chat.defaults.opener"),
    emptyResponse: localizedMessage(locale, "chat.defaults.emptyResponse"),
  };
}

const ENGLISH = defaultTexts(DEFAULT_LANGUAGE);
export const DEFAULT_SYSTEM_PROMPT = ENGLISH.systemPrompt;
/** RAGFlow's opener and empty response, which the REST facade fills in (API contract §6.2): the English ones. */
export const DEFAULT_OPENER = ENGLISH.opener;
export const DEFAULT_EMPTY_RESPONSE = ENGLISH.emptyResponse;

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
