import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, callProviderJson, joinUrl, jsonLines, ModelCallError } from "../http";
import { argumentsObject, ToolCallAssembler, TOOLS_AND_JSON } from "../chat-tools";
import type { ChatEvent, ChatMessage, ChatModel, EmbeddingModel, EmbeddingResult, GenerationOptions } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { catalogueOf, describeWithChat, pickClient } from "./shared";
import { credential } from "../provider";

export interface OllamaEndpoint {
  baseUrl: string;
  /** Ollama itself has no keys; a proxy in front of it may want one. */
  apiKey?: string;
  model: string;
  /** The context window to ask for (num_ctx); Ollama's own default is small and cuts long prompts silently. */
  contextTokens?: number;
  timeoutMs?: number;
  outbound?: OutboundPolicy;
}

function headers(endpoint: OllamaEndpoint): Record<string, string> {
  return endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};
}

function ollamaMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === "tool") return { role: "tool", tool_name: message.toolName, content: message.content };
  return {
    role: message.role,
    content: message.content,
    ...(message.images?.length ? { images: message.images.map((image) => image.data.toString("base64")) } : {}),
    // Ollama takes a call's arguments as an object, not as JSON text.
    ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((call) => ({ function: { name: call.name, arguments: argumentsObject(call.arguments) } })) } : {}),
  };
}

/**
 * Ollama has no tool choice: "none" offers no tools and a named tool is the only one offered; "required"
 * cannot be enforced, and the model may still answer in text.
 */
function offeredTools(options: GenerationOptions): Record<string, unknown> {
  const choice = options.toolChoice;
  if (!options.tools?.length || choice === "none") return {};
  const tools = typeof choice === "object" ? options.tools.filter((tool) => tool.name === choice.tool) : options.tools;
  return {
    tools: tools.map((tool) => ({ type: "function", function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters } })),
  };
}

/** `format`: a JSON Schema the answer must match, or "json" for any JSON. */
function answerFormat(options: GenerationOptions): Record<string, unknown> {
  const format = options.responseFormat;
  return format?.type === "json" ? { format: format.schema ?? "json" } : {};
}

interface ChatLine {
  message?: { content?: string; thinking?: string; tool_calls?: { id?: string; function?: { name?: string; arguments?: Record<string, unknown> } }[] };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/**
 * Ollama's native /api/chat: one JSON object per line, the last with done, the reason and the counts.
 * Tool calls come whole, each in the line where the model finished it.
 */
export class OllamaChatModel implements ChatModel {
  /** Whether the served model takes tools is Ollama's to say: it refuses tools for a model without them. */
  readonly capabilities = TOOLS_AND_JSON;

  constructor(private readonly endpoint: OllamaEndpoint) {}

  async *stream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { endpoint } = this;
    const modelOptions: Record<string, unknown> = {
      temperature: options.temperature,
      top_p: options.topP,
      presence_penalty: options.presencePenalty,
      frequency_penalty: options.frequencyPenalty,
      num_predict: options.maxTokens,
      stop: options.stop?.length ? options.stop : undefined,
      num_ctx: endpoint.contextTokens,
    };
    const response = await callProvider({
      provider: "Ollama",
      url: joinUrl(endpoint.baseUrl, "api/chat"),
      outbound: endpoint.outbound,
      headers: headers(endpoint),
      body: {
        model: endpoint.model,
        messages: messages.map(ollamaMessage),
        stream: true,
        options: Object.fromEntries(Object.entries(modelOptions).filter(([, v]) => v !== undefined)),
        ...offeredTools(options),
        ...answerFormat(options),
      },
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    let thinking = false;
    let reason: Extract<ChatEvent, { type: "finish" }>["reason"] = "other";
    let last: ChatLine | undefined;
    const toolCalls = new ToolCallAssembler("Ollama");
    for await (const line of jsonLines<ChatLine>(response, "Ollama")) {
      if (line.error) throw new ModelCallError("unavailable", "Ollama", line.error);
      if (line.message?.thinking) {
        if (!thinking) yield { type: "delta", text: "<think>" };
        thinking = true;
        yield { type: "delta", text: line.message.thinking };
      }
      if (line.message?.content) {
        if (thinking) yield { type: "delta", text: "</think>" };
        thinking = false;
        yield { type: "delta", text: line.message.content };
      }
      for (const call of line.message?.tool_calls ?? []) {
        yield* toolCalls.whole({ id: call.id, name: call.function?.name, arguments: JSON.stringify(call.function?.arguments ?? {}) });
      }
      if (line.done) {
        last = line;
        // Ollama ends a turn of tool calls with "stop".
        reason = line.done_reason === "stop" ? (toolCalls.called ? "tool-calls" : "stop") : line.done_reason === "length" ? "length" : "other";
        break;
      }
    }
    if (thinking) yield { type: "delta", text: "</think>" };
    if (last && (last.prompt_eval_count !== undefined || last.eval_count !== undefined)) {
      const promptTokens = last.prompt_eval_count ?? 0;
      const completionTokens = last.eval_count ?? 0;
      yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens } };
    }
    yield { type: "finish", reason };
  }
}

