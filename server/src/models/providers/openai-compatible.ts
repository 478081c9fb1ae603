/**
 * The OpenAI wire protocol (chat/completions, embeddings, audio/transcriptions, audio/speech) and the
 * `/rerank` endpoint that Jina, vLLM, Xinference, LocalAI and SiliconFlow share. Most vendors speak it;
 * their modules only say where they live, how they authenticate and which models they offer.
 */
import type { OutboundPolicy } from "../../platform/outbound";
import type { ParamSpec } from "../../platform/param-spec";
import { callProvider, callProviderJson, joinUrl, ModelCallError, notJson, serverSentEvents, speechOf, type ModelFailure } from "../http";
import { TOOLS_AND_JSON, ToolCallAssembler, withJsonInstruction } from "../chat-tools";
import type {
  AudioInput,
  ChatCapabilities,
  ChatEvent,
  ChatMessage,
  ChatModel,
  EmbeddingModel,
  EmbeddingResult,
  GenerationOptions,
  ModelClients,
  ModelType,
  RerankModel,
  RerankResult,
  Sequence2TxtModel,
  SpeechResult,
  TextResult,
  TokenUsage,
  ToolChoice,
  TtsModel,
} from "../model-types";
import { credential, unsupportedType, type CatalogueModel, type ModelSpec, type ProviderDefinition } from "../provider";
import { describeWithChat, languageCode, pickClient } from "./shared";

export type OpenAiOperation = "chat/completions" | "embeddings" | "rerank" | "audio/transcriptions" | "audio/speech";

/** Where and how to reach one model. */
export interface OpenAiEndpoint {
  provider: string;
  url(operation: OpenAiOperation): string;
  headers: Record<string, string>;
  /** The model named in request bodies: the model name, or a vendor's stand-in for it (VolcEngine's endpoint id). */
  model: string;
  timeoutMs?: number;
  /** Where requests may go: the entry's ModelSpec.outbound. */
  outbound?: OutboundPolicy;
}

/** A vendor's departures from the protocol. */
export interface OpenAiQuirks {
  /** What the vendor's chat models can do beyond text; tools and JSON answers unless it says otherwise. */
  chatCapabilities?: ChatCapabilities;
  /** The vendor's JSON mode is json_object only: a schema is given to the model in a system message instead. */
  jsonObjectOnly?: boolean;
  /** Adjusts a chat body before it is sent: renamed or refused parameters. */
  chatBody?(body: Record<string, unknown>, model: string): Record<string, unknown>;
  /** Adjusts an embedding body, e.g. to say whether the texts are queries or documents. */
  embeddingBody?(body: Record<string, unknown>, model: string, purpose: "query" | "document" | undefined): Record<string, unknown>;
  /** The most texts one embedding request may carry. */
  embeddingBatchSize?: number;
  rerankBody?(body: Record<string, unknown>): Record<string, unknown>;
  /** The voice when the caller names none; without one the field is left out and the server picks. */
  defaultVoice?(model: string): string | undefined;
  /** The vendor sends speech as application/octet-stream rather than audio/*: it is the MP3 Cairn asked for. */
  speechAsOctetStream?: boolean;
}

/** An endpoint at `baseUrl` with a bearer key; an empty key (local servers) sends no Authorization header. */
export function bearerEndpoint(provider: string, baseUrl: string, apiKey: string | undefined, model: string): OpenAiEndpoint {
  return {
    provider,
    url: (operation) => joinUrl(baseUrl, operation),
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    model,
  };
}

/**
 * Local servers (LM Studio, vLLM, LocalAI, Xinference) serve the protocol under /v1, and people often
 * give only host and port: a base URL without a path gets /v1.
 */
export function withV1Path(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.pathname === "/" || url.pathname === "" ? joinUrl(baseUrl, "v1") : baseUrl;
}

interface OpenAiUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
}

export function openAiUsage(usage: OpenAiUsage | undefined | null): TokenUsage | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const promptTokens = usage.prompt_tokens ?? usage.input_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? usage.output_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage.total_tokens ?? promptTokens + completionTokens };
}

