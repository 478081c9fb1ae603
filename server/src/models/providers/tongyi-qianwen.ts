import { callProviderJson, ModelCallError } from "../http";
import type { RerankModel, RerankResult } from "../model-types";
import { apiKeyAndBaseUrl, type ModelSpec, type ProviderDefinition } from "../provider";
import { openAiCompatibleProvider, openAiUsage } from "./openai-compatible";
import { catalogueOf, pickClient } from "./shared";

const COMPATIBLE_MODE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1";

/**
 * DashScope's rerank is not part of its OpenAI-compatible mode: it is the native API on the same host
 * (international accounts use dashscope-intl, which the base URL says).
 */
export class DashScopeRerankModel implements RerankModel {
  constructor(
    private readonly spec: ModelSpec,
    private readonly timeoutMs?: number,
  ) {}

  async rerank(query: string, documents: string[], options: { signal?: AbortSignal } = {}): Promise<RerankResult> {
    if (documents.length === 0) return { scores: [] };
    const origin = new URL(this.spec.credentials.baseUrl || COMPATIBLE_MODE_URL).origin;
    const answer = await callProviderJson<{ output?: { results?: { index: number; relevance_score: number }[] }; usage?: { total_tokens?: number } }>({
      provider: "Tongyi-Qianwen",
      url: `${origin}/api/v1/services/rerank/text-rerank/text-rerank`,
      outbound: this.spec.outbound,
      headers: { authorization: `Bearer ${this.spec.credentials.apiKey ?? ""}` },
      body: { model: this.spec.modelName, input: { query, documents }, parameters: { return_documents: false, top_n: documents.length } },
      signal: options.signal,
      timeoutMs: this.timeoutMs,
    });
    const results = answer.output?.results;
    if (!Array.isArray(results)) throw new ModelCallError("badRequest", "Tongyi-Qianwen", "the answer has no rerank results");
    const scores = documents.map(() => 0);
    for (const result of results) if (result.index >= 0 && result.index < documents.length) scores[result.index] = result.relevance_score;
    const total = answer.usage?.total_tokens;
    return { scores, usage: total === undefined ? undefined : openAiUsage({ prompt_tokens: total, total_tokens: total }) };
  }
}

const compatibleMode = openAiCompatibleProvider({
  name: "Tongyi-Qianwen",
  modelTypes: ["chat", "embedding", "rerank", "img2txt"],
  credentialFields: apiKeyAndBaseUrl(COMPATIBLE_MODE_URL),
  defaultBaseUrl: COMPATIBLE_MODE_URL,
  catalogue: [
    ...catalogueOf("chat", [["qwen-max", 32768], ["qwen-plus", 131072], ["qwen-turbo", 1000000], ["qwen-flash", 1000000], ["qwen-long", 10000000], ["qwen3-max", 262144], ["qwq-plus", 131072]]),
    ...catalogueOf("embedding", [["text-embedding-v4", 8192], ["text-embedding-v3", 8192], ["text-embedding-v2", 2048]]),
    ...catalogueOf("rerank", [["gte-rerank-v2", 4000], ["gte-rerank", 4000]]),
    ...catalogueOf("img2txt", [["qwen-vl-max", 131072], ["qwen-vl-plus", 131072], ["qwen2.5-vl-72b-instruct", 131072]], { vision: true }),
  ],
  // DashScope's text-embedding-v3 and v4 take at most ten texts a request.
  quirks: { embeddingBatchSize: 10 },
});

/** Alibaba Cloud Model Studio (DashScope): the OpenAI-compatible mode, plus the native rerank. */
export const tongyiQianwen: ProviderDefinition = {
  ...compatibleMode,
  create(type, spec) {
    return type === "rerank" ? pickClient("Tongyi-Qianwen", type, { rerank: () => new DashScopeRerankModel(spec) }) : compatibleMode.create(type, spec);
  },
};
