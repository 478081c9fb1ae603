import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { parseModelId, type ModelsService } from "../../models/models.service";
import { BUILTIN_PROVIDER } from "../../models/providers/registry";
import type { ChatMessage, ChatModel, TokenUsage } from "../../models/model-types";
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
 * It knows nothing of storage or transport: ConversationService, behind every surface, writes and
 * publishes what it reports. `generateAnswer` reads as the list of those steps.
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
  /**
   * Retrieval is over: the chunks the answer may cite. The model is asked while they are being written: a sink
   * keeps the model's text behind them.
   */
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

/** What each step did and took, for the debug prompt. */
class Trace {
  readonly notes: string[] = [];
  readonly timings: [string, number][] = [];
  readonly started = performance.now();

  async time<T>(step: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.timings.push([step, since(start)]);
    }
  }

  elapsed(): number {
    return since(this.started);
  }
}

/** The assistant's chat model, its context size, and the same model for the question steps. */
async function chatModelOf(services: AnswerServices, assistant: ChatAssistant, signal: AbortSignal) {
  const { chat: modelId, rerank: rerankModel } = await services.assistants.modelsOf(assistant);
  const { client: model, maxTokens } = await services.models.chatClient(assistant.tenantId, modelId);
  const questionModel: QuestionModel = { model, builtin: parseModelId(modelId)?.provider === BUILTIN_PROVIDER, signal };
  return { model, rerankModel, contextTokens: maxTokens ?? DEFAULT_CONTEXT_TOKENS, questionModel };
}

/** The retrieval query: the question refined from the conversation, translated, with keywords, as the assistant asks. */
async function retrievalQuery(q: QuestionModel, assistant: ChatAssistant, turns: Turn[], question: string, trace: Trace): Promise<string> {
  let query = question;
  if (assistant.multiTurnRefine) {
    const refined = await trace.time("Refine question", () => refineQuestion(q, turns));
    query = refined.question;
    if (refined.note) trace.notes.push(refined.note);
  }
  if (assistant.crossLanguages.length > 0) {
    const translated = await trace.time("Cross-language", () => translateQuestion(q, query, assistant.crossLanguages));
    query = translated.question;
    trace.notes.push(translated.note);
  }
  if (assistant.keywordExtraction) {
    const keywords = await trace.time("Keyword extraction", () => extractKeywords(q, query));
    if (keywords.length > 0) {
      query = `${query}, ${keywords.join(", ")}`;
      trace.notes.push(`Keywords${q.builtin ? " (built-in model: the question's key terms)" : ""}: ${keywords.join(", ")}`);
    }
  }
  return query;
}

interface Knowledge {
  /** The query retrieval ended with (self-RAG may rewrite it). */
  query: string;
  hits: RetrievalHit[];
  retrieval: Pick<RetrievalResult, "total">;
}

/** Retrieval with the assistant's settings, judged and retried once (self-RAG), cut to what the context holds. */
async function retrieveKnowledge(
  services: AnswerServices,
  input: AnswerInput,
  models: { questionModel: QuestionModel; rerankModel: string | null; contextTokens: number },
  query: string,
  trace: Trace,
): Promise<Knowledge> {
  const { assistant } = input;
  const q = models.questionModel;
  const documentIds = await services.assistants.documentScope(assistant, input.knowledgeBases, input.documentIds);
  const retrieve = async (text: string) =>
    services.retrieval.search(input.knowledgeBases, {
      question: text,
      knowledgeBaseIds: input.knowledgeBases.map((kb) => kb.id),
      documentIds,
      similarityThreshold: assistant.similarityThreshold,
      vectorSimilarityWeight: assistant.vectorSimilarityWeight,
      topK: assistant.topK,
      rerankModel: models.rerankModel,
      page: 1,
      pageSize: Math.max(1, assistant.topN),
    });
  let result = await trace.time("Retrieval", async () => (documentIds && documentIds.length === 0 ? null : retrieve(query)));
  if (assistant.selfRag && result) {
    const judged = result;
    result = await trace.time("Self-RAG", async () => {
      if (await judgeRelevance(q, query, judged.hits)) {
        trace.notes.push("Self-RAG: the hits were judged relevant.");
        return judged;
      }
      const rewritten = await rewriteQuestion(q, query);
      trace.notes.push(`Self-RAG: the hits were judged not relevant; retrieved again with: ${rewritten}`);
      query = rewritten;
      return retrieve(rewritten);
    });
  }
  if (!result) return { query, hits: [], retrieval: { total: 0 } };
  const { contextTokens } = models;
  const historyTokens = input.turns.reduce((sum, t) => sum + countTokens(t.content), 0);
  const budget = Math.max(512, Math.floor(contextTokens * 0.97) - countTokens(assistant.systemPrompt) - Math.min(historyTokens, contextTokens * HISTORY_SHARE) - Math.min(assistant.maxTokens, contextTokens / 4));
  return { query, hits: knowledgeChunks(result.hits, budget), retrieval: result };
}

