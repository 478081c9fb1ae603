import { logMessage, type LogMessage } from "../parse-log";
import { completeChat, type ChatMessage, type ChatModel, type GenerationOptions } from "../../models/model-types";

/** What chunk enrichment (keywords, questions, RAPTOR) may ask of the ingestion pipeline. */
export interface EnrichmentContext {
  /** The knowledge base's chat model and its id "name@Provider". */
  chat(): Promise<{ model: ChatModel; id: string }>;
  /** The knowledge base's embedding model, document purpose. */
  embed(texts: string[]): Promise<number[][]>;
  /** "English", "Chinese", … */
  language: string;
  signal: AbortSignal;
  progress(fraction: number, message?: LogMessage): void;
  /** The chat model's context window in tokens, when known; RAPTOR shares it among a cluster's chunks (default 8192). */
  contextTokens?: number;
}

/** How many model calls run at once: enough to hide latency, few enough not to hit a provider's rate limit. */
export const MODEL_CONCURRENCY = 4;

/** The built-in chat model is extractive: prompts asking it to write something get a canned explanation, not an answer. */
export function isBuiltinChat(id: string): boolean {
  return id.endsWith("@Builtin");
}

export function prefersChinese(language: string): boolean {
  return /^(?:chinese|zh)/i.test(language.trim());
}

/**
 * A model's answer without its reasoning and wrapping: `<think>…</think>` (reasoning models put it first;
 * an unterminated one means the answer was cut off inside the reasoning), Markdown fences, and the notice
 * RAGFlow's providers append to a truncated answer.
 */
export function cleanModelAnswer(text: string): string {
  let answer = text;
  const closed = answer.lastIndexOf("</think>");
  if (closed >= 0) answer = answer.slice(closed + "</think>".length);
  else if (/^\s*<think>/.test(answer)) answer = "";
  return answer
    .replace(/^\s*```[^\n]*$/gm, "")
    .replace(/(?:······\n由于长度的原因，回答被截断了，要继续吗？|For the content length reason, it stopped, continue\?)/g, "")
    .trim();
}

/** A call's answer, cleaned; a provider's in-band error ("**ERROR**: …", RAGFlow's convention) is thrown. */
export async function askModel(model: ChatModel, messages: ChatMessage[], options: GenerationOptions): Promise<string> {
  const { text } = await completeChat(model, messages, options);
  if (text.includes("**ERROR**")) throw new Error(text.trim().slice(0, 200));
  return cleanModelAnswer(text);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `work` on every item, at most `limit` at a time, results in input order. The signal is checked before
 * each item, so that a cancelled task stops after the calls already under way.
 */
export async function mapLimited<T, R>(items: T[], limit: number, signal: AbortSignal, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal.throwIfAborted();
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What a model is asked to make for each chunk. */
export type ChunkEnrichment = "keywords" | "questions";

/** One line for the progress log about the chunks whose model call failed, with the first one's reason. */
export function failureNote(what: ChunkEnrichment, failures: { index: number; reason: string }[], total: number): LogMessage[] {
  if (failures.length === 0) return [];
  const [first] = failures;
  return [logMessage(`parseLog.${what}Failed`, { failed: failures.length, chunks: total, chunk: first.index + 1, reason: first.reason })];
}

/**
 * Runs one model call per chunk text (an empty text is skipped), with bounded concurrency and progress;
 * a failed call leaves its chunk with nothing and is reported in `notes`, unless the task was cancelled.
 */
export async function eachChunkWithModel(
  texts: string[],
  context: EnrichmentContext,
  what: ChunkEnrichment,
  call: (text: string) => Promise<string[]>,
): Promise<{ results: string[][]; notes: LogMessage[] }> {
  const failures: { index: number; reason: string }[] = [];
  let done = 0;
  const results = await mapLimited(texts, MODEL_CONCURRENCY, context.signal, async (text, index) => {
    let result: string[] = [];
    if (text.trim() !== "") {
      try {
        result = await call(text);
      } catch (error) {
        if (context.signal.aborted) throw error;
        failures.push({ index, reason: errorMessage(error) });
      }
    }
    context.progress(++done / texts.length);
    return result;
  });
  failures.sort((a, b) => a.index - b.index);
  return { results, notes: failureNote(what, failures, texts.length) };
}

/** Items without duplicates (compared case- and space-insensitively), at most `count`. */
export function distinctItems(items: string[], count: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.toLowerCase().replace(/\s+/g, " ");
    if (item === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}
