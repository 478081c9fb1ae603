import type { AssistantFormChoicesQuery, AssistantInput, AssistantSettingsFragment } from "../../../graphql/gql/graphql";
import { topKProblem, type TopKRange } from "../../../components/topKRange";
import type { FieldProblems } from "../../../errors";

/** The reserved variable the retrieved chunks fill (§5: "knowledge is reserved"). */
export const KNOWLEDGE_VARIABLE = "knowledge";

export interface VariableDraft {
  key: string;
  optional: boolean;
}

/** The form's state: numbers typed into inputs stay strings until they are checked. */
export interface AssistantDraft {
  name: string;
  avatar: string;
  description: string;
  language: string;
  emptyResponse: string;
  opener: string;
  showQuote: boolean;
  tts: boolean;
  knowledgeBaseIds: string[];
  systemPrompt: string;
  promptVariables: VariableDraft[];
  topN: string;
  topK: string;
  similarityThreshold: number;
  /** The server's weight; the form shows keyword similarity weight, its complement (§9: they sum to 1). */
  vectorSimilarityWeight: number;
  rerankModel: string;
  multiTurnRefine: boolean;
  keywordExtraction: boolean;
  selfRag: boolean;
  /** Languages the question is also searched in, translated by the chat model (RAGFlow's cross_languages). */
  crossLanguages: string[];
  chatModel: string;
  freedom: string;
  temperature: number;
  topP: number;
  presencePenalty: number;
  frequencyPenalty: number;
  maxTokens: string;
}

export type AssistantTab = "assistant" | "prompt" | "model";

/** Which tab shows a field, so that a problem found on save opens the tab it is on. */
export const TAB_OF_FIELD: Record<string, AssistantTab> = {
  name: "assistant",
  avatar: "assistant",
  description: "assistant",
  language: "assistant",
  emptyResponse: "assistant",
  opener: "assistant",
  showQuote: "assistant",
  tts: "assistant",
  knowledgeBaseIds: "assistant",
  systemPrompt: "prompt",
  promptVariables: "prompt",
  topN: "prompt",
  topK: "prompt",
  similarityThreshold: "prompt",
  vectorSimilarityWeight: "prompt",
  rerankModel: "prompt",
  multiTurnRefine: "prompt",
  keywordExtraction: "prompt",
  selfRag: "prompt",
  crossLanguages: "prompt",
  chatModel: "model",
  freedom: "model",
  temperature: "model",
  topP: "model",
  presencePenalty: "model",
  frequencyPenalty: "model",
  maxTokens: "model",
};

export function tabOfField(field: string): AssistantTab {
  return TAB_OF_FIELD[field.split(".")[0].replace(/\[\d+\]$/, "")] ?? "assistant";
}

export function draftOf(assistant: AssistantSettingsFragment): AssistantDraft {
  return {
    name: assistant.name,
    avatar: assistant.avatar ?? "",
    description: assistant.description ?? "",
    language: assistant.language,
    emptyResponse: assistant.emptyResponse,
    opener: assistant.opener,
    showQuote: assistant.showQuote,
    tts: assistant.tts,
    knowledgeBaseIds: [...assistant.knowledgeBaseIds],
    systemPrompt: assistant.systemPrompt,
    promptVariables: withKnowledgeFirst(assistant.promptVariables.map(({ key, optional }) => ({ key, optional }))),
    topN: String(assistant.topN),
    topK: String(assistant.topK),
    similarityThreshold: assistant.similarityThreshold,
    vectorSimilarityWeight: assistant.vectorSimilarityWeight,
    rerankModel: assistant.rerankModel ?? "",
    multiTurnRefine: assistant.multiTurnRefine,
    keywordExtraction: assistant.keywordExtraction,
    selfRag: assistant.selfRag,
    crossLanguages: assistant.crossLanguages,
    chatModel: assistant.chatModel,
    freedom: assistant.freedom,
    temperature: assistant.temperature,
    topP: assistant.topP,
    presencePenalty: assistant.presencePenalty,
    frequencyPenalty: assistant.frequencyPenalty,
    maxTokens: String(assistant.maxTokens),
  };
}

function defaultTextsIn(choices: AssistantFormChoicesQuery | undefined, language: string) {
  return choices?.assistantDefaults.texts.find((texts) => texts.language === language);
}

/**
 * A new assistant: the server's defaults (prompt-defaults.ts is the one place for them) in the language the server
 * says its creator's assistants speak, and the tenant's chat model.
 */
export function newDraft(choices: AssistantFormChoicesQuery | undefined): AssistantDraft {
  const defaults = choices?.assistantDefaults;
  const language = defaults?.language ?? "English";
  const texts = defaultTextsIn(choices, language);
  const preset = defaults?.freedomPresets.find((candidate) => candidate.name === "precise") ?? defaults?.freedomPresets[0];
  return {
    name: "",
    avatar: "",
    description: "",
    language,
    emptyResponse: texts?.emptyResponse ?? "",
    opener: texts?.opener ?? "",
    showQuote: true,
    tts: false,
    knowledgeBaseIds: [],
    systemPrompt: texts?.systemPrompt ?? "",
    promptVariables: [{ key: KNOWLEDGE_VARIABLE, optional: false }],
    topN: "6",
    topK: "1024",
    similarityThreshold: 0.2,
    vectorSimilarityWeight: 0.3,
    rerankModel: "",
    multiTurnRefine: true,
    keywordExtraction: false,
    selfRag: false,
    crossLanguages: [],
    chatModel: choices?.defaultModels.chat ?? "",
    freedom: preset?.name ?? "precise",
    temperature: preset?.temperature ?? 0.2,
    topP: preset?.topP ?? 0.75,
    presencePenalty: preset?.presencePenalty ?? 0.5,
    frequencyPenalty: preset?.frequencyPenalty ?? 0.5,
    maxTokens: "512",
  };
}