/** /api/embed, which takes a list (the older /api/embeddings took one text per call). */
export class OllamaEmbeddingModel implements EmbeddingModel {
  constructor(private readonly endpoint: OllamaEndpoint) {}

  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { vectors: [] };
    const { endpoint } = this;
    const answer = await callProviderJson<{ embeddings?: number[][]; prompt_eval_count?: number }>({
      provider: "Ollama",
      url: joinUrl(endpoint.baseUrl, "api/embed"),
      outbound: endpoint.outbound,
      headers: headers(endpoint),
      body: { model: endpoint.model, input: texts, truncate: true },
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    if (answer.embeddings?.length !== texts.length) {
      throw new ModelCallError("badRequest", "Ollama", `${answer.embeddings?.length ?? 0} vectors for ${texts.length} texts`);
    }
    const tokens = answer.prompt_eval_count;
    return { vectors: answer.embeddings, usage: tokens === undefined ? undefined : { promptTokens: tokens, completionTokens: 0, totalTokens: tokens } };
  }
}

function endpointOf(spec: ModelSpec): OllamaEndpoint {
  if (!spec.credentials.baseUrl) throw new ModelCallError("badRequest", "Ollama", "no base URL is set");
  // People paste the OpenAI-compatible address (…/v1) or the API root (…/api); the native paths start above both.
  const baseUrl = spec.credentials.baseUrl.replace(/\/(v1|api)\/?$/, "");
  // The entry's token limit is the model's context size (RAGFlow's "max tokens"): ask Ollama for that window.
  return { baseUrl, apiKey: spec.credentials.apiKey, model: spec.modelName, contextTokens: spec.maxTokens, outbound: spec.outbound };
}

/** Models served by Ollama on the user's machine or network: no key, a base URL such as http://localhost:11434. */
export const ollama: ProviderDefinition = {
  name: "Ollama",
  modelTypes: ["chat", "embedding", "img2txt"],
  credentialFields: [
    credential("apiKey", "secret", { help: "models.fields.apiKey.helpOptional" }),
    credential("baseUrl", "url", { required: true }),
  ],
  catalogue: [
    ...catalogueOf("chat", [["llama3.1", 131072], ["llama3.2", 131072], ["qwen3", 40960], ["qwen2.5", 32768], ["deepseek-r1", 131072], ["mistral", 32768]]),
    ...catalogueOf("chat", [["gemma3", 131072]], { vision: true }),
    ...catalogueOf("embedding", [["nomic-embed-text", 8192], ["bge-m3", 8192], ["mxbai-embed-large", 512], ["all-minilm", 256]]),
    ...catalogueOf("img2txt", [["llama3.2-vision", 131072], ["qwen2.5vl", 128000], ["llava", 4096], ["gemma3", 131072]], { vision: true }),
  ],
  create(type, spec) {
    const endpoint = endpointOf(spec);
    return pickClient("Ollama", type, {
      chat: () => new OllamaChatModel(endpoint),
      embedding: () => new OllamaEmbeddingModel(endpoint),
      img2txt: () => describeWithChat(new OllamaChatModel(endpoint)),
    });
  },
};
