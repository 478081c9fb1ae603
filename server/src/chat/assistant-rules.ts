import { isDeepStrictEqual } from "node:util";
import type { SignedIn } from "../policies/principal";
import { KNOWLEDGE_BASE_LANGUAGES } from "../knowledge/knowledge-base.service";
import type { ModelType } from "../models/model-types";
import type { FieldProblem } from "../platform/errors";
import type { ChatAssistant, PromptConfig, StoredLlmSetting } from "./assistant.entity";
import { FREEDOM_NAMES, KNOWLEDGE_VARIABLE, type PromptVariable } from "./prompt-defaults";
import { TOP_K } from "../knowledge/retrieval-params";

/**
 * The rules an assistant's settings obey, each a small function with one job, and the one list of them
 * that AssistantService checks before every write, whichever surface asks. RAGFlow's REST API keeps some
 * of them and deliberately relaxes the others: that is the "ragflow" leniency, spelled out below.
 */

export const ASSISTANT_NAME_MAX_LENGTH = 255;
const LONG_TEXT_MAX_LENGTH = 65535;
/** A photo as a data URL; about 2 MB of image. */
const AVATAR_MAX_LENGTH = 2_800_000;
export const TOP_N_RANGE = [1, 30] as const;
export const TOP_K_RANGE = [TOP_K.min!, TOP_K.max!] as const;
/** Rerank models RAGFlow's chat API accepts without any tenant configuration (API contract §6.3, §14). */
export const RAGFLOW_RERANK_ALLOW_LIST = ["BAAI/bge-reranker-v2-m3", "maidalun1020/bce-reranker-base_v1"];

/** The stored columns a surface may write, under RAGFlow's internal names. */
export type AssistantRecord = Pick<
  ChatAssistant,
  | "name"
  | "description"
  | "icon"
  | "language"
  | "kbIds"
  | "llmId"
  | "llmSetting"
  | "promptConfig"
  | "similarityThreshold"
  | "vectorSimilarityWeight"
  | "topN"
  | "topK"
  | "rerankId"
  | "doRefer"
  | "metaDataFilter"
>;

/** Why a knowledge base cannot serve an assistant, in the order RAGFlow checks (API contract §6.3 1–3). */
export type KnowledgeBaseProblem =
  | { kind: "unusable"; id: string }
  | { kind: "notParsed"; id: string; name: string }
  | { kind: "embeddingMismatch" };

/** RAGFlow's chat API: lenient where RAGFlow deliberately is (API contract §6.3–6.4), see RAGFLOW_RULES. */
export type AssistantLeniency = "ragflow";

export interface AssistantRuleOptions {
  leniency?: AssistantLeniency;
  /** The model types the chat model may be of; RAGFlow's API takes one, from `llm.model_type` (default: chat and image-to-text). */
  chatModelTypes?: ModelType[];
}

/** What the rules may ask beyond the draft: the service's lookups, as ports. */
export interface AssistantRuleContext {
  principal: SignedIn;
  chatModelTypes: ModelType[];
  knowledgeBaseProblem(ids: string[]): Promise<KnowledgeBaseProblem | null>;
  /** The id of a model of the tenant by id or bare name, or null. */
  modelId(types: ModelType[], requested: string): Promise<string | null>;
  nameTaken(name: string, exceptId?: string): Promise<boolean>;
}

/** The `{key}` of every non-optional variable must occur in the system prompt; the first that does not, or null. */
export function unusedVariable(systemPrompt: string, variables: readonly PromptVariable[]): string | null {
  const missing = variables.find((v) => !v.optional && !systemPrompt.includes(`{${v.key}}`));
  return missing?.key ?? null;
}

/** Python's truthiness, which RAGFlow's API applies to a variable's `optional`. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** The stored prompt variables, whatever shape a lenient surface stored them in. */
function variablesOf(config: PromptConfig): PromptVariable[] {
  const parameters: unknown[] = Array.isArray(config.parameters) ? config.parameters : [];
  return parameters
    .filter((p): p is Record<string, unknown> => typeof p === "object" && p !== null)
    .map((p) => ({ key: String(p.key ?? ""), optional: truthy(p.optional) }));
}

/**
 * The assistant about to be written: on create every column, on update the changes over the current row.
 * A rule judges only what is written now, so that a value stored earlier is never refused in passing.
 */
export class AssistantDraft {
  constructor(
    readonly changes: Partial<AssistantRecord>,
    readonly current?: ChatAssistant,
  ) {}

  get creating(): boolean {
    return !this.current;
  }