/** A new assistant's draft in another language: each text still as the old language's default becomes the new one's. */
export function inLanguage(draft: AssistantDraft, language: string, choices: AssistantFormChoicesQuery | undefined): AssistantDraft {
  const before = defaultTextsIn(choices, draft.language);
  const after = defaultTextsIn(choices, language);
  if (!before || !after) return { ...draft, language };
  const swapped = (field: "systemPrompt" | "opener" | "emptyResponse") => (draft[field] === before[field] ? after[field] : draft[field]);
  return { ...draft, language, systemPrompt: swapped("systemPrompt"), opener: swapped("opener"), emptyResponse: swapped("emptyResponse") };
}

function withKnowledgeFirst(variables: VariableDraft[]): VariableDraft[] {
  const knowledge = variables.find((variable) => variable.key === KNOWLEDGE_VARIABLE) ?? { key: KNOWLEDGE_VARIABLE, optional: false };
  return [knowledge, ...variables.filter((variable) => variable !== knowledge)];
}

/** The server's rule: a key is written inside braces, so it cannot hold braces or spaces. */
const VARIABLE_KEY = /^[^{}\s]+$/;
const whole = (text: string) => /^\d+$/.test(text.trim());

/** §5's required fields and the variable rules; the server checks the same and answers with field problems. */
export function checkDraft(draft: AssistantDraft, topKRange: TopKRange): FieldProblems {
  const found: FieldProblems = {};
  if (!draft.name.trim()) found.name = { key: "errors.chat.nameRequired" };
  const needsKnowledge = draft.promptVariables.some((variable) => variable.key === KNOWLEDGE_VARIABLE && !variable.optional);
  if (needsKnowledge && draft.knowledgeBaseIds.length === 0) found.knowledgeBaseIds = { key: "errors.chat.knowledgeBasesRequired" };
  if (!draft.systemPrompt.trim()) found.systemPrompt = { key: "errors.chat.systemPromptRequired" };
  if (!draft.chatModel) found.chatModel = { key: "errors.chat.modelRequired" };
  const seen = new Set<string>();
  draft.promptVariables.forEach((variable, index) => {
    const key = variable.key.trim();
    const field = `promptVariables.${index}`;
    if (!key) found[field] = { key: "errors.chat.variableKeyRequired" };
    else if (!VARIABLE_KEY.test(key)) found[field] = { key: "errors.chat.variableKeyInvalid", params: { key } };
    else if (seen.has(key)) found[field] = { key: "errors.chat.variableDuplicate", params: { key } };
    else if (!variable.optional && !draft.systemPrompt.includes(`{${key}}`)) found[field] = { key: "errors.chat.variableUnused", params: { key, braced: `{${key}}` } };
    seen.add(key);
  });
  if (!whole(draft.topN) || Number(draft.topN) < 1 || Number(draft.topN) > 30) found.topN = { key: "errors.chat.between", params: { min: 1, max: 30 } };
  const topKFault = topKProblem(draft.topK, topKRange, "errors.chat.between");
  if (topKFault) found.topK = topKFault;
  if (!draft.maxTokens.trim()) found.maxTokens = { key: "chat.settings.maxTokensRequired" };
  else if (!whole(draft.maxTokens) || Number(draft.maxTokens) < 1) found.maxTokens = { key: "errors.chat.maxTokensInvalid" };
  return found;
}

/** Every field, for a create; on update only what changed since `before`. */
export function inputOf(draft: AssistantDraft, before?: AssistantDraft): AssistantInput {
  const all: AssistantInput = {
    name: draft.name.trim(),
    avatar: draft.avatar || null,
    description: draft.description,
    language: draft.language,
    emptyResponse: draft.emptyResponse,
    opener: draft.opener,
    showQuote: draft.showQuote,
    tts: draft.tts,
    knowledgeBaseIds: draft.knowledgeBaseIds,
    systemPrompt: draft.systemPrompt,
    promptVariables: draft.promptVariables.map((variable) => ({ key: variable.key.trim(), optional: variable.optional })),
    topN: Number(draft.topN),
    topK: Number(draft.topK),
    similarityThreshold: draft.similarityThreshold,
    vectorSimilarityWeight: draft.vectorSimilarityWeight,
    rerankModel: draft.rerankModel,
    multiTurnRefine: draft.multiTurnRefine,
    keywordExtraction: draft.keywordExtraction,
    selfRag: draft.selfRag,
    crossLanguages: draft.crossLanguages,
    chatModel: draft.chatModel,
    freedom: draft.freedom,
    temperature: draft.temperature,
    topP: draft.topP,
    presencePenalty: draft.presencePenalty,
    frequencyPenalty: draft.frequencyPenalty,
    maxTokens: Number(draft.maxTokens),
  };
  if (!before) return all;
  const previous = inputOf(before);
  const changed: AssistantInput = {};
  for (const [key, value] of Object.entries(all) as [keyof AssistantInput, unknown][]) {
    if (JSON.stringify(value) !== JSON.stringify(previous[key])) (changed as Record<string, unknown>)[key] = value;
  }
  return changed;
}
