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

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
  /** Images sent with a user message, for vision-capable chat models. */
  images?: ImageInput[];
}

export interface GenerationOptions {
  temperature?: number;
  topP?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  maxTokens?: number;
  stop?: string[];
  signal?: AbortSignal;
}

/** What a streaming chat call yields: text as it arrives, then the usage and why it stopped. */
export type ChatEvent =
  | { type: "delta"; text: string }
  | { type: "usage"; usage: TokenUsage }
  | { type: "finish"; reason: "stop" | "length" | "content_filter" | "other" };

export interface ChatModel {
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
