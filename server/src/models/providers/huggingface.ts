import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, joinUrl, ModelCallError, notJson, type ModelFailure } from "../http";
import type { EmbeddingResult, ModelClients, ModelType, RerankResult, TokenUsage } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { normaliseScores, OpenAiChatModel } from "./openai-compatible";
import { pickClient } from "./shared";
import { credential } from "../provider";

const PROVIDER = "HuggingFace";

/**
 * TEI refuses a request with more inputs than its `--max-client-batch-size`, 32 unless the operator
 * raised it (413 "batch size 64 > maximum allowed batch size 32"); rerank counts its texts the same way.
 */
const BATCH_SIZE = 32;

export interface HuggingFaceOptions {
  timeoutMs?: number;
}

/**
 * Hugging Face's own inference servers, deployed by the user or as an Inference Endpoint (RAGFlow's
 * "HuggingFace"): Text Embeddings Inference serves embeddings (POST /embed) and cross-encoder rerank
 * (POST /rerank) at the server's root; Text Generation Inference serves chat through its
 * OpenAI-compatible /v1/chat/completions. A base URL is required; the key only when the server was
 * started with --api-key or sits behind an Inference Endpoint.
 */
export function huggingFaceProvider(options: HuggingFaceOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "embedding", "rerank"],
    credentialFields: [
      credential("apiKey", "secret", { help: "models.fields.apiKey.helpOptional" }),
      credential("baseUrl", "url", { required: true }),
    ],
    catalogue: [],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      if (!spec.credentials.baseUrl) throw new ModelCallError("badRequest", PROVIDER, "no base URL is set");
      const root = serverRoot(spec.credentials.baseUrl);
      const headers: Record<string, string> = spec.credentials.apiKey ? { authorization: `Bearer ${spec.credentials.apiKey}` } : {};
      const tei = new TeiCalls(root, headers, options, spec.outbound);
      return pickClient(PROVIDER, type, {
        chat: () =>
          new OpenAiChatModel({ provider: PROVIDER, url: (operation) => joinUrl(root, `v1/${operation}`), headers, model: spec.modelName, timeoutMs: options.timeoutMs, outbound: spec.outbound }),
        embedding: () => ({ embed: (texts, embedOptions) => tei.embed(texts, embedOptions) }),
        rerank: () => ({ rerank: (query, documents, rerankOptions) => tei.rerank(query, documents, rerankOptions) }),
      });
    },
  };
}

export const huggingFace = huggingFaceProvider();

/** TEI's own routes live at the server's root; an address copied from an OpenAI-style setting ends in /v1. */
function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** TEI answers 429 {"error_type": "overloaded"} when its queue is full: the server is busy, no quota is involved. */
function overloaded(status: number, body: string): ModelFailure | undefined {
  return status === 429 && body.includes("overloaded") ? "unavailable" : undefined;
}

class TeiCalls {
  constructor(
    private readonly root: string,
    private readonly headers: Record<string, string>,
    private readonly options: HuggingFaceOptions,
    private readonly outbound: OutboundPolicy | undefined,
  ) {}

  /** One call; the answer and the tokens TEI counted, which it reports only in the x-compute-tokens header. */
  private async post<R>(path: string, body: unknown, signal: AbortSignal | undefined): Promise<{ answer: R; tokens: number }> {
    const response = await callProvider({ provider: PROVIDER, url: joinUrl(this.root, path), outbound: this.outbound, headers: this.headers, body, timeoutMs: this.options.timeoutMs, signal, classify: overloaded });
    const text = await response.text();
    let answer: R;
    try {
      answer = JSON.parse(text) as R;
    } catch {
      throw notJson(PROVIDER);
    }
    return { answer, tokens: Number(response.headers.get("x-compute-tokens")) || 0 };
  }

  /**
   * Vectors as TEI pools and normalises them for the deployed model. TEI has no query/document switch
   * that works for every model (its `prompt_name` must name a prompt of the model's own configuration),
   * so both are embedded alike.
   */
  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const vectors: number[][] = [];
    let tokens = 0;
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      // TEI refuses an empty input.
      const batch = texts.slice(start, start + BATCH_SIZE).map((text) => text || " ");
      const { answer, tokens: used } = await this.post<unknown>("embed", { inputs: batch, truncate: true }, options.signal);
      if (!Array.isArray(answer) || answer.length !== batch.length || !answer.every(Array.isArray)) {
        throw new ModelCallError("badRequest", PROVIDER, `expected ${batch.length} vectors, got ${Array.isArray(answer) ? answer.length : "something else"}`);
      }
      vectors.push(...(answer as number[][]));
      tokens += used;
    }
    return { vectors, usage: promptOnly(tokens) };
  }

  /** Scores in the documents' order; TEI answers each batch sorted by score, each result naming its index in the batch. */
  async rerank(query: string, documents: string[], options: { signal?: AbortSignal } = {}): Promise<RerankResult> {
    const scores: number[] = documents.map(() => 0);
    let tokens = 0;
    for (let start = 0; start < documents.length; start += BATCH_SIZE) {
      const batch = documents.slice(start, start + BATCH_SIZE).map((text) => text || " ");
      // raw_scores: false asks for the sigmoid of the cross-encoder's logit, a score in 0..1.
      const { answer, tokens: used } = await this.post<unknown>("rerank", { query, texts: batch, raw_scores: false, truncate: true }, options.signal);
      if (!Array.isArray(answer)) throw new ModelCallError("badRequest", PROVIDER, "the answer has no rerank results");
      for (const { index, score } of answer as { index: number; score: number }[]) {
        if (Number.isInteger(index) && index >= 0 && index < batch.length && typeof score === "number") scores[start + index] = score;
      }
      tokens += used;
    }
    return { scores: normaliseScores(scores), usage: promptOnly(tokens) };
  }
}

function promptOnly(tokens: number): TokenUsage | undefined {
  return tokens > 0 ? { promptTokens: tokens, completionTokens: 0, totalTokens: tokens } : undefined;
}
