import crypto from "node:crypto";
import { callProvider, callProviderJson, ModelCallError, serverSentEvents, type ModelFailure } from "../http";
import type { ChatEvent, ChatMessage, EmbeddingResult, GenerationOptions, ModelClients, ModelType, RerankResult, TokenUsage } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { requestOAuthToken } from "./oauth-token";
import { pickClient } from "./shared";
import { credential } from "../provider";

const PROVIDER = "BaiduYiyan";
const BASE_URL = "https://aip.baidubce.com";

export interface BaiduOptions {
  /** Replaces https://aip.baidubce.com (tests). */
  baseUrl?: string;
  timeoutMs?: number;
}

/**
 * Baidu ERNIE (Qianfan's "wenxinworkshop" API): the API key and secret key buy an OAuth access token
 * (client_credentials, valid 30 days), which every call then carries in its query string. Each model
 * has its own endpoint path; errors come back as HTTP 200 with error_code and error_msg.
 */
export function baiduYiyanProvider(options: BaiduOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "embedding", "rerank"],
    credentialFields: [
      credential("apiKey", "secret", { required: true }),
      credential("secretKey", "secret", { required: true }),
    ],
    catalogue: [
      { name: "ERNIE-4.0-8K", type: "chat", maxTokens: 8_192 },
      { name: "ERNIE-4.0-Turbo-8K", type: "chat", maxTokens: 8_192 },
      { name: "ERNIE-3.5-8K", type: "chat", maxTokens: 8_192 },
      { name: "ERNIE-3.5-128K", type: "chat", maxTokens: 128_000 },
      { name: "ERNIE-Speed-128K", type: "chat", maxTokens: 128_000 },
      { name: "ERNIE-Lite-8K", type: "chat", maxTokens: 8_192 },
      { name: "Embedding-V1", type: "embedding", maxTokens: 384 },
      { name: "bge-large-zh", type: "embedding", maxTokens: 512 },
      { name: "bge-large-en", type: "embedding", maxTokens: 512 },
      { name: "tao-8k", type: "embedding", maxTokens: 8_192 },
      { name: "bce-reranker-base_v1", type: "rerank", maxTokens: 512 },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const baidu = new BaiduCalls(spec, options);
      return pickClient(PROVIDER, type, {
        chat: () => ({ stream: (messages, generation) => baidu.chat(messages, generation) }),
        embedding: () => ({ embed: (texts, embedOptions) => baidu.embed(texts, embedOptions?.signal) }),
        rerank: () => ({ rerank: (query, documents, rerankOptions) => baidu.rerank(query, documents, rerankOptions?.signal) }),
      });
    },
  };
}

export const baiduYiyan = baiduYiyanProvider();

/** Model names as the console lists them → the last segment of their endpoint; other names are used as given, lower-cased. */
const CHAT_ENDPOINTS: Record<string, string> = {
  "ERNIE-4.0-8K": "completions_pro",
  "ERNIE-4.0-Turbo-8K": "ernie-4.0-turbo-8k",
  "ERNIE-3.5-8K": "completions",
  "ERNIE-3.5-128K": "ernie-3.5-128k",
  "ERNIE-Speed-8K": "ernie_speed",
  "ERNIE-Speed-128K": "ernie-speed-128k",
  "ERNIE-Lite-8K": "ernie-lite-8k",
  "ERNIE-Tiny-8K": "ernie-tiny-8k",
  "ERNIE-Character-8K": "ernie-char-8k",
};
const EMBEDDING_ENDPOINTS: Record<string, string> = {
  "Embedding-V1": "embedding-v1",
  "bge-large-zh": "bge_large_zh",
  "bge-large-en": "bge_large_en",
  "tao-8k": "tao_8k",
};
const RERANK_ENDPOINTS: Record<string, string> = { "bce-reranker-base_v1": "bce_reranker_base" };

function endpointOf(table: Record<string, string>, model: string): string {
  return table[model] ?? Object.entries(table).find(([name]) => name.toLowerCase() === model.toLowerCase())?.[1] ?? model.toLowerCase();
}

interface BaiduError {
  error_code?: number;
  error_msg?: string;
}

// Codes of cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh.
const AUTH_CODES = new Set([6, 13, 14, 15, 110, 111, 336004]);
const QUOTA_CODES = new Set([4, 17, 18, 19, 336501, 336502, 336503, 336504, 336505, 336507]);
const TOKEN_EXPIRED_CODES = new Set([110, 111]);

