import type { ChatAssistant, PromptConfig, StoredLlmSetting } from "./assistant.entity";
import type { AssistantRecord } from "./assistant-rules";
import { crossLanguagesOf } from "../retrieval/cross-languages";
import {
  assistantLanguageOf,
  defaultTexts,
  DEFAULT_LLM_SETTING,
  DEFAULT_SWITCHES,
  FREEDOM_NAMES,
  freedomOf,
  freedomPreset,
  KNOWLEDGE_VARIABLE,
  type PromptVariable,
} from "./prompt-defaults";

/** The settings form's fields (GraphQL `AssistantInput`); on update only the fields given change. */
export interface AssistantInput {
  name?: string | null;
  avatar?: string | null;
  description?: string | null;
  language?: string | null;
  emptyResponse?: string | null;
  opener?: string | null;
  knowledgeBaseIds?: string[] | null;
  systemPrompt?: string | null;
  promptVariables?: PromptVariable[] | null;
  topN?: number | null;
  topK?: number | null;
  similarityThreshold?: number | null;
  vectorSimilarityWeight?: number | null;
  rerankModel?: string | null;
  chatModel?: string | null;
  freedom?: string | null;
  temperature?: number | null;
  topP?: number | null;
  presencePenalty?: number | null;
  frequencyPenalty?: number | null;
  maxTokens?: number | null;
  showQuote?: boolean | null;
  selfRag?: boolean | null;
  multiTurnRefine?: boolean | null;
  keywordExtraction?: boolean | null;
  tts?: boolean | null;
  crossLanguages?: string[] | null;
}

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** The variables as the form gives them, with the reserved `knowledge` always among them. */
function withKnowledgeVariable(variables: readonly PromptVariable[]): PromptVariable[] {
  const list = variables.map((v) => ({ key: v.key.trim(), optional: Boolean(v.optional) }));
  return list.some((v) => v.key === KNOWLEDGE_VARIABLE) ? list : [{ key: KNOWLEDGE_VARIABLE, optional: false }, ...list];
}

/** Form switch → prompt_config key. */
const SWITCHES = [
  ["showQuote", "quote"],
  ["selfRag", "self_rag"],
  ["multiTurnRefine", "refine_multiturn"],
  ["keywordExtraction", "keyword"],
  ["tts", "tts"],
] as const;

/** Form sampling field → llm_setting key. */
const SAMPLING = [
  ["temperature", "temperature"],
  ["topP", "top_p"],
  ["presencePenalty", "presence_penalty"],
  ["frequencyPenalty", "frequency_penalty"],
] as const;

/** The prompt engine's part of the form, merged into the stored prompt_config; undefined when untouched. */
function promptChanges(input: AssistantInput, current: ChatAssistant | undefined, language: string): PromptConfig | undefined {
  const prompt: PromptConfig = { ...(current?.promptConfig ?? {}) };
  let changed = !current;
  if (!current) {
    // A new assistant's texts are in its language.
    const texts = defaultTexts(language);
    Object.assign(prompt, { system: texts.systemPrompt, prologue: texts.opener, empty_response: texts.emptyResponse, parameters: [{ key: KNOWLEDGE_VARIABLE, optional: false }], ...DEFAULT_SWITCHES });
  }
  const set = (key: string, value: unknown) => {
    prompt[key] = value;
    changed = true;
  };
  if (input.systemPrompt !== undefined) set("system", input.systemPrompt ?? "");
  if (input.opener !== undefined) set("prologue", input.opener ?? "");
  if (input.emptyResponse !== undefined) set("empty_response", input.emptyResponse ?? "");
  if (given(input.promptVariables)) set("parameters", withKnowledgeVariable(input.promptVariables));
  for (const [field, key] of SWITCHES) if (given(input[field])) set(key, input[field]);
  if (given(input.crossLanguages)) set("cross_languages", crossLanguagesOf(input.crossLanguages));
  return changed ? prompt : undefined;
}

/** The model settings' part of the form, merged into the stored llm_setting; undefined when untouched. */
function llmChanges(input: AssistantInput, current: ChatAssistant | undefined): StoredLlmSetting | undefined {
  const llm: StoredLlmSetting = { ...(current ? (current.llmSetting ?? {}) : DEFAULT_LLM_SETTING) };
  let changed = !current;
  if (given(input.freedom)) {
    const preset = freedomPreset(input.freedom);
    if (preset) Object.assign(llm, { temperature: preset.temperature, top_p: preset.topP, presence_penalty: preset.presencePenalty, frequency_penalty: preset.frequencyPenalty });
    changed = true;
  }
  for (const [field, key] of SAMPLING) {
    if (!given(input[field])) continue;
    llm[key] = input[field];
    changed = true;
  }
  if (given(input.maxTokens)) {
    llm.max_tokens = input.maxTokens;
    changed = true;
  }
  if (!changed) return undefined;
  // The preset chosen is kept when the values are its own; edited values make the settings "custom". A name
  // that is no preset is kept as given, for the rule freedomIsPreset to refuse.
  const chosen = given(input.freedom) ? input.freedom : undefined;
  const matching = freedomOf(llm);
  const known = chosen !== undefined && (FREEDOM_NAMES as readonly string[]).includes(chosen);
  llm.freedom = chosen !== undefined && (!known || chosen === "custom" || matching === chosen) ? chosen : matching;
  return llm;
}

/**
 * The settings form's input as stored columns: on create the form's own defaults (a new assistant speaks its
 * creator's language, its texts in that language), on update only what the form gives. The values are not
 * judged here: AssistantService checks them with the assistant rules, as it checks every surface's.
 */
export function assistantFormChanges(input: AssistantInput, options: { current: ChatAssistant } | { creatorLanguage: string }): Partial<AssistantRecord> {
  const current = "current" in options ? options.current : undefined;
  const record: Partial<AssistantRecord> = {};
  if (!current || input.name !== undefined) record.name = (input.name ?? "").trim();
  if (input.avatar !== undefined) record.icon = input.avatar || null;
  if (input.description !== undefined) record.description = input.description ?? null;
  if (given(input.language)) record.language = input.language;
  else if ("creatorLanguage" in options) record.language = assistantLanguageOf(options.creatorLanguage);

  const prompt = promptChanges(input, current, record.language ?? "");
  if (prompt) record.promptConfig = prompt;
  if (given(input.showQuote)) record.doRefer = input.showQuote ? "1" : "0";

  if (given(input.knowledgeBaseIds)) record.kbIds = [...new Set(input.knowledgeBaseIds)];
  else if (!current) record.kbIds = [];
  for (const field of ["topN", "topK", "similarityThreshold", "vectorSimilarityWeight"] as const) {
    const value = input[field];
    if (given(value)) record[field] = value;
  }
  if (input.rerankModel !== undefined) record.rerankId = input.rerankModel?.trim() ?? "";

  // A new assistant without a chat model gets the tenant's default (AssistantService); cleared on update, it is refused.
  if (current ? input.chatModel !== undefined : given(input.chatModel)) record.llmId = input.chatModel?.trim() ?? "";
  const llm = llmChanges(input, current);
  if (llm) record.llmSetting = llm;
  return record;
}