  /** Whether this write sets the column. */
  sets(column: keyof AssistantRecord): boolean {
    return this.changes[column] !== undefined;
  }

  /** The column's value after this write. */
  value<K extends keyof AssistantRecord>(column: K): AssistantRecord[K] | undefined {
    return this.sets(column) ? this.changes[column] : this.current?.[column];
  }

  get prompt(): PromptConfig {
    return this.value("promptConfig") ?? {};
  }

  get llm(): StoredLlmSetting {
    return this.value("llmSetting") ?? {};
  }

  /** Whether this write changes a key of the prompt config (on create: sets it). */
  changesPrompt(key: string): boolean {
    return this.sets("promptConfig") && !isDeepStrictEqual(this.prompt[key], this.current?.promptConfig?.[key]);
  }

  /** Whether this write changes a key of the model settings (on create: sets it). */
  changesLlm(key: string): boolean {
    const before = (this.current?.llmSetting ?? {}) as Record<string, unknown>;
    return this.sets("llmSetting") && !isDeepStrictEqual((this.llm as Record<string, unknown>)[key], before[key]);
  }
}

export interface RuleProblem {
  messageKey: string;
  params?: Record<string, unknown>;
  /** A clash with another assistant rather than a bad value: refused as a Conflict. */
  conflict?: boolean;
}

export interface AssistantRule {
  /** The form field its problem is reported on; a field shows its first problem only. */
  field: string;
  check(draft: AssistantDraft, context: AssistantRuleContext): RuleProblem | null | Promise<RuleProblem | null>;
}

const problem = (messageKey: string, params?: Record<string, unknown>): RuleProblem => ({ messageKey, params });
const rule = (field: string, check: AssistantRule["check"]): AssistantRule => ({ field, check });
const isNumberIn = (value: unknown, [min, max]: readonly [number, number], integer = false): boolean =>
  typeof value === "number" && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));

// Name.
export const nameGiven = rule("name", (d) => (d.sets("name") && d.changes.name === "" ? problem("errors.chat.nameRequired") : null));
export const nameFits = rule("name", (d) =>
  d.sets("name") && d.changes.name!.length > ASSISTANT_NAME_MAX_LENGTH ? problem("errors.chat.nameTooLong", { max: ASSISTANT_NAME_MAX_LENGTH }) : null,
);
/** Another live assistant of the tenant may not have the name, whatever its case; a rename in case only is no clash. */
export const nameFree = rule("name", async (d, c) => {
  const name = d.changes.name;
  if (!name || (!d.creating && name.toLowerCase() === d.current!.name.toLowerCase())) return null;
  return (await c.nameTaken(name, d.current?.id)) ? { messageKey: "errors.chat.nameTaken", params: { name }, conflict: true } : null;
});

// Presentation.
export const avatarIsImage = rule("avatar", (d) => {
  const icon = d.changes.icon;
  return icon && !(icon.length <= AVATAR_MAX_LENGTH && /^data:image\/(png|jpeg);base64,/.test(icon)) ? problem("errors.chat.avatarInvalid") : null;
});
export const descriptionFits = rule("description", (d) =>
  d.sets("description") && (d.changes.description ?? "").length > LONG_TEXT_MAX_LENGTH ? problem("errors.chat.descriptionTooLong") : null,
);
export const languageKnown = rule("language", (d) =>
  d.sets("language") && !KNOWLEDGE_BASE_LANGUAGES.includes(d.changes.language!) ? problem("errors.chat.languageInvalid") : null,
);

// Prompt.
export const systemPromptGiven = rule("systemPrompt", (d) =>
  d.changesPrompt("system") && String(d.prompt.system ?? "").trim() === "" ? problem("errors.chat.systemPromptRequired") : null,
);
export const variableKeysGiven = rule("promptVariables", (d) =>
  d.changesPrompt("parameters") && variablesOf(d.prompt).some((v) => v.key === "") ? problem("errors.chat.variableKeyRequired") : null,
);
/** A key is written `{key}` into the prompt: braces or spaces in it could never be matched. */
export const variableKeysPlain = rule("promptVariables", (d) => {
  const bad = d.changesPrompt("parameters") ? variablesOf(d.prompt).find((v) => /[{}\s]/.test(v.key)) : undefined;
  return bad ? problem("errors.chat.variableKeyInvalid", { key: bad.key }) : null;
});
export const variableKeysUnique = rule("promptVariables", (d) => {
  if (!d.changesPrompt("parameters")) return null;
  const keys = variablesOf(d.prompt).map((v) => v.key);
  const repeated = keys.find((key, i) => keys.indexOf(key) !== i);
  return repeated !== undefined ? problem("errors.chat.variableDuplicate", { key: repeated }) : null;
});
/** A non-optional variable the system prompt never mentions would be asked for and then ignored. */
export const variablesUsed = rule("promptVariables", (d) => {
  if (!d.changesPrompt("system") && !d.changesPrompt("parameters")) return null;
  const system = typeof d.prompt.system === "string" ? d.prompt.system : String(d.prompt.system ?? "");
  const unused = unusedVariable(system, variablesOf(d.prompt));
  return unused !== null ? problem("errors.chat.variableUnused", { key: unused, braced: `{${unused}}` }) : null;
});

