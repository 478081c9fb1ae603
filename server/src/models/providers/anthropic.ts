import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, joinUrl, ModelCallError, notJson, serverSentEvents, type ModelFailure } from "../http";
import { argumentsObject, ToolCallAssembler, toolPlan, TOOLS_AND_JSON } from "../chat-tools";
import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions, TokenUsage, ToolChoice } from "../model-types";
import { apiKeyAndBaseUrl, type ModelSpec, type ProviderDefinition } from "../provider";
import { catalogueOf, describeWithChat, pickClient } from "./shared";

const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

export interface AnthropicEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  outbound?: OutboundPolicy;
}

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean };

function anthropicContent(message: ChatMessage): string | ContentBlock[] {
  if (message.role === "tool") {
    return [{ type: "tool_result", tool_use_id: message.toolCallId ?? "", content: message.content, ...(message.isError ? { is_error: true } : {}) }];
  }
  if (!message.images?.length && !message.toolCalls?.length) return message.content;
  return [
    ...(message.images ?? []).map((image): ContentBlock => ({ type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data.toString("base64") } })),
    ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
    ...(message.toolCalls ?? []).map((call): ContentBlock => ({ type: "tool_use", id: call.id, name: call.name, input: argumentsObject(call.arguments) })),
  ];
}

/** The turns of the Messages API: tool results are user turns, and the results of parallel calls go in one. */
function anthropicMessages(messages: ChatMessage[]): { role: "user" | "assistant"; content: string | ContentBlock[] }[] {
  const turns: { role: "user" | "assistant"; content: string | ContentBlock[] }[] = [];
  const onlyResults = (content: string | ContentBlock[]): content is ContentBlock[] => Array.isArray(content) && content.every((b) => b.type === "tool_result");
  for (const message of messages) {
    if (message.role === "system") continue;
    const content = anthropicContent(message);
    const previous = turns.at(-1);
    if (message.role === "tool" && previous?.role === "user" && onlyResults(previous.content)) {
      previous.content.push(...(content as ContentBlock[]));
    } else {
      turns.push({ role: message.role === "assistant" ? "assistant" : "user", content });
    }
  }
  return turns;
}

function anthropicToolChoice(choice: ToolChoice): Record<string, unknown> {
  if (choice === "required") return { type: "any" };
  if (typeof choice === "object") return { type: "tool", name: choice.tool };
  return { type: choice };
}

// The Messages API requires max_tokens. Claude 3 (not 3.5 or later) stops at 4096 output tokens.
function defaultMaxTokens(model: string): number {
  return /^claude-3-(opus|sonnet|haiku)/.test(model) ? 4096 : 8192;
}

function finishReason(reason: string | null | undefined): Extract<ChatEvent, { type: "finish" }>["reason"] {
  if (reason === "end_turn" || reason === "stop_sequence") return "stop";
  if (reason === "max_tokens" || reason === "model_context_window_exceeded") return "length";
  if (reason === "refusal") return "content_filter";
  if (reason === "tool_use") return "tool-calls";
  return "other";
}

// Errors inside a stream carry only their type.
const STREAM_FAILURES: Record<string, ModelFailure> = {
  authentication_error: "auth",
  permission_error: "auth",
  rate_limit_error: "quota",
  not_found_error: "notFound",
  invalid_request_error: "badRequest",
  request_too_large: "badRequest",
  overloaded_error: "unavailable",
  api_error: "unavailable",
};

interface StreamEvent {
  type: string;
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  message?: { usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number } };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { output_tokens?: number; input_tokens?: number };
  error?: { type?: string; message?: string };
}

/**
 * Anthropic Messages over SSE: message_start carries the input tokens, content_block_delta the text,
 * message_delta the stop reason and the output tokens so far. A tool_use block streams its input as
 * input_json_delta fragments; a JSON answer is the input of a tool the model is made to call.
 */
export class AnthropicChatModel implements ChatModel {
  readonly capabilities = TOOLS_AND_JSON;

  constructor(private readonly endpoint: AnthropicEndpoint) {}

