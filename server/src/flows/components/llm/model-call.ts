import { completeChat, type ChatMessage, type ChatModel, type GenerationOptions, type TokenUsage } from "../../../models/model-types";
import { countTokens } from "../../../models/tokens";
import { DomainError } from "../../../platform/errors";
import type { ComponentContext, FlowMessage } from "../../component";

/**
 * What the model components (Generate, Categorize, Relevant, RewriteQuestion, KeywordExtract, Agent) share:
 * the model their `llm_id` names, its settings as RAGFlow sends them, the message window, the text they
 * read, and the tokens they spend.
 */

/** Param key, generation option, and the v0.14 form's switch for it (`temperatureEnabled: false` turns a setting off). */
const SETTINGS = [
  ["temperature", "temperature", "temperatureEnabled"],
  ["top_p", "topP", "topPEnabled"],
  ["presence_penalty", "presencePenalty", "presencePenaltyEnabled"],
  ["frequency_penalty", "frequencyPenalty", "frequencyPenaltyEnabled"],
  ["max_tokens", "maxTokens", "maxTokensEnabled"],
] as const;

/** RAGFlow's `gen_conf`: a setting is sent only when it is set and above 0. */
export function generationOptions(params: Record<string, unknown>, signal: AbortSignal): GenerationOptions {
  const options: GenerationOptions = { signal };
  for (const [key, option, enabled] of SETTINGS) {
    const value = params[key];
    if (typeof value === "number" && value > 0 && params[enabled] !== false) options[option] = value;
  }
  return options;
}

/** The chat model the params name (the tenant's default when none, or one it does not have). */
export function chatModelOf(context: ComponentContext): Promise<ChatModel> {
  const llmId = typeof context.params.llm_id === "string" ? context.params.llm_id : "";
  return context.ports.chatModel(llmId.trim() || null);
}

/**
 * The messages a component reads with a window of `size`: as RAGFlow's `get_history(size)`, the latest
 * message and the `size` before it (so that a window of 0 still holds the question).
 */
export function recentMessages(history: readonly FlowMessage[], size: unknown): FlowMessage[] {
  const n = typeof size === "number" && size > 0 ? Math.floor(size) : 0;
  return history.slice(-(n + 1));
}

/** What the component reads: its input variables when it has some (RAGFlow's `query`), else its default input. */
export function inputText(context: ComponentContext): string {
  return context.inputs.length > 0 ? context.inputs.map((input) => input.content).join("\n") : context.input;
}

/** Counts a call's tokens into the turn's budget: the model's own usage, or an estimate when it reports none. */
export function countCall(context: ComponentContext, messages: readonly ChatMessage[], answer: string, usage: TokenUsage | undefined): number {
  const prompt = usage?.promptTokens || messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const completion = usage?.completionTokens || countTokens(answer);
  context.countTokens(prompt + completion);
  return prompt + completion;
}

/** One whole answer of the model (not streamed), its tokens counted. */
export async function askModel(context: ComponentContext, model: ChatModel, messages: ChatMessage[], options: GenerationOptions): Promise<string> {
  const { text, usage } = await completeChat(model, messages, options);
  countCall(context, messages, text, usage);
  return text;
}

/** A component's own error: a message key under its texts, which the run tells in the runner's language. */
export function componentError(kind: "BAD_REQUEST" | "OUTSIDE_SERVICE", component: string, key: string, params: Record<string, unknown> = {}): DomainError {
  return new DomainError(kind, `flow.components.${component}.errors.${key}`, params);
}
