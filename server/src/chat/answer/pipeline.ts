import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { parseModelId, type ModelsService } from "../../models/models.service";
import { BUILTIN_PROVIDER } from "../../models/providers/registry";
import type { ChatMessage, TokenUsage } from "../../models/model-types";
import { countTokens } from "../../models/tokens";
import type { RetrievalHit, RetrievalResult, RetrievalService } from "../../retrieval/retrieval.service";
import type { ChatAssistant } from "../assistant.entity";
import type { AssistantService } from "../assistant.service";
import type { MessageReference } from "../message.entity";
import { finalAnswer, referenceOf } from "./citations";
import { formatKnowledge, knowledgeChunks, systemPrompt, variableValues } from "./prompt";
import { translateQuestion } from "../../retrieval/cross-languages";
import { extractKeywords, judgeRelevance, refineQuestion, rewriteQuestion, type QuestionModel } from "./question";

/**
 * One answer, from the question to the last token (RAGFlow's `chat()`): refine the question from the
 * conversation, add keywords, retrieve with the assistant's settings, judge the hits and retry once
 * (self-RAG), answer with the empty response when nothing is found (no model call), else fill the system
 * prompt and stream the chat model's answer; citations repaired or added, usage and timings noted.
 * It knows nothing of storage or transport: ConversationService writes and publishes what it reports,
 * the OpenAI-compatible endpoint streams it directly.
 */

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

export interface AnswerInput {
  assistant: ChatAssistant;
  /** The assistant's live knowledge bases; none: plain chat with the system prompt. */
  knowledgeBases: KnowledgeBase[];
  /** The conversation: earlier questions and finished answers, the question last. */
  turns: Turn[];
  variables: Record<string, unknown>;
  /** Retrieval only within these documents (a request's doc_ids, or a metadata condition's matches). */
  documentIds?: string[];
  /** Citations; default: the assistant's "show quote". */
  quote?: boolean;
  signal: AbortSignal;
}

export interface AnswerSink {
  /** Retrieval is over: the chunks the answer may cite. */
  reference(reference: MessageReference): Promise<void> | void;
  /** Text as the model writes it. */
  delta(text: string): void;
}

export interface AnswerOutcome {
  /** The answer as stored: citations repaired (or added). The deltas concatenated are the raw text. */
  content: string;
  reference: MessageReference | null;
  prompt: string;
  promptTokens: number;
  completionTokens: number;
  firstTokenMs: number | null;
  durationMs: number;
  /** Nothing was retrieved and the empty response was given without a model call. */
  emptyResponse: boolean;
  /** The signal fired: the content is what was written until then. */
  stopped: boolean;
}

export interface AnswerServices {
  models: ModelsService;
  retrieval: RetrievalService;
  /** Resolves the assistant's stored model names (RAGFlow clients store bare names). */
  assistants: Pick<AssistantService, "modelsOf" | "documentScope">;
}

/** Context size assumed for a chat model whose entry names none. */
const DEFAULT_CONTEXT_TOKENS = 8192;
/** Share of the context the conversation's earlier turns may take. */
const HISTORY_SHARE = 0.4;

const since = (start: number) => performance.now() - start;
const ms = (n: number) => `${n.toFixed(1)}ms`;

export function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"));
}

/** The earlier turns the model is shown: answers without the opener, the latest ones that fit. */
function historyFor(turns: Turn[], budget: number): Turn[] {
  const withoutOpener = turns.slice(turns.findIndex((t) => t.role === "user"));
  const kept: Turn[] = [];
  let used = 0;
  for (let i = withoutOpener.length - 1; i >= 0; i--) {
    const tokens = countTokens(withoutOpener[i].content);
    if (kept.length > 0 && used + tokens > budget) break;
    kept.unshift({ role: withoutOpener[i].role, content: withoutOpener[i].content.replace(/\s*\[ID:\d+\]/g, "") });
    used += tokens;
  }
  while (kept.length > 1 && kept[0].role !== "user") kept.shift();
  return kept;
}