function baiduFailure(error: BaiduError): ModelCallError {
  const code = error.error_code ?? 0;
  let reason: ModelFailure = "badRequest";
  if (AUTH_CODES.has(code)) reason = "auth";
  else if (QUOTA_CODES.has(code)) reason = "quota";
  // 3: "Unsupported openapi method" — the endpoint, that is the model, does not exist.
  else if (code === 3) reason = "notFound";
  else if (code === 1 || code === 2 || code === 336000 || code === 336100) reason = "unavailable";
  return new ModelCallError(reason, PROVIDER, `${code}: ${error.error_msg ?? "unknown error"}`);
}

/** Access tokens by API key and secret key; a token lives 30 days and is renewed a day early, or when Baidu calls it expired. */
const tokens = new Map<string, { token: string; expiresAt: number }>();

const FINISH_REASONS: Record<string, Extract<ChatEvent, { type: "finish" }>["reason"]> = {
  normal: "stop",
  stop: "stop",
  length: "length",
  content_filter: "content_filter",
};

interface ErnieChunk extends BaiduError {
  result?: string;
  is_end?: boolean;
  finish_reason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

/**
 * ERNIE wants the system prompt in its own field and an odd number of messages alternating user and
 * assistant, starting and ending with the user: consecutive turns of one role are merged and a leading
 * assistant turn becomes part of the system prompt.
 */
export function ernieMessages(messages: ChatMessage[]): { system?: string; messages: { role: "user" | "assistant"; content: string }[] } {
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; content: string }[] = [];
  for (const message of messages) {
    if (message.role === "system") system.push(message.content);
    else if (turns.length === 0 && message.role === "assistant") system.push(message.content);
    else {
      // ERNIE has no tool turns; the guard of pickClient keeps them from reaching it.
      const role = message.role === "assistant" ? "assistant" : "user";
      if (turns.at(-1)?.role === role) turns.at(-1)!.content += `\n\n${message.content}`;
      else turns.push({ role, content: message.content });
    }
  }
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages: turns };
}

class BaiduCalls {
  private readonly baseUrl: string;

  constructor(
    private readonly spec: ModelSpec,
    private readonly options: BaiduOptions,
  ) {
    this.baseUrl = (options.baseUrl ?? BASE_URL).replace(/\/+$/, "");
  }

  private cacheKey(): string {
    return crypto.createHash("sha256").update(`${this.baseUrl}\n${this.spec.credentials.apiKey ?? ""}\n${this.spec.credentials.secretKey ?? ""}`).digest("hex");
  }

  private async accessToken(signal?: AbortSignal): Promise<string> {
    const cached = tokens.get(this.cacheKey());
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const query = new URLSearchParams({ grant_type: "client_credentials", client_id: this.spec.credentials.apiKey ?? "", client_secret: this.spec.credentials.secretKey ?? "" });
    const fresh = await requestOAuthToken({ provider: PROVIDER, url: `${this.baseUrl}/oauth/2.0/token?${query}`, outbound: this.spec.outbound, timeoutMs: this.options.timeoutMs, signal });
    // Tokens live 30 days; renew a day early.
    tokens.set(this.cacheKey(), { token: fresh.token, expiresAt: fresh.expiresAt - 86_400_000 });
    return fresh.token;
  }

  /** One call with the access token; an expired or revoked token is renewed once and the call repeated. */
  private async withToken<R>(call: (token: string) => Promise<R>, signal?: AbortSignal): Promise<R> {
    try {
      return await call(await this.accessToken(signal));
    } catch (error) {
      if (!(error instanceof TokenRejected)) throw error;
      tokens.delete(this.cacheKey());
      try {
        return await call(await this.accessToken(signal));
      } catch (again) {
        throw again instanceof TokenRejected ? baiduFailure(again.error) : again;
      }
    }
  }

  private url(kind: "chat" | "embeddings" | "reranker", endpoint: string, token: string): string {
    return `${this.baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/${kind}/${endpoint}?access_token=${encodeURIComponent(token)}`;
  }

  private async postJson<R extends BaiduError>(url: string, body: unknown, signal?: AbortSignal): Promise<R> {
    const answer = await callProviderJson<R>({ provider: PROVIDER, url, outbound: this.spec.outbound, body, timeoutMs: this.options.timeoutMs, signal });
    if (answer.error_code) throw TOKEN_EXPIRED_CODES.has(answer.error_code) ? new TokenRejected(answer) : baiduFailure(answer);
    return answer;
  }