// Knowledge bases.
/** Each usable by the principal and holding parsed chunks, and all embedding with one model (RAGFlow's order). */
export const knowledgeBasesUsable = rule("knowledgeBaseIds", async (d, c) => {
  if (!d.sets("kbIds")) return null;
  const found = await c.knowledgeBaseProblem(d.changes.kbIds as string[]);
  if (found?.kind === "unusable") return problem("errors.chat.knowledgeBaseUnusable", { id: found.id });
  if (found?.kind === "notParsed") return problem("errors.chat.knowledgeBaseNotParsed", { id: found.id, name: found.name });
  if (found?.kind === "embeddingMismatch") return problem("errors.chat.embeddingMismatch");
  return null;
});
/** A prompt that asks for {knowledge} needs somewhere to take it from. */
export const knowledgeBasesWhenNeeded = rule("knowledgeBaseIds", (d) => {
  if (!d.creating && !d.sets("kbIds") && !d.changesPrompt("parameters")) return null;
  const needsKnowledge = variablesOf(d.prompt).some((v) => v.key === KNOWLEDGE_VARIABLE && !v.optional);
  const ids = d.value("kbIds");
  return needsKnowledge && !(Array.isArray(ids) && ids.length > 0) ? problem("errors.chat.knowledgeBasesRequired") : null;
});

// Retrieval.
const columnInRange = (column: "topN" | "topK" | "similarityThreshold" | "vectorSimilarityWeight", range: readonly [number, number], integer = false) =>
  rule(column, (d) => (d.sets(column) && !isNumberIn(d.changes[column], range, integer) ? problem("errors.chat.between", { min: range[0], max: range[1] }) : null));
export const topNInRange = columnInRange("topN", TOP_N_RANGE, true);
export const topKInRange = columnInRange("topK", TOP_K_RANGE, true);
export const similarityThresholdInRange = columnInRange("similarityThreshold", [0, 1]);
export const vectorWeightInRange = columnInRange("vectorSimilarityWeight", [0, 1]);
/** The form names a rerank model by its exact id among the tenant's. */
export const rerankModelKnown = rule("rerankModel", async (d, c) => {
  const rerank = d.sets("rerankId") ? d.changes.rerankId! : "";
  return rerank && (await c.modelId(["rerank"], rerank)) !== rerank ? problem("errors.chat.modelUnavailable", { model: rerank }) : null;
});
/** RAGFlow's variant: one of its two allow-listed rerankers, or a rerank model of the tenant by id or bare name. */
export const rerankModelNamed = rule("rerankModel", async (d, c) => {
  const rerank = d.sets("rerankId") ? d.changes.rerankId! : "";
  if (!rerank || RAGFLOW_RERANK_ALLOW_LIST.includes(rerank)) return null;
  return (await c.modelId(["rerank"], rerank)) === null ? problem("errors.chat.modelUnavailable", { model: rerank }) : null;
});

// Model settings.
export const chatModelGiven = rule("chatModel", (d) => (d.sets("llmId") && d.changes.llmId === "" ? problem("errors.chat.modelRequired") : null));
/** The form names a chat model by its exact id among the tenant's. */
export const chatModelKnown = rule("chatModel", async (d, c) => {
  const model = d.sets("llmId") ? d.changes.llmId! : "";
  return model && (await c.modelId(c.chatModelTypes, model)) !== model ? problem("errors.chat.modelUnavailable", { model }) : null;
});
/** RAGFlow's variant: a model of the tenant by id or bare name (`glm-4`), stored as given. */
export const chatModelNamed = rule("chatModel", async (d, c) => {
  const model = d.sets("llmId") ? d.changes.llmId! : "";
  return model && (await c.modelId(c.chatModelTypes, model)) === null ? problem("errors.chat.modelUnavailable", { model }) : null;
});
export const freedomIsPreset = rule("freedom", (d) =>
  d.changesLlm("freedom") && d.llm.freedom !== undefined && !(FREEDOM_NAMES as readonly string[]).includes(d.llm.freedom as string)
    ? problem("errors.chat.freedomInvalid")
    : null,
);
const samplingInRange = (key: "temperature" | "top_p" | "presence_penalty" | "frequency_penalty", field: string) =>
  rule(field, (d) => (d.changesLlm(key) && !isNumberIn(d.llm[key], [0, 1]) ? problem("errors.chat.between", { min: 0, max: 1 }) : null));
