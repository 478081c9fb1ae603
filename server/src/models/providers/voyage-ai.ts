import { callProviderJson, joinUrl, type ModelFailure } from "../http";
import type { EmbeddingResult, ModelClients, ModelType, RerankResult, TokenUsage } from "../model-types";
import { apiKeyAndBaseUrl, type ModelSpec, type ProviderDefinition } from "../provider";
import { pickClient } from "./shared";

const PROVIDER = "Voyage AI";
const DEFAULT_BASE_URL = "https://api.voyageai.com/v1";

export interface VoyageOptions {
  timeoutMs?: number;
}

/** Voyage AI: retrieval embeddings (queries and documents told apart) and rerankers. */
export function voyageAiProvider(options: VoyageOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["embedding", "rerank"],
    credentialFields: apiKeyAndBaseUrl(DEFAULT_BASE_URL),
    catalogue: [
      { name: "voyage-3.5", type: "embedding", maxTokens: 32_000 },
      { name: "voyage-3.5-lite", type: "embedding", maxTokens: 32_000 },
      { name: "voyage-3-large", type: "embedding", maxTokens: 32_000 },
      { name: "voyage-multilingual-2", type: "embedding", maxTokens: 32_000 },
      { name: "voyage-code-3", type: "embedding", maxTokens: 32_000 },
      { name: "rerank-2.5", type: "rerank", maxTokens: 32_000 },
      { name: "rerank-2.5-lite", type: "rerank", maxTokens: 32_000 },
      { name: "rerank-2", type: "rerank", maxTokens: 16_000 },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const baseUrl = spec.credentials.baseUrl || DEFAULT_BASE_URL;
      const headers = { authorization: `Bearer ${spec.credentials.apiKey ?? ""}` };
      const post = <R>(path: string, body: unknown, signal?: AbortSignal) =>
        callProviderJson<R>({ provider: PROVIDER, url: joinUrl(baseUrl, path), outbound: spec.outbound, headers, body, timeoutMs: options.timeoutMs, signal, classify: unknownModel });
      return pickClient(PROVIDER, type, {
        embedding: () => ({
          // 128 texts per call keeps a batch of chunks well under Voyage's 1,000-text and per-call token limits.
          async embed(texts, embedOptions = {}): Promise<EmbeddingResult> {
            const vectors: number[][] = [];
            let tokens = 0;
            for (let start = 0; start < texts.length; start += 128) {
              const answer = await post<{ data: { embedding: number[]; index: number }[]; usage?: { total_tokens?: number } }>(
                "embeddings",
                { model: spec.modelName, input: texts.slice(start, start + 128), input_type: embedOptions.purpose ?? "document", truncation: true },
                embedOptions.signal,
              );
              const batch = [...answer.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
              vectors.push(...batch);
              tokens += answer.usage?.total_tokens ?? 0;
            }
            return { vectors, usage: promptOnly(tokens) };
          },
        }),
        rerank: () => ({
          async rerank(query, documents, rerankOptions = {}): Promise<RerankResult> {
            if (documents.length === 0) return { scores: [] };
            const answer = await post<{ data: { index: number; relevance_score: number }[]; usage?: { total_tokens?: number } }>(
              "rerank",
              { model: spec.modelName, query, documents, truncation: true },
              rerankOptions.signal,
            );
            const scores = new Array<number>(documents.length).fill(0);
            for (const result of answer.data) scores[result.index] = result.relevance_score;
            return { scores, usage: promptOnly(answer.usage?.total_tokens ?? 0) };
          },
        }),
      });
    },
  };
}

export const voyageAi = voyageAiProvider();

/** Voyage answers an unknown model with 400 ("Model x is not supported. Supported models are …"). */
function unknownModel(status: number, body: string): ModelFailure | undefined {
  return status === 400 && /model .* (is not supported|not found|does not exist)/i.test(body) ? "notFound" : undefined;
}

function promptOnly(tokens: number): TokenUsage {
  return { promptTokens: tokens, completionTokens: 0, totalTokens: tokens };
}