  async *chat(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { system, messages: turns } = ernieMessages(messages);
    const body = {
      messages: turns,
      system,
      stream: true,
      // ERNIE takes temperature in (0, 1].
      temperature: options.temperature === undefined ? undefined : Math.min(1, Math.max(0.01, options.temperature)),
      top_p: options.topP,
      penalty_score: options.frequencyPenalty === undefined ? undefined : Math.min(2, Math.max(1, 1 + options.frequencyPenalty)),
      max_output_tokens: options.maxTokens,
      stop: options.stop?.length ? options.stop : undefined,
    };
    const response = await this.withToken(async (token) => {
      const answer = await callProvider({ provider: PROVIDER, url: this.url("chat", endpointOf(CHAT_ENDPOINTS, this.spec.modelName), token), outbound: this.spec.outbound, body, timeoutMs: this.options.timeoutMs, signal: options.signal });
      // Refusals come as one JSON object instead of the event stream.
      if ((answer.headers.get("content-type") ?? "").includes("application/json")) {
        const error = JSON.parse(await answer.text()) as BaiduError;
        if (error.error_code && TOKEN_EXPIRED_CODES.has(error.error_code)) throw new TokenRejected(error);
        throw baiduFailure(error.error_code ? error : { error_code: -1, error_msg: "the answer is not a stream" });
      }
      return answer;
    }, options.signal);
    let usage: TokenUsage | undefined;
    for await (const event of serverSentEvents(response)) {
      const chunk = JSON.parse(event.data) as ErnieChunk;
      if (chunk.error_code) throw baiduFailure(chunk);
      if (chunk.result) yield { type: "delta", text: chunk.result };
      if (chunk.usage) {
        const { prompt_tokens = 0, completion_tokens = 0, total_tokens } = chunk.usage;
        usage = { promptTokens: prompt_tokens, completionTokens: completion_tokens, totalTokens: total_tokens ?? prompt_tokens + completion_tokens };
      }
      if (chunk.is_end) {
        yield { type: "finish", reason: FINISH_REASONS[chunk.finish_reason ?? "normal"] ?? "other" };
        break;
      }
    }
    if (usage) yield { type: "usage", usage };
  }

  /** At most 16 texts per call (Baidu's limit for its embedding endpoints). */
  async embed(texts: string[], signal?: AbortSignal): Promise<EmbeddingResult> {
    const vectors: number[][] = [];
    let promptTokens = 0;
    for (let start = 0; start < texts.length; start += 16) {
      const batch = texts.slice(start, start + 16);
      const answer = await this.withToken(
        (token) => this.postJson<BaiduError & { data: { embedding: number[]; index: number }[]; usage?: { prompt_tokens?: number } }>(this.url("embeddings", endpointOf(EMBEDDING_ENDPOINTS, this.spec.modelName), token), { input: batch }, signal),
        signal,
      );
      vectors.push(...[...answer.data].sort((a, b) => a.index - b.index).map((d) => d.embedding));
      promptTokens += answer.usage?.prompt_tokens ?? 0;
    }
    return { vectors, usage: { promptTokens, completionTokens: 0, totalTokens: promptTokens } };
  }

  async rerank(query: string, documents: string[], signal?: AbortSignal): Promise<RerankResult> {
    if (documents.length === 0) return { scores: [] };
    const answer = await this.withToken(
      (token) =>
        this.postJson<BaiduError & { results: { index: number; relevance_score: number }[]; usage?: { prompt_tokens?: number; total_tokens?: number } }>(
          this.url("reranker", endpointOf(RERANK_ENDPOINTS, this.spec.modelName), token),
          { query, documents, top_n: documents.length },
          signal,
        ),
      signal,
    );
    const scores = new Array<number>(documents.length).fill(0);
    for (const result of answer.results) scores[result.index] = result.relevance_score;
    const total = answer.usage?.total_tokens ?? 0;
    return { scores, usage: { promptTokens: answer.usage?.prompt_tokens ?? total, completionTokens: 0, totalTokens: total } };
  }
}

/** Baidu said the access token is invalid or expired (codes 110, 111): worth one renewal. */
class TokenRejected extends Error {
  constructor(readonly error: BaiduError) {
    super(error.error_msg);
  }
}