  async *stream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { endpoint } = this;
    // The system prompt is a top-level field, not a message.
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const body: Record<string, unknown> = {
      model: endpoint.model,
      max_tokens: options.maxTokens ?? defaultMaxTokens(endpoint.model),
      messages: anthropicMessages(messages),
      stream: true,
    };
    if (system) body.system = system;
    const plan = toolPlan(options);
    if (plan.tools.length > 0) {
      body.tools = plan.tools.map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), input_schema: tool.parameters }));
      if (plan.choice) body.tool_choice = anthropicToolChoice(plan.choice);
    }
    // Recent models refuse temperature and top_p together; temperature is the one assistants set.
    if (options.temperature !== undefined) body.temperature = options.temperature;
    else if (options.topP !== undefined) body.top_p = options.topP;
    if (options.stop?.length) body.stop_sequences = options.stop;
    const response = await callProvider({
      provider: "Anthropic",
      url: joinUrl(endpoint.baseUrl, "v1/messages"),
      outbound: endpoint.outbound,
      headers: { "x-api-key": endpoint.apiKey, "anthropic-version": ANTHROPIC_VERSION },
      body,
      signal: options.signal,
      timeoutMs: endpoint.timeoutMs,
    });
    let inputTokens = 0;
    let outputTokens = 0;
    let sawUsage = false;
    let reason: Extract<ChatEvent, { type: "finish" }>["reason"] = "other";
    let thinking = false;
    const toolCalls = new ToolCallAssembler("Anthropic");
    // The content blocks of the forced answer tool, whose input is passed on as the answer's text.
    const answerBlocks = new Set<number>();
    for await (const sse of serverSentEvents(response)) {
      let event: StreamEvent;
      try {
        event = JSON.parse(sse.data) as StreamEvent;
      } catch {
        throw notJson("Anthropic");
      }
      if (event.type === "error") {
        throw new ModelCallError(STREAM_FAILURES[event.error?.type ?? ""] ?? "unavailable", "Anthropic", event.error?.message ?? "the stream reported an error");
      } else if (event.type === "message_start") {
        const usage = event.message?.usage;
        if (usage) {
          sawUsage = true;
          inputTokens = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
          outputTokens = usage.output_tokens ?? 0;
        }
      } else if (event.type === "content_block_start" && event.content_block?.type === "tool_use") {
        const index = event.index ?? 0;
        if (event.content_block.name === plan.answerTool) answerBlocks.add(index);
        else yield* toolCalls.add(index, { id: event.content_block.id, name: event.content_block.name });
      } else if (event.type === "content_block_stop") {
        const call = toolCalls.take(event.index ?? 0);
        if (call) yield call;
      } else if (event.type === "content_block_delta") {
        if (event.delta?.type === "input_json_delta" && event.delta.partial_json) {
          if (answerBlocks.has(event.index ?? 0)) yield { type: "delta", text: event.delta.partial_json };
          else yield* toolCalls.add(event.index ?? 0, { arguments: event.delta.partial_json });
        } else if (event.delta?.type === "thinking_delta" && event.delta.thinking) {
          if (!thinking) yield { type: "delta", text: "<think>" };
          thinking = true;
          yield { type: "delta", text: event.delta.thinking };
        } else if (event.delta?.type === "text_delta" && event.delta.text) {
          if (thinking) yield { type: "delta", text: "</think>" };
          thinking = false;
          yield { type: "delta", text: event.delta.text };
        }
      } else if (event.type === "message_delta") {
        if (event.delta?.stop_reason) reason = finishReason(event.delta.stop_reason);
        // Cumulative: the output tokens so far, not an increment.
        if (event.usage?.output_tokens !== undefined) {
          sawUsage = true;
          outputTokens = event.usage.output_tokens;
        }
      } else if (event.type === "message_stop") {
        break;
      }
    }
    if (thinking) yield { type: "delta", text: "</think>" };
    yield* toolCalls.finish();
    // A turn that only gave the forced answer ended as an answer does.
    if (reason === "tool-calls" && !toolCalls.called) reason = "stop";
    if (sawUsage) {
      const usage: TokenUsage = { promptTokens: inputTokens, completionTokens: outputTokens, totalTokens: inputTokens + outputTokens };
      yield { type: "usage", usage };
    }
    yield { type: "finish", reason };
  }
}

function endpointOf(spec: ModelSpec): AnthropicEndpoint {
  // The paths below carry the version; a base URL copied with /v1 on its end must not double it.
  const baseUrl = (spec.credentials.baseUrl || ANTHROPIC_BASE_URL).replace(/\/v1\/?$/, "");
  return { baseUrl, apiKey: spec.credentials.apiKey ?? "", model: spec.modelName, outbound: spec.outbound };
}

/** Anthropic's Claude models through the Messages API; every current Claude model reads images. */
export const anthropic: ProviderDefinition = {
  name: "Anthropic",
  modelTypes: ["chat", "img2txt"],
  credentialFields: apiKeyAndBaseUrl(ANTHROPIC_BASE_URL),
  catalogue: [
    ...catalogueOf(
      "chat",
      [
        ["claude-sonnet-4-5-20250929", 200000],
        ["claude-opus-4-1-20250805", 200000],
        ["claude-opus-4-20250514", 200000],
        ["claude-sonnet-4-20250514", 200000],
        ["claude-haiku-4-5-20251001", 200000],
        ["claude-3-7-sonnet-20250219", 200000],
      ],
      { vision: true },
    ),
    ...catalogueOf("chat", [["claude-3-5-haiku-20241022", 200000]]),
    ...catalogueOf("img2txt", [["claude-sonnet-4-5-20250929", 200000], ["claude-sonnet-4-20250514", 200000], ["claude-haiku-4-5-20251001", 200000]], { vision: true }),
  ],
  create(type, spec) {
    const endpoint = endpointOf(spec);
    return pickClient("Anthropic", type, {
      chat: () => new AnthropicChatModel(endpoint),
      img2txt: () => describeWithChat(new AnthropicChatModel(endpoint)),
    });
  },
};
