import { ModelCallError, serverSentEvents } from "../http";
import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions, ModelClients, ModelType } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { describeWithChat, pickClient } from "./shared";
import { callTencentApi, readTencentResponse, tencentFailure, type TencentError } from "./tencent-cloud-api";
import { credential } from "../provider";

const PROVIDER = "Tencent Hunyuan";
const ENDPOINT = "https://hunyuan.tencentcloudapi.com";

export interface HunyuanOptions {
  /** Replaces https://hunyuan.tencentcloudapi.com (tests); the host is part of the signature. */
  endpoint?: string;
  timeoutMs?: number;
}

/** Tencent Hunyuan through Tencent Cloud API 3.0 (ChatCompletions, version 2023-09-01), streamed. */
export function tencentHunyuanProvider(options: HunyuanOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "img2txt"],
    credentialFields: [
      credential("secretId", "secret", { required: true }),
      credential("secretKey", "secret", { required: true }),
    ],
    catalogue: [
      { name: "hunyuan-turbos-latest", type: "chat", maxTokens: 32_000 },
      { name: "hunyuan-pro", type: "chat", maxTokens: 32_000 },
      { name: "hunyuan-standard", type: "chat", maxTokens: 32_000 },
      { name: "hunyuan-standard-256K", type: "chat", maxTokens: 256_000 },
      { name: "hunyuan-lite", type: "chat", maxTokens: 256_000 },
      { name: "hunyuan-vision", type: "img2txt", maxTokens: 8_000, vision: true },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const chat: ChatModel = { stream: (messages, generation) => streamChat(spec, options, messages, generation) };
      return pickClient(PROVIDER, type, { chat: () => chat, img2txt: () => describeWithChat(chat) });
    },
  };
}

export const tencentHunyuan = tencentHunyuanProvider();

interface HunyuanChunk {
  Choices?: { Delta?: { Content?: string }; FinishReason?: string }[];
  Usage?: { PromptTokens?: number; CompletionTokens?: number; TotalTokens?: number };
  /** An error that happened after the stream started. */
  ErrorMsg?: { Code?: number | string; Msg?: string };
}

const FINISH_REASONS: Record<string, Extract<ChatEvent, { type: "finish" }>["reason"]> = {
  stop: "stop",
  length: "length",
  sensitive: "content_filter",
};

/** Hunyuan's Messages: Role and Content, or Contents (text and image_url parts) for a message with images. */
function hunyuanMessages(messages: ChatMessage[]) {
  return messages.map((message) =>
    message.images?.length
      ? {
          Role: message.role,
          Contents: [
            ...message.images.map((image) => ({ Type: "image_url", ImageUrl: { Url: `data:${image.mimeType};base64,${image.data.toString("base64")}` } })),
            { Type: "text", Text: message.content },
          ],
        }
      : { Role: message.role, Content: message.content },
  );
}

async function* streamChat(spec: ModelSpec, options: HunyuanOptions, messages: ChatMessage[], generation: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
  const response = await callTencentApi({
    provider: PROVIDER,
    endpoint: options.endpoint ?? ENDPOINT,
    service: "hunyuan",
    action: "ChatCompletions",
    version: "2023-09-01",
    secretId: spec.credentials.secretId ?? "",
    secretKey: spec.credentials.secretKey ?? "",
    payload: {
      Model: spec.modelName,
      Messages: hunyuanMessages(messages),
      Stream: true,
      Temperature: generation.temperature,
      TopP: generation.topP,
    },
    timeoutMs: options.timeoutMs,
    signal: generation.signal,
    outbound: spec.outbound,
  });
  // Refusals (bad signature, unknown model, arrears) arrive as a JSON answer instead of the stream.
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    readTencentResponse(PROVIDER, await response.text());
    throw new ModelCallError("badRequest", PROVIDER, "the answer is neither a stream nor an error");
  }
  let finish: Extract<ChatEvent, { type: "finish" }>["reason"] | undefined;
  let usage: HunyuanChunk["Usage"];
  for await (const event of serverSentEvents(response)) {
    const chunk = JSON.parse(event.data) as HunyuanChunk;
    if (chunk.ErrorMsg?.Msg) throw tencentFailure(PROVIDER, { Code: String(chunk.ErrorMsg.Code ?? ""), Message: chunk.ErrorMsg.Msg } satisfies TencentError);
    const choice = chunk.Choices?.[0];
    if (choice?.Delta?.Content) yield { type: "delta", text: choice.Delta.Content };
    if (choice?.FinishReason) finish = FINISH_REASONS[choice.FinishReason] ?? "other";
    // Each chunk carries the usage so far.
    if (chunk.Usage) usage = chunk.Usage;
  }
  if (finish) yield { type: "finish", reason: finish };
  if (usage) {
    const promptTokens = usage.PromptTokens ?? 0;
    const completionTokens = usage.CompletionTokens ?? 0;
    yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: usage.TotalTokens ?? promptTokens + completionTokens } };
  }
}
