/**
 * One interface per model type. Every provider module implements some of them; every capability of
 * Cairn (ingestion, retrieval, chat, flows) calls models only through these.
 */
export const MODEL_TYPES = ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export function isModelType(value: string): value is ModelType {
  return (MODEL_TYPES as readonly string[]).includes(value);
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ImageInput {
  data: Buffer;
  /** image/png, image/jpeg, … */
  mimeType: string;
}

/** A JSON Schema (draft 2020-12 subset that vendors accept): tool parameters and structured answers. */
export type JsonSchema = Record<string, unknown>;

/** A function the model may call; the caller runs it and sends the result back as a `tool` message. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** The schema of the call's arguments, an object schema. */
  parameters: JsonSchema;
}

/** Whether the model may, must or must not call tools, or must call one named tool. */
export type ToolChoice = "auto" | "none" | "required" | { tool: string };

/** Plain text, or one JSON value (matching `schema` when given); `name` and `description` help the model. */
export type ResponseFormat = { type: "text" } | { type: "json"; schema?: JsonSchema; name?: string; description?: string };

/** A call the model asked for: `arguments` is the JSON text it wrote, `input` that text parsed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  input: unknown;
  /** What a vendor needs to see again when the call is sent back (Gemini's thought signature). */
  providerMetadata?: Record<string, string>;
}

/**
 * One turn of a conversation. An assistant turn may carry the tool calls it made (`toolCalls`); a `tool`
 * turn is the result of one call (`toolCallId`, `toolName`), its `content` the result as text (JSON or not).
 */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Images sent with a user message, for vision-capable chat models. */
  images?: ImageInput[];
  toolCalls?: Omit<ToolCall, "input">[];
  toolCallId?: string;
  toolName?: string;
  /** The tool failed: `content` says how. */
  isError?: boolean;
}

export interface GenerationOptions {
  temperature?: number;
  topP?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  maxTokens?: number;
  stop?: string[];
  signal?: AbortSignal;
  tools?: ToolDefinition[];
  /** "auto" when tools are given and this is not. */
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
}

export type FinishReason = "stop" | "length" | "content_filter" | "tool-calls" | "other";

/**
 * What a streaming chat call yields: text as it arrives, tool calls (their argument text as it arrives,
 * then each call whole, once complete), then the usage and why it stopped. A JSON answer
 * (`responseFormat`) arrives as text deltas whatever the vendor's mechanism.
 */
export type ChatEvent =
  | { type: "delta"; text: string }
  | { type: "tool-call-delta"; id: string; name: string; argumentsDelta: string }
  | ({ type: "tool-call" } & ToolCall)
  | { type: "usage"; usage: TokenUsage }
  | { type: "finish"; reason: FinishReason };

/** What a chat model can do beyond text, so that callers can refuse or fall back before they ask. */
export interface ChatCapabilities {
  tools: boolean;
  structuredOutput: boolean;
}

export interface ChatModel {
  /** Left out (test doubles), the model offers neither tools nor structured output. */
  readonly capabilities?: ChatCapabilities;
  /**
   * The model quotes the knowledge in its prompt and writes nothing of its own (the built-in model): a caller
   * that needs text written — a question rewritten, a text classified or graded — uses a lexical stand-in instead.
   */
  readonly extractive?: boolean;
  stream(messages: ChatMessage[], options?: GenerationOptions): AsyncIterable<ChatEvent>;
}

export interface EmbeddingResult {
  vectors: number[][];
  usage?: TokenUsage;
}

export interface EmbeddingModel {
  /** Queries and documents may be embedded differently (instruction prefixes, asymmetric models). */
  embed(texts: string[], options?: { purpose?: "query" | "document"; signal?: AbortSignal }): Promise<EmbeddingResult>;
}

export interface RerankResult {
  /** One relevance score per document, in input order, each in 0..1 (§9). */
  scores: number[];
  usage?: TokenUsage;
}

export interface RerankModel {
  rerank(query: string, documents: string[], options?: { signal?: AbortSignal }): Promise<RerankResult>;
}

export interface TextResult {
  text: string;
  usage?: TokenUsage;
}

export interface Img2TxtModel {
  describe(image: ImageInput, options?: { prompt?: string; language?: string; signal?: AbortSignal }): Promise<TextResult>;
}

export interface AudioInput {
  data: Buffer;
  mimeType: string;
  fileName: string;
}

export interface Sequence2TxtModel {
  transcribe(audio: AudioInput, options?: { language?: string; signal?: AbortSignal }): Promise<TextResult>;
}

export interface SpeechResult {
  /** audio/mpeg, audio/wav, … */
  mimeType: string;
  audio: AsyncIterable<Buffer>;
}

export interface TtsModel {
  synthesize(text: string, options?: { voice?: string; signal?: AbortSignal }): Promise<SpeechResult>;
}

export interface ModelClients {
  chat: ChatModel;
  embedding: EmbeddingModel;
  rerank: RerankModel;
  img2txt: Img2TxtModel;
  sequence2txt: Sequence2TxtModel;
  tts: TtsModel;
}

/** Reads a whole chat stream into its text and usage, for callers that do not stream. */
export async function completeChat(model: ChatModel, messages: ChatMessage[], options?: GenerationOptions): Promise<TextResult> {
  let text = "";
  let usage: TokenUsage | undefined;
  for await (const event of model.stream(messages, options)) {
    if (event.type === "delta") text += event.text;
    else if (event.type === "usage") usage = event.usage;
  }
  return { text, usage };
}
