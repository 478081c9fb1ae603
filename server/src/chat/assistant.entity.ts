import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import { crossLanguagesOf } from "../retrieval/cross-languages";
import { DEFAULT_LLM_SETTING, DEFAULT_SWITCHES, freedomOf, type LlmSetting, type PromptVariable } from "./prompt-defaults";

/**
 * RAGFlow's `prompt_config`, kept under its own key names because the REST facade (§6) stores and
 * returns it verbatim; a REST client may add keys of its own, which are kept.
 */
export interface PromptConfig {
  system?: string;
  prologue?: string;
  parameters?: PromptVariable[];
  empty_response?: string;
  quote?: boolean;
  tts?: boolean;
  refine_multiturn?: boolean;
  keyword?: boolean;
  self_rag?: boolean;
  /** Languages the question is translated into for retrieval (needs a language model). */
  cross_languages?: string[];
  [key: string]: unknown;
}

/** RAGFlow's `llm_setting`, plus the settings form's freedom preset name. */
export type StoredLlmSetting = Partial<LlmSetting> & { freedom?: string; [key: string]: unknown };

/** A REST client may have stored anything (RAGFlow does not range-check); GraphQL needs numbers. */
function numberOr(value: unknown, fallback: number): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : fallback;
}

const text = (value: unknown): string => (typeof value === "string" ? value : value == null ? "" : String(value));

function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string") return !["", "0", "false"].includes(value.toLowerCase());
  return Boolean(value);
}

@ObjectType("PromptVariable")
export class PromptVariableType {
  @Field()
  key: string;

  @Field()
  optional: boolean;
}

/**
 * A chat assistant (RAGFlow's "dialog"): knowledge bases, prompt engine and model settings. Columns keep
 * RAGFlow's internal names where the REST facade returns them verbatim; the GraphQL `Assistant` type
 * reads the prompt and model settings through the getters below. Deleting sets `status` to '0'.
 */
@ObjectType("Assistant")
@Entity("chat_assistant")
export class ChatAssistant {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Field({ description: "The user who created it." })
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @Column({ type: "varchar", length: 255 })
  name: string;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  description: string | null;

  @Field(() => String, { name: "avatar", nullable: true, description: "A data URL, or any string a REST client stored." })
  @Column({ type: "text", nullable: true })
  icon: string | null;

  @Field()
  @Column({ type: "varchar", length: 32 })
  language: string;

  @Field(() => [ID], { name: "knowledgeBaseIds" })
  @Column({ type: "jsonb", default: () => "'[]'" })
  kbIds: string[];

  /** name@Provider of the chat model; "" = the tenant's default chat model. */
  @Column({ type: "varchar", length: 330, default: "" })
  llmId: string;

  @Column({ type: "jsonb", default: () => "'{}'" })
  llmSetting: StoredLlmSetting;

  @Column({ type: "jsonb", default: () => "'{}'" })
  promptConfig: PromptConfig;

  @Field(() => Float)
  @Column({ type: "real" })
  similarityThreshold: number;

  @Field(() => Float, { description: "Weight of vector similarity; keyword similarity weighs 1 − this." })
  @Column({ type: "real" })
  vectorSimilarityWeight: number;

  @Field(() => Int, { description: "How many chunks the answer is given." })
  @Column({ type: "integer" })
  topN: number;

  @Field(() => Int, { description: "How many vector candidates retrieval considers." })
  @Column({ type: "integer" })
  topK: number;

  /** name@Provider of the rerank model, "" for none. */
  @Column({ type: "varchar", length: 330, default: "" })
  rerankId: string;

  /** RAGFlow's "show quotation" flag, '1' or '0'. */
  @Column({ type: "varchar", length: 1, default: "1" })
  doRefer: string;

  @Column({ type: "jsonb", default: () => "'{}'" })
  metaDataFilter: Record<string, unknown>;

  /** '1' live, '0' deleted. */
  @Column({ type: "varchar", length: 1, default: "1" })
  status: string;

  /** The recycle-bin entry that holds this row (bin/), or null while it is live. */
  @Column({ type: "varchar", length: 32, nullable: true })
  binnedIn: string | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;

  @Field({ description: "What the assistant says when nothing relevant is retrieved (empty: answer anyway)." })
  get emptyResponse(): string {
    return text(this.promptConfig?.empty_response);
  }

  @Field({ description: "The greeting that opens a new conversation." })
  get opener(): string {
    return text(this.promptConfig?.prologue);
  }

  @Field()
  get systemPrompt(): string {
    return text(this.promptConfig?.system);
  }

  @Field(() => [PromptVariableType])
  get promptVariables(): PromptVariableType[] {
    const parameters = Array.isArray(this.promptConfig?.parameters) ? this.promptConfig.parameters : [];
    return parameters
      .filter((p): p is PromptVariable => typeof p === "object" && p !== null && typeof (p as PromptVariable).key === "string")
      .map((p) => ({ key: p.key, optional: Boolean(p.optional) }));
  }

  @Field(() => String, { nullable: true, description: "name@Provider of the rerank model, or none." })
  get rerankModel(): string | null {
    return this.rerankId || null;
  }

  @Field({ description: "name@Provider of the chat model." })
  get chatModel(): string {
    return this.llmId;
  }

  @Field({ description: "improvise, precise, balance or custom." })
  get freedom(): string {
    const stored = this.llmSetting?.freedom;
    return typeof stored === "string" && stored ? stored : freedomOf(this.llmSetting ?? {});
  }

  @Field(() => Float)
  get temperature(): number {
    return numberOr(this.llmSetting?.temperature, DEFAULT_LLM_SETTING.temperature);
  }

  @Field(() => Float)
  get topP(): number {
    return numberOr(this.llmSetting?.top_p, DEFAULT_LLM_SETTING.top_p);
  }

  @Field(() => Float)
  get presencePenalty(): number {
    return numberOr(this.llmSetting?.presence_penalty, DEFAULT_LLM_SETTING.presence_penalty);
  }

  @Field(() => Float)
  get frequencyPenalty(): number {
    return numberOr(this.llmSetting?.frequency_penalty, DEFAULT_LLM_SETTING.frequency_penalty);
  }

  @Field(() => Int)
  get maxTokens(): number {
    return Math.max(1, Math.round(numberOr(this.llmSetting?.max_tokens, DEFAULT_LLM_SETTING.max_tokens)));
  }

  @Field({ description: "Citations in the answer and a reference list under it." })
  get showQuote(): boolean {
    return flag(this.promptConfig?.quote, DEFAULT_SWITCHES.quote);
  }

  @Field()
  get selfRag(): boolean {
    return flag(this.promptConfig?.self_rag, DEFAULT_SWITCHES.self_rag);
  }

  @Field()
  get multiTurnRefine(): boolean {
    return flag(this.promptConfig?.refine_multiturn, DEFAULT_SWITCHES.refine_multiturn);
  }

  @Field()
  get keywordExtraction(): boolean {
    return flag(this.promptConfig?.keyword, DEFAULT_SWITCHES.keyword);
  }

  @Field(() => [String], { description: "Languages the question is also searched in, translated by the chat model (RAGFlow's cross_languages); the built-in model cannot translate." })
  get crossLanguages(): string[] {
    return crossLanguagesOf(this.promptConfig?.cross_languages);
  }

  @Field()
  get tts(): boolean {
    return flag(this.promptConfig?.tts, DEFAULT_SWITCHES.tts);
  }
}