function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a) return b;
  if (!b) return a;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}

function finishReason(reason: string): Extract<ChatEvent, { type: "finish" }>["reason"] {
  // Older releases of Text Generation Inference say "eos_token" and "stop_sequence".
  if (reason === "stop" || reason === "eos" || reason === "end_turn" || reason === "eos_token" || reason === "stop_sequence") return "stop";
  if (reason === "length" || reason === "max_tokens") return "length";
  // Zhipu says "sensitive" where OpenAI says "content_filter".
  if (reason === "content_filter" || reason === "sensitive") return "content_filter";
  // "function_call" is what servers that still speak the older functions API say.
  if (reason === "tool_calls" || reason === "function_call") return "tool-calls";
  return "other";
}

function openAiMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  if (message.toolCalls?.length) {
    return {
      role: "assistant",
      // OpenAI wants null, not "", beside tool calls that came without text.
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
    };
  }
  if (!message.images?.length) return { role: message.role, content: message.content };
  return {
    role: message.role,
    content: [
      ...(message.content ? [{ type: "text", text: message.content }] : []),
      ...message.images.map((image) => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data.toString("base64")}` } })),
    ],
  };
}

/** Sampling options in the protocol's names; only what the caller set is sent. */
function generationFields(options: GenerationOptions): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    temperature: options.temperature,
    top_p: options.topP,
    presence_penalty: options.presencePenalty,
    frequency_penalty: options.frequencyPenalty,
    max_tokens: options.maxTokens,
    stop: options.stop?.length ? options.stop : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function openAiToolChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.tool } };
}

/** Tools, the tool choice and the response format in the protocol's names; only what the caller set is sent. */
function toolFields(options: GenerationOptions, jsonObjectOnly: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (options.tools?.length) {
    fields.tools = options.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters },
    }));
    if (options.toolChoice) fields.tool_choice = openAiToolChoice(options.toolChoice);
  }
  const format = options.responseFormat;
  if (format?.type === "json") {
    fields.response_format =
      format.schema && !jsonObjectOnly
        ? { type: "json_schema", json_schema: { name: format.name ?? "response", ...(format.description ? { description: format.description } : {}), schema: format.schema } }
        : { type: "json_object" };
  }
  return fields;
}

/** An error a vendor reports inside a stream that had started well (OpenRouter, vLLM). */
function streamedError(provider: string, error: unknown): ModelCallError {
  const record = (typeof error === "object" && error !== null ? error : { message: String(error) }) as { message?: string; code?: unknown; type?: string };
  const code = Number(record.code);
  const reason: ModelFailure = code === 401 || code === 403 ? "auth" : code === 429 ? "quota" : code === 404 ? "notFound" : code >= 400 && code < 500 ? "badRequest" : "unavailable";
  return new ModelCallError(reason, provider, typeof record.message === "string" ? record.message : "the stream reported an error");
}

function parseJson<T>(provider: string, data: string): T {
  try {
    return JSON.parse(data) as T;
  } catch {
    throw notJson(provider);
  }
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      // `index` keys the fragments of one call; id and name come with its first fragment only.
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
    // Moonshot reports a stream's usage inside its last choice.
    usage?: OpenAiUsage;
  }[];
  usage?: OpenAiUsage | null;
  // Groq's place for the usage of a stream.
  x_groq?: { usage?: OpenAiUsage };
  error?: unknown;
}

/**
 * Streamed chat completions. Reasoning that a model streams apart from its answer (DeepSeek's
 * `reasoning_content`, OpenRouter's `reasoning`) is passed on between <think> and </think>, as RAGFlow
 * does, so that the chat page can fold it away. Tool calls stream as fragments of their argument text,
 * keyed by index, and are passed on whole once the choice finishes.
 */
export class OpenAiChatModel implements ChatModel {
  readonly capabilities: ChatCapabilities;

  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly quirks: OpenAiQuirks = {},
  ) {
    this.capabilities = quirks.chatCapabilities ?? TOOLS_AND_JSON;
  }

  async *stream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { endpoint, quirks } = this;
    const format = options.responseFormat;
    const sent = format?.type === "json" && quirks.jsonObjectOnly ? withJsonInstruction(messages, format) : messages;
    const body = {
      model: endpoint.model,
      messages: sent.map(openAiMessage),
      stream: true,
      // Without this the stream carries no token counts.
      stream_options: { include_usage: true },
      ...generationFields(options),
      ...toolFields(options, quirks.jsonObjectOnly ?? false),
    };
    const response = await callProvider({
      provider: endpoint.provider,
      url: endpoint.url("chat/completions"),
      outbound: endpoint.outbound,
      headers: endpoint.headers,
      body: quirks.chatBody?.(body, endpoint.model) ?? body,
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    let reason: Extract<ChatEvent, { type: "finish" }>["reason"] | undefined;
    let usage: TokenUsage | undefined;
    let thinking = false;
    const toolCalls = new ToolCallAssembler(endpoint.provider);
    for await (const event of serverSentEvents(response)) {
      if (event.data === "[DONE]") break;
      const chunk = parseJson<ChatChunk>(endpoint.provider, event.data);
      if (chunk.error) throw streamedError(endpoint.provider, chunk.error);
      const choice = chunk.choices?.[0];
      const reasoning = choice?.delta?.reasoning_content ?? choice?.delta?.reasoning;
      if (reasoning) {
        if (!thinking) yield { type: "delta", text: "<think>" };
        thinking = true;
        yield { type: "delta", text: reasoning };
      }
      const content = choice?.delta?.content;
      if (content) {
        if (thinking) yield { type: "delta", text: "</think>" };
        thinking = false;
        yield { type: "delta", text: content };
      }
      for (const [position, call] of (choice?.delta?.tool_calls ?? []).entries()) {
        yield* toolCalls.add(call.index ?? position, { id: call.id, name: call.function?.name, arguments: call.function?.arguments });
      }
      if (choice?.finish_reason) {
        reason = finishReason(choice.finish_reason);
        yield* toolCalls.finish();
      }
      usage = openAiUsage(chunk.usage ?? choice?.usage ?? chunk.x_groq?.usage) ?? usage;
    }
    if (thinking) yield { type: "delta", text: "</think>" };
    yield* toolCalls.finish();
    // Some servers end a turn of tool calls with "stop", or with no reason at all.
    if (toolCalls.called && (reason === undefined || reason === "stop")) reason = "tool-calls";
    if (usage) yield { type: "usage", usage };
    yield { type: "finish", reason: reason ?? "other" };
  }
}

interface EmbeddingAnswer {
  data?: { index?: number; embedding: number[] }[];
  usage?: OpenAiUsage;
}

export class OpenAiEmbeddingModel implements EmbeddingModel {
  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly quirks: OpenAiQuirks = {},
  ) {}

  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const { endpoint, quirks } = this;
    const batchSize = quirks.embeddingBatchSize ?? 64;
    const vectors: number[][] = [];
    let usage: TokenUsage | undefined;
    for (let start = 0; start < texts.length; start += batchSize) {
      // OpenAI refuses empty strings in `input`.
      const batch = texts.slice(start, start + batchSize).map((text) => text || " ");
      const body = { model: endpoint.model, input: batch };
      const answer = await callProviderJson<EmbeddingAnswer>({
        provider: endpoint.provider,
        url: endpoint.url("embeddings"),
        outbound: endpoint.outbound,
        headers: endpoint.headers,
        body: quirks.embeddingBody?.(body, endpoint.model, options.purpose) ?? body,
        signal: options.signal,
        timeoutMs: endpoint.timeoutMs,
      });
      const data = [...(answer.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (data.length !== batch.length || data.some((d) => !Array.isArray(d.embedding))) {
        throw new ModelCallError("badRequest", endpoint.provider, `${data.length} vectors for ${batch.length} texts`);
      }
      vectors.push(...data.map((d) => d.embedding));
      usage = addUsage(usage, openAiUsage(answer.usage));
    }
    return { vectors, usage };
  }
}

interface RerankAnswer {
  results?: { index: number; relevance_score?: number; score?: number }[];
  usage?: OpenAiUsage;
  meta?: { tokens?: { input_tokens?: number; output_tokens?: number } };
}

/**
 * Scores in 0..1 (§9). Jina, Cohere-style and vLLM answers already are; a server that returns raw
 * logits (TEI with raw_scores, some vLLM cross-encoders) gets the sigmoid its models were trained
 * with. Min–max scaling, the other common fix, would make the best document of any list score 1.
 */
export function normaliseScores(scores: number[]): number[] {
  if (scores.every((s) => s >= 0 && s <= 1)) return scores;
  return scores.map((s) => 1 / (1 + Math.exp(-s)));
}

export class CompatibleRerankModel implements RerankModel {
  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly quirks: OpenAiQuirks = {},
  ) {}

  async rerank(query: string, documents: string[], options: { signal?: AbortSignal } = {}): Promise<RerankResult> {
    if (documents.length === 0) return { scores: [] };
    const { endpoint } = this;
    const body = { model: endpoint.model, query, documents, top_n: documents.length, return_documents: false };
    const answer = await callProviderJson<RerankAnswer | { index: number; score: number }[]>({
      provider: endpoint.provider,
      url: endpoint.url("rerank"),
      outbound: endpoint.outbound,
      headers: endpoint.headers,
      body: this.quirks.rerankBody?.(body) ?? body,
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    // TEI answers with a bare list; everyone else with {results}.
    const results: { index: number; relevance_score?: number; score?: number }[] | undefined = Array.isArray(answer) ? answer : answer.results;
    if (!Array.isArray(results)) throw new ModelCallError("badRequest", endpoint.provider, "the answer has no rerank results");
    const scores: number[] = documents.map(() => 0);
    for (const result of results) {
      const score = result.relevance_score ?? result.score;
      if (Number.isInteger(result.index) && result.index >= 0 && result.index < documents.length && typeof score === "number") scores[result.index] = score;
    }
    const usage = Array.isArray(answer)
      ? undefined
      : (openAiUsage(answer.usage) ?? openAiUsage(answer.meta?.tokens ? { input_tokens: answer.meta.tokens.input_tokens, output_tokens: answer.meta.tokens.output_tokens } : undefined));
    return { scores: normaliseScores(scores), usage };
  }
}

export class OpenAiTranscriptionModel implements Sequence2TxtModel {
  constructor(private readonly endpoint: OpenAiEndpoint) {}

  async transcribe(audio: AudioInput, options: { language?: string; signal?: AbortSignal } = {}): Promise<TextResult> {
    const { endpoint } = this;
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(audio.data)], { type: audio.mimeType }), audio.fileName);
    form.append("model", endpoint.model);
    form.append("response_format", "json");
    const language = languageCode(options.language);
    if (language) form.append("language", language);
    const answer = await callProviderJson<{ text?: string; usage?: OpenAiUsage & { type?: string } }>({
      provider: endpoint.provider,
      url: endpoint.url("audio/transcriptions"),
      outbound: endpoint.outbound,
      headers: endpoint.headers,
      body: form,
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    if (typeof answer.text !== "string") throw new ModelCallError("badRequest", endpoint.provider, "the answer has no text");
    // whisper-1 reports seconds of audio, not tokens.
    const usage = answer.usage && answer.usage.type !== "duration" ? openAiUsage(answer.usage) : undefined;
    return { text: answer.text, usage };
  }
}

export class OpenAiSpeechModel implements TtsModel {
  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly quirks: OpenAiQuirks = {},
  ) {}

  async synthesize(text: string, options: { voice?: string; signal?: AbortSignal } = {}): Promise<SpeechResult> {
    const { endpoint } = this;
    const voice = options.voice ?? this.quirks.defaultVoice?.(endpoint.model);
    const response = await callProvider({
      provider: endpoint.provider,
      url: endpoint.url("audio/speech"),
      outbound: endpoint.outbound,
      headers: endpoint.headers,
      body: { model: endpoint.model, input: text, ...(voice ? { voice } : {}), response_format: "mp3" },
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    return speechOf(response, endpoint.provider, { octetStreamAs: this.quirks.speechAsOctetStream ? "audio/mpeg" : undefined });
  }
}

/** The clients of one model type over one endpoint. */
export function openAiClient<T extends ModelType>(type: T, endpoint: OpenAiEndpoint, quirks: OpenAiQuirks = {}): ModelClients[T] {
  return pickClient(endpoint.provider, type, {
    chat: () => new OpenAiChatModel(endpoint, quirks),
    embedding: () => new OpenAiEmbeddingModel(endpoint, quirks),
    rerank: () => new CompatibleRerankModel(endpoint, quirks),
    img2txt: () => describeWithChat(new OpenAiChatModel(endpoint, quirks)),
    sequence2txt: () => new OpenAiTranscriptionModel(endpoint),
    tts: () => new OpenAiSpeechModel(endpoint, quirks),
  });
}

export interface OpenAiCompatibleVendor {
  /** RAGFlow's factory name. */
  name: string;
  modelTypes: readonly ModelType[];
  credentialFields: readonly ParamSpec[];
  catalogue?: readonly CatalogueModel[];
  validate?: ProviderDefinition["validate"];
  /** Used when the entry gives no base URL. */
  defaultBaseUrl?: string;
  /** How an entry becomes an endpoint; by default its `apiKey` as a bearer key at its `baseUrl`. */
  endpoint?(spec: ModelSpec): OpenAiEndpoint;
  /** The vendor's departures from the protocol, for all its entries or depending on one's settings. */
  quirks?: OpenAiQuirks | ((spec: ModelSpec) => OpenAiQuirks);
}

/** A vendor module that speaks the OpenAI protocol, described by where it lives and what it offers. */
export function openAiCompatibleProvider(vendor: OpenAiCompatibleVendor): ProviderDefinition {
  const endpointOf =
    vendor.endpoint ??
    ((spec: ModelSpec) => {
      const baseUrl = spec.credentials.baseUrl || vendor.defaultBaseUrl;
      if (!baseUrl) throw new ModelCallError("badRequest", vendor.name, "no base URL is set");
      return bearerEndpoint(vendor.name, baseUrl, spec.credentials.apiKey, spec.modelName);
    });
  return {
    name: vendor.name,
    modelTypes: vendor.modelTypes,
    credentialFields: vendor.credentialFields,
    catalogue: vendor.catalogue,
    validate: vendor.validate,
    create(type, spec) {
      if (!vendor.modelTypes.includes(type)) throw unsupportedType(vendor.name, type);
      const quirks = typeof vendor.quirks === "function" ? vendor.quirks(spec) : vendor.quirks;
      return openAiClient(type, { ...endpointOf(spec), outbound: spec.outbound }, quirks);
    },
  };
}

/**
 * A server the user runs (LM Studio, vLLM, LocalAI, Xinference): a base URL is required, with /v1 added
 * when it has no path, and the key may be empty (§5).
 */
export function selfHostedVendor(name: string, modelTypes: readonly ModelType[], quirks?: OpenAiQuirks): OpenAiCompatibleVendor {
  return {
    name,
    modelTypes,
    credentialFields: [
      credential("apiKey", "secret", { help: "models.fields.apiKey.helpOptional" }),
      credential("baseUrl", "url", { required: true }),
    ],
    catalogue: [],
    endpoint(spec) {
      if (!spec.credentials.baseUrl) throw new ModelCallError("badRequest", name, "no base URL is set");
      return bearerEndpoint(name, withV1Path(spec.credentials.baseUrl), spec.credentials.apiKey, spec.modelName);
    },
    quirks,
  };
}