export async function generateAnswer(services: AnswerServices, input: AnswerInput, sink: AnswerSink): Promise<AnswerOutcome> {
  const started = performance.now();
  const { assistant, signal } = input;
  const tenantId = assistant.tenantId;
  const quote = input.quote ?? assistant.showQuote;
  const values = variableValues(assistant.promptVariables, input.variables);
  const notes: string[] = [];
  const timings: [string, number][] = [];

  const { chat: modelId, rerank: rerankModel } = await services.assistants.modelsOf(assistant);
  const model = await services.models.client(tenantId, "chat", modelId);
  const available = (await services.models.availableModels(tenantId, "chat")).find((m) => m.id === modelId);
  const contextTokens = available?.maxTokens ?? DEFAULT_CONTEXT_TOKENS;
  const q: QuestionModel = { model, builtin: parseModelId(modelId)?.provider === BUILTIN_PROVIDER, signal };
  const question = input.turns.at(-1)?.content ?? "";

  let hits: RetrievalHit[] = [];
  let retrieval: Pick<RetrievalResult, "total"> = { total: 0 };
  let knowledge: string | null = null;
  let query = question;
  if (input.knowledgeBases.length > 0) {
    let step = performance.now();
    if (assistant.multiTurnRefine) {
      const refined = await refineQuestion(q, input.turns);
      query = refined.question;
      if (refined.note) notes.push(refined.note);
      timings.push(["Refine question", since(step)]);
    }
    if (assistant.crossLanguages.length > 0) {
      step = performance.now();
      const translated = await translateQuestion(q, query, assistant.crossLanguages);
      query = translated.question;
      notes.push(translated.note);
      timings.push(["Cross-language", since(step)]);
    }
    if (assistant.keywordExtraction) {
      step = performance.now();
      const keywords = await extractKeywords(q, query);
      if (keywords.length > 0) {
        query = `${query}, ${keywords.join(", ")}`;
        notes.push(`Keywords${q.builtin ? " (built-in model: the question's key terms)" : ""}: ${keywords.join(", ")}`);
      }
      timings.push(["Keyword extraction", since(step)]);
    }
    const documentIds = await services.assistants.documentScope(assistant, input.knowledgeBases, input.documentIds);
    const retrieve = async (text: string) =>
      services.retrieval.search(input.knowledgeBases, {
        question: text,
        knowledgeBaseIds: input.knowledgeBases.map((kb) => kb.id),
        documentIds,
        similarityThreshold: assistant.similarityThreshold,
        vectorSimilarityWeight: assistant.vectorSimilarityWeight,
        topK: assistant.topK,
        rerankModel,
        page: 1,
        pageSize: Math.max(1, assistant.topN),
      });
    step = performance.now();
    let result = documentIds && documentIds.length === 0 ? null : await retrieve(query);
    timings.push(["Retrieval", since(step)]);
    if (assistant.selfRag && result) {
      step = performance.now();
      const relevant = await judgeRelevance(q, query, result.hits);
      if (!relevant) {
        const rewritten = await rewriteQuestion(q, query);
        notes.push(`Self-RAG: the hits were judged not relevant; retrieved again with: ${rewritten}`);
        query = rewritten;
        result = await retrieve(rewritten);
      } else notes.push("Self-RAG: the hits were judged relevant.");
      timings.push(["Self-RAG", since(step)]);
    }
    if (result) {
      retrieval = result;
      const historyTokens = input.turns.reduce((sum, t) => sum + countTokens(t.content), 0);
      const budget = Math.max(512, Math.floor(contextTokens * 0.97) - countTokens(assistant.systemPrompt) - Math.min(historyTokens, contextTokens * HISTORY_SHARE) - Math.min(assistant.maxTokens, contextTokens / 4));
      hits = knowledgeChunks(result.hits, budget);
    }
    knowledge = formatKnowledge(hits);
    await sink.reference(referenceOf(hits, retrieval));

    if (hits.length === 0 && assistant.emptyResponse) {
      sink.delta(assistant.emptyResponse);
      return {
        content: assistant.emptyResponse,
        reference: referenceOf([], { total: 0 }),
        prompt: debugPrompt("", question, query, notes, [...timings, ["Total", since(started)]], null),
        promptTokens: 0,
        completionTokens: 0,
        firstTokenMs: since(started),
        durationMs: since(started),
        emptyResponse: true,
        stopped: false,
      };
    }
  }

  const system = systemPrompt({ template: assistant.systemPrompt, values, knowledge, quote });
  const history = historyFor(input.turns, Math.floor(contextTokens * HISTORY_SHARE));
  const messages: ChatMessage[] = [{ role: "system", content: system }, ...history];
  let raw = "";
  let usage: TokenUsage | undefined;
  let firstTokenMs: number | null = null;
  let stopped = false;
  const generationStarted = performance.now();
  try {
    for await (const event of model.stream(messages, {
      temperature: assistant.temperature,
      topP: assistant.topP,
      presencePenalty: assistant.presencePenalty,
      frequencyPenalty: assistant.frequencyPenalty,
      maxTokens: assistant.maxTokens,
      signal,
    })) {
      if (signal.aborted) {
        stopped = true;
        break;
      }
      if (event.type === "delta" && event.text) {
        firstTokenMs ??= since(started);
        raw += event.text;
        sink.delta(event.text);
      } else if (event.type === "usage") usage = event.usage;
    }
  } catch (error) {
    if (!isAbort(error, signal)) throw error;
    stopped = true;
  }
  timings.push(["Generate answer", since(generationStarted)], ["Total", since(started)]);
  const content = input.knowledgeBases.length > 0 ? finalAnswer(raw, hits, quote) : raw;
  const promptTokens = usage?.promptTokens || messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const completionTokens = usage?.completionTokens || countTokens(raw);
  return {
    content,
    reference: input.knowledgeBases.length > 0 ? referenceOf(hits, retrieval, content) : null,
    prompt: input.knowledgeBases.length > 0 ? debugPrompt(system, question, query, notes, timings, { promptTokens, completionTokens }) : "",
    promptTokens,
    completionTokens,
    firstTokenMs,
    durationMs: since(started),
    emptyResponse: false,
    stopped,
  };
}

/** RAGFlow's debug `prompt` (§8.2): the system prompt, the query, what each step did and took, token usage. */
function debugPrompt(
  system: string,
  question: string,
  query: string,
  notes: string[],
  timings: [string, number][],
  usage: { promptTokens: number; completionTokens: number } | null,
): string {
  const parts = [system.trim(), `### Query:\n${question}`];
  if (query !== question) parts.push(`### Retrieval query:\n${query}`);
  if (notes.length > 0) parts.push(notes.map((n) => `- ${n}`).join("\n"));
  parts.push(`### Elapsed:\n${timings.map(([name, value]) => `  - ${name}: ${ms(value)}`).join("\n")}`);
  if (usage) parts.push(`### Token usage:\n  - Prompt: ${usage.promptTokens}\n  - Completion: ${usage.completionTokens}`);
  return parts.filter((p) => p !== "").join("\n\n");
}