interface Generated {
  raw: string;
  usage: TokenUsage | undefined;
  firstTokenMs: number | null;
  stopped: boolean;
}

/** The chat model's answer, streamed to the sink until it ends or the signal fires. */
async function streamModelAnswer(model: ChatModel, messages: ChatMessage[], assistant: ChatAssistant, signal: AbortSignal, sink: AnswerSink, trace: Trace): Promise<Generated> {
  const generated: Generated = { raw: "", usage: undefined, firstTokenMs: null, stopped: false };
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
        generated.stopped = true;
        break;
      }
      if (event.type === "delta" && event.text) {
        generated.firstTokenMs ??= trace.elapsed();
        generated.raw += event.text;
        sink.delta(event.text);
      } else if (event.type === "usage") generated.usage = event.usage;
    }
  } catch (error) {
    if (!isAbort(error, signal)) throw error;
    generated.stopped = true;
  }
  return generated;
}

/** Nothing was retrieved and the assistant has an empty response: that is the answer, without a model call. */
function emptyResponseOutcome(assistant: ChatAssistant, question: string, query: string, trace: Trace, sink: AnswerSink): AnswerOutcome {
  sink.delta(assistant.emptyResponse);
  return {
    content: assistant.emptyResponse,
    reference: referenceOf([], { total: 0 }),
    prompt: debugPrompt("", question, query, trace.notes, [...trace.timings, ["Total", trace.elapsed()]], null),
    promptTokens: 0,
    completionTokens: 0,
    firstTokenMs: trace.elapsed(),
    durationMs: trace.elapsed(),
    emptyResponse: true,
    stopped: false,
  };
}

export async function generateAnswer(services: AnswerServices, input: AnswerInput, sink: AnswerSink): Promise<AnswerOutcome> {
  const trace = new Trace();
  const { assistant, signal } = input;
  const quote = input.quote ?? assistant.showQuote;
  const values = variableValues(assistant.promptVariables, input.variables);
  const models = await chatModelOf(services, assistant, signal);
  const question = input.turns.at(-1)?.content ?? "";
  const withKnowledge = input.knowledgeBases.length > 0;

  let knowledge: Knowledge = { query: question, hits: [], retrieval: { total: 0 } };
  let referenced: Promise<void> = Promise.resolve();
  if (withKnowledge) {
    const query = await retrievalQuery(models.questionModel, assistant, input.turns, question, trace);
    knowledge = await retrieveKnowledge(services, input, models, query, trace);
    // Written while the model is asked (a round trip off the first token); awaited before the answer ends.
    referenced = Promise.resolve(sink.reference(referenceOf(knowledge.hits, knowledge.retrieval)));
    referenced.catch(() => undefined);
    if (knowledge.hits.length === 0 && assistant.emptyResponse) {
      await referenced;
      return emptyResponseOutcome(assistant, question, knowledge.query, trace, sink);
    }
  }

  const system = systemPrompt({ template: assistant.systemPrompt, values, knowledge: withKnowledge ? formatKnowledge(knowledge.hits) : null, quote });
  const messages: ChatMessage[] = [{ role: "system", content: system }, ...historyFor(input.turns, Math.floor(models.contextTokens * HISTORY_SHARE))];
  const generated = await trace.time("Generate answer", () => streamModelAnswer(models.model, messages, assistant, signal, sink, trace));
  await referenced;
  trace.timings.push(["Total", trace.elapsed()]);
  const content = withKnowledge ? finalAnswer(generated.raw, knowledge.hits, quote) : generated.raw;
  const promptTokens = generated.usage?.promptTokens || messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const completionTokens = generated.usage?.completionTokens || countTokens(generated.raw);
  return {
    content,
    reference: withKnowledge ? referenceOf(knowledge.hits, knowledge.retrieval, content) : null,
    prompt: withKnowledge ? debugPrompt(system, question, knowledge.query, trace.notes, trace.timings, { promptTokens, completionTokens }) : "",
    promptTokens,
    completionTokens,
    firstTokenMs: generated.firstTokenMs,
    durationMs: trace.elapsed(),
    emptyResponse: false,
    stopped: generated.stopped,
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
