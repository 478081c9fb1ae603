import { callProvider, callProviderJson, joinUrl, ModelCallError, serverSentEvents } from "../http";
import type { ChatEvent, ChatMessage, EmbeddingResult, GenerationOptions, ModelClients, ModelType, RerankResult, TokenUsage } from "../model-types";
import { apiKeyAndBaseUrl, type ModelSpec, type ProviderDefinition } from "../provider";
import { pickClient } from "./shared";

const PROVIDER = "Cohere";

export interface CohereOptions {
  timeoutMs?: number;
}

/** Cohere's v2 API: streaming chat, embeddings that tell queries from documents, and rerank. */
export function cohereProvider(options: CohereOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "embedding", "rerank"],
    credentialFields: apiKeyAndBaseUrl("https://api.cohere.com"),
    catalogue: [
      { name: "command-a-03-2025", type: "chat", maxTokens: 256_000 },
      { name: "command-r-plus-08-2024", type: "chat", maxTokens: 128_000 },
      { name: "command-r-08-2024", type: "chat", maxTokens: 128_000 },
      { name: "command-r7b-12-2024", type: "chat", maxTokens: 128_000 },
      { name: "embed-v4.0", type: "embedding", maxTokens: 128_000 },
      { name: "embed-multilingual-v3.0", type: "embedding", maxTokens: 512 },
      { name: "embed-english-v3.0", type: "embedding", maxTokens: 512 },
      { name: "rerank-v3.5", type: "rerank", maxTokens: 4_096 },
      { name: "rerank-multilingual-v3.0", type: "rerank", maxTokens: 4_096 },
      { name: "rerank-english-v3.0", type: "rerank", maxTokens: 4_096 },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const cohere = new CohereCalls(spec, options);
      return pickClient(PROVIDER, type, {
        chat: () => ({ stream: (messages, generation) => cohere.chat(messages, generation) }),
        embedding: () => ({ embed: (texts, embedOptions) => cohere.embed(texts, embedOptions) }),
        rerank: () => ({ rerank: (query, documents, rerankOptions) => cohere.rerank(query, documents, rerankOptions) }),
      });
    },
  };
}

export const cohere = cohereProvider();

interface BilledUnits {
  input_tokens?: number;
  output_tokens?: number;
  search_units?: number;
}

const FINISH_REASONS: Record<string, Extract<ChatEvent, { type: "finish" }>["reason"]> = {
  COMPLETE: "stop",
  STOP_SEQUENCE: "stop",
  MAX_TOKENS: "length",
};

/** Cohere's v2 stream: typed events, of which content-delta carries text and message-end the reason and usage. */
interface CohereStreamEvent {
  type: string;
  delta?: {
    message?: { content?: { text?: string } };
    finish_reason?: string;
    usage?: { billed_units?: BilledUnits; tokens?: BilledUnits };
    error?: string;
  };
}

class CohereCalls {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly spec: ModelSpec,
    private readonly options: CohereOptions,
  ) {
    this.baseUrl = spec.credentials.baseUrl || "https://api.cohere.com";
    // X-Client-Name is how Cohere asks integrations to identify themselves.
    this.headers = { authorization: `Bearer ${spec.credentials.apiKey ?? ""}`, "x-client-name": "cairn" };
  }

  async *chat(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const response = await callProvider({
      provider: PROVIDER,
      url: joinUrl(this.baseUrl, "v2/chat"),
      outbound: this.spec.outbound,
      headers: { ...this.headers, accept: "text/event-stream" },
      body: {
        model: this.spec.modelName,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        temperature: options.temperature,
        p: options.topP,
        max_tokens: options.maxTokens,
        stop_sequences: options.stop?.length ? options.stop : undefined,
        presence_penalty: options.presencePenalty,
        frequency_penalty: options.frequencyPenalty,
      },
      timeoutMs: this.options.timeoutMs,
      signal: options.signal,
    });
    for await (const event of serverSentEvents(response)) {
      if (event.data === "[DONE]") break;
      const data = JSON.parse(event.data) as CohereStreamEvent;
      if (data.type === "content-delta") {
        const text = data.delta?.message?.content?.text;
        if (text) yield { type: "delta", text };
      } else if (data.type === "message-end") {
        if (data.delta?.finish_reason === "ERROR") throw new ModelCallError("unavailable", PROVIDER, data.delta.error ?? "the model stopped with an error");
        yield { type: "finish", reason: FINISH_REASONS[data.delta?.finish_reason ?? ""] ?? "other" };
        const units = data.delta?.usage?.tokens ?? data.delta?.usage?.billed_units;
        if (units) yield { type: "usage", usage: usage(units.input_tokens ?? 0, units.output_tokens ?? 0) };
      }
    }
  }

  /** At most 96 texts per call (Cohere's limit). */
  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const vectors: number[][] = [];
    let inputTokens = 0;
    for (let start = 0; start < texts.length; start += 96) {
      const answer = await callProviderJson<{ embeddings?: { float?: number[][] }; meta?: { billed_units?: BilledUnits } }>({
        provider: PROVIDER,
        url: joinUrl(this.baseUrl, "v2/embed"),
        outbound: this.spec.outbound,
        headers: this.headers,
        body: {
          model: this.spec.modelName,
          texts: texts.slice(start, start + 96),
          input_type: options.purpose === "query" ? "search_query" : "search_document",
          embedding_types: ["float"],
          truncate: "END",
        },
        timeoutMs: this.options.timeoutMs,
        signal: options.signal,
      });
      vectors.push(...(answer.embeddings?.float ?? []));
      inputTokens += answer.meta?.billed_units?.input_tokens ?? 0;
    }
    return { vectors, usage: usage(inputTokens, 0) };
  }

  async rerank(query: string, documents: string[], options: { signal?: AbortSignal } = {}): Promise<RerankResult> {
    if (documents.length === 0) return { scores: [] };
    const answer = await callProviderJson<{ results: { index: number; relevance_score: number }[]; meta?: { billed_units?: BilledUnits } }>({
      provider: PROVIDER,
      url: joinUrl(this.baseUrl, "v2/rerank"),
      outbound: this.spec.outbound,
      headers: this.headers,
      body: { model: this.spec.modelName, query, documents, top_n: documents.length },
      timeoutMs: this.options.timeoutMs,
      signal: options.signal,
    });
    if (!Array.isArray(answer.results)) throw new ModelCallError("badRequest", PROVIDER, "the answer has no rerank results");
    const scores = new Array<number>(documents.length).fill(0);
    for (const { index, relevance_score: score } of answer.results) {
      if (Number.isInteger(index) && index >= 0 && index < documents.length && typeof score === "number") scores[index] = score;
    }
    return { scores };
  }
}

function usage(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