export const temperatureInRange = samplingInRange("temperature", "temperature");
export const topPInRange = samplingInRange("top_p", "topP");
export const presencePenaltyInRange = samplingInRange("presence_penalty", "presencePenalty");
export const frequencyPenaltyInRange = samplingInRange("frequency_penalty", "frequencyPenalty");
export const maxTokensPositive = rule("maxTokens", (d) =>
  d.changesLlm("max_tokens") && !isNumberIn(d.llm.max_tokens, [1, Number.MAX_SAFE_INTEGER], true) ? problem("errors.chat.maxTokensInvalid") : null,
);

/** Every rule, in the settings form's order: the order its problems are listed in. */
export const ASSISTANT_RULES: readonly AssistantRule[] = [
  nameGiven,
  nameFits,
  avatarIsImage,
  descriptionFits,
  languageKnown,
  systemPromptGiven,
  variableKeysGiven,
  variableKeysPlain,
  variableKeysUnique,
  variablesUsed,
  knowledgeBasesUsable,
  knowledgeBasesWhenNeeded,
  topNInRange,
  topKInRange,
  similarityThresholdInRange,
  vectorWeightInRange,
  rerankModelKnown,
  chatModelGiven,
  chatModelKnown,
  freedomIsPreset,
  temperatureInRange,
  topPInRange,
  presencePenaltyInRange,
  frequencyPenaltyInRange,
  maxTokensPositive,
  // Last: a clash is worth a query only once the values are right, and it is then the one answer.
  nameFree,
];

/**
 * The rules RAGFlow's chat API keeps, in the order it checks them (API contract §6.3–6.4: the first
 * problem is the one it answers). What it deliberately relaxes, and why a RAGFlow client may rely on it:
 * - avatarIsImage: `avatar` is a free string (raw base64 is accepted).
 * - descriptionFits, languageKnown: stored as given.
 * - systemPromptGiven: an empty prompt becomes RAGFlow's default on create, and is stored as given on update.
 * - variableKeysGiven, variableKeysPlain, variableKeysUnique: variables are stored as given; only their use is checked.
 * - knowledgeBasesWhenNeeded: a chat may be created without datasets, and an update without `dataset_ids` clears them.
 * - topNInRange, topKInRange, similarityThresholdInRange, vectorWeightInRange: numbers are not range-checked.
 * - rerankModelKnown → rerankModelNamed: RAGFlow's two allow-listed rerankers, or a bare model name.
 * - chatModelGiven: no model means the tenant's default chat model at answer time.
 * - chatModelKnown → chatModelNamed: a bare model name (`glm-4`) is accepted and stored as given.
 * - freedomIsPreset, temperatureInRange, topPInRange, presencePenaltyInRange, frequencyPenaltyInRange,
 *   maxTokensPositive: the `llm` settings are stored verbatim.
 */
export const RAGFLOW_RULES: readonly AssistantRule[] = [
  knowledgeBasesUsable,
  chatModelNamed,
  rerankModelNamed,
  nameGiven,
  // Not a RAGFlow check: its column is as long, and a longer name fails there as an internal error.
  nameFits,
  nameFree,
  variablesUsed,
];

export function assistantRules(leniency?: AssistantLeniency): readonly AssistantRule[] {
  return leniency === "ragflow" ? RAGFLOW_RULES : ASSISTANT_RULES;
}

/** The problems of a draft, at most one per field, in the rules' order. */
export async function assistantProblems(draft: AssistantDraft, context: AssistantRuleContext, leniency?: AssistantLeniency): Promise<(FieldProblem & RuleProblem)[]> {
  const problems: (FieldProblem & RuleProblem)[] = [];
  for (const rule of assistantRules(leniency)) {
    if (problems.some((p) => p.field === rule.field)) continue;
    const found = await rule.check(draft, context);
    if (found) problems.push({ field: rule.field, ...found });
  }
  return problems;
}
