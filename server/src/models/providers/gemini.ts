import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, callProviderJson, joinUrl, ModelCallError, notJson, serverSentEvents, type ModelFailure } from "../http";
import { ToolCallAssembler, TOOLS_AND_JSON } from "../chat-tools";
import type { ChatEvent, ChatMessage, ChatModel, EmbeddingModel, EmbeddingResult, GenerationOptions } from "../model-types";
import { geminiContents, geminiFinishReason, geminiJsonConfig, geminiPartEvents, geminiTools, type GeminiPart } from "./gemini-protocol";
import { apiKeyAndBaseUrl, type ModelSpec, type ProviderDefinition } from "../provider";
import { catalogueOf, describeWithChat, pickClient } from "./shared";

const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";
// batchEmbedContents takes at most 100 requests.
const EMBEDDING_BATCH = 100;

export interface GeminiEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  outbound?: OutboundPolicy;
}

/** Gemini answers a wrong key with 400 INVALID_ARGUMENT; its reason says what it is. */
function classify(status: number, body: string): ModelFailure | undefined {
  if (status === 400 && /API_KEY_INVALID|API key not valid|API_KEY_SERVICE_BLOCKED/.test(body)) return "auth";
  return undefined;
}

function modelPath(endpoint: GeminiEndpoint, method: string): string {
  // Names are accepted with or without Google's "models/" prefix.
  const name = encodeURIComponent(endpoint.model.replace(/^models\//, ""));
  return joinUrl(endpoint.baseUrl, `v1beta/models/${name}:${method}`);
}

interface GenerateChunk {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; totalTokenCount?: number };
  promptFeedback?: { blockReason?: string };
  error?: { code?: number; message?: string; status?: string };
}

/** streamGenerateContent with alt=sse: every chunk carries new text or whole function calls, and the usage so far. */
export class GeminiChatModel implements ChatModel {
  readonly capabilities = TOOLS_AND_JSON;

  constructor(private readonly endpoint: GeminiEndpoint) {}

  async *stream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { endpoint } = this;
    const generationConfig: Record<string, unknown> = {
      temperature: options.temperature,
      topP: options.topP,
      maxOutputTokens: options.maxTokens,
      stopSequences: options.stop?.length ? options.stop : undefined,
      // Penalties are left out: several Gemini models refuse any request that carries them.
      ...geminiJsonConfig(options),
    };
    const { contents, systemInstruction } = geminiContents(messages);
    const body: Record<string, unknown> = {
      contents,
      generationConfig: Object.fromEntries(Object.entries(generationConfig).filter(([, v]) => v !== undefined)),
      ...geminiTools(options),
    };
    if (systemInstruction) body.systemInstruction = systemInstruction;
    const response = await callProvider({
      provider: "Gemini",
      url: `${modelPath(endpoint, "streamGenerateContent")}?alt=sse`,
      outbound: endpoint.outbound,
      headers: { "x-goog-api-key": endpoint.apiKey },
      body,
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
      classify,
    });
    let reason: Extract<ChatEvent, { type: "finish" }>["reason"] = "other";
    let usage: GenerateChunk["usageMetadata"];
    const toolCalls = new ToolCallAssembler("Gemini");
    for await (const event of serverSentEvents(response)) {
      let chunk: GenerateChunk;
      try {
        chunk = JSON.parse(event.data) as GenerateChunk;
      } catch {
        throw notJson("Gemini");
      }
      if (chunk.error) throw new ModelCallError(chunk.error.code === 429 ? "quota" : "unavailable", "Gemini", chunk.error.message ?? "the stream reported an error");
      if (chunk.promptFeedback?.blockReason) reason = "content_filter";
      const candidate = chunk.candidates?.[0];
      yield* geminiPartEvents(candidate?.content?.parts ?? [], toolCalls);
      if (candidate?.finishReason) reason = geminiFinishReason(candidate.finishReason, toolCalls);
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
    }
    if (usage) {
      const promptTokens = usage.promptTokenCount ?? 0;
      // Thinking tokens are billed as output.
      const completionTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
      yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: usage.totalTokenCount ?? promptTokens + completionTokens } };
    }
    yield { type: "finish", reason };
  }
}

export class GeminiEmbeddingModel implements EmbeddingModel {
  constructor(private readonly endpoint: GeminiEndpoint) {}

  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const { endpoint } = this;
    const model = `models/${endpoint.model.replace(/^models\//, "")}`;
    const taskType = options.purpose === "query" ? "RETRIEVAL_QUERY" : options.purpose === "document" ? "RETRIEVAL_DOCUMENT" : undefined;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
      const batch = texts.slice(start, start + EMBEDDING_BATCH);
      const answer = await callProviderJson<{ embeddings?: { values: number[] }[] }>({
        provider: "Gemini",
        url: modelPath(endpoint, "batchEmbedContents"),
        outbound: endpoint.outbound,
        headers: { "x-goog-api-key": endpoint.apiKey },
        body: { requests: batch.map((text) => ({ model, content: { parts: [{ text: text || " " }] }, ...(taskType ? { taskType } : {}) })) },
        signal: options.signal,
        timeoutMs: endpoint.timeoutMs,
        classify,
      });
      if (answer.embeddings?.length !== batch.length) {
        throw new ModelCallError("badRequest", "Gemini", `${answer.embeddings?.length ?? 0} vectors for ${batch.length} texts`);
      }
      vectors.push(...answer.embeddings.map((e) => e.values));
    }
    // The embedding API reports no token counts.
    return { vectors };
  }
}

function endpointOf(spec: ModelSpec): GeminiEndpoint {
  return { baseUrl: spec.credentials.baseUrl || GEMINI_BASE_URL, apiKey: spec.credentials.apiKey ?? "", model: spec.modelName, outbound: spec.outbound };
}

/** Google's Gemini API (AI Studio keys). Vertex AI, with service accounts, is its own provider. */
export const gemini: ProviderDefinition = {
  name: "Gemini",
  modelTypes: ["chat", "embedding", "img2txt"],
  credentialFields: apiKeyAndBaseUrl(GEMINI_BASE_URL),
  catalogue: [
    ...catalogueOf(
      "chat",
      [
        ["gemini-2.5-pro", 1048576],
        ["gemini-2.5-flash", 1048576],
        ["gemini-2.5-flash-lite", 1048576],
        ["gemini-2.0-flash", 1048576],
        ["gemini-2.0-flash-lite", 1048576],
      ],
      { vision: true },
    ),
    ...catalogueOf("embedding", [["gemini-embedding-001", 2048], ["text-embedding-004", 2048]]),
    ...catalogueOf("img2txt", [["gemini-2.5-flash", 1048576], ["gemini-2.5-pro", 1048576], ["gemini-2.0-flash", 1048576]], { vision: true }),
  ],
  create(type, spec) {
    const endpoint = endpointOf(spec);
    return pickClient("Gemini", type, {
      chat: () => new GeminiChatModel(endpoint),
      embedding: () => new GeminiEmbeddingModel(endpoint),
      img2txt: () => describeWithChat(new GeminiChatModel(endpoint)),
    });
  },
};
