import crypto from "node:crypto";
import type * as BedrockSdk from "@aws-sdk/client-bedrock-runtime";
import type { DocumentType } from "@smithy/types";
import type { BedrockRuntimeClient, ContentBlock, ConverseStreamOutput, Message, SystemContentBlock, ToolConfiguration } from "@aws-sdk/client-bedrock-runtime";
import { checkDestination, guardedConnection, OutboundRefused, type OutboundPolicy } from "../../platform/outbound";
import { ModelCallError, modelPolicyOr, notJson, refusedCall, type ModelFailure } from "../http";
import { argumentsObject, ToolCallAssembler, toolPlan, TOOLS_AND_JSON, type ToolPlan } from "../chat-tools";
import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions, ModelClients, ModelType, TokenUsage, ToolChoice } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { describeWithChat, pickClient } from "./shared";
import { credential } from "../provider";

const PROVIDER = "Bedrock";

/** The regions offered for Bedrock (§9), in the specification's order. */
export const BEDROCK_REGIONS = ["us-east-1", "us-west-2", "ap-southeast-1", "ap-northeast-1", "eu-central-1", "us-gov-west-1", "ap-southeast-2"] as const;

export interface BedrockOptions {
  /**
   * Where the runtime API is, instead of `bedrock-runtime.{region}.amazonaws.com`. Tests point it at a
   * local server; it is deliberately not a credential field (see the note on `bedrockProvider`).
   */
  endpoint?: string;
  /** The longest Bedrock may stay silent: before it answers, then between two stream events. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * AWS Bedrock: chat (and image description) through the Converse stream API, which speaks one message
 * format for every model family, and embeddings through InvokeModel with the model family's own body
 * (Amazon Titan, Cohere). Requests are signed with SigV4 by the AWS SDK.
 *
 * The endpoint override is a constructor option, not a field of the settings form: the seven regions of
 * §9 are all Bedrock asks a user for, and a form field that silently redirects signed requests
 * elsewhere would be a trap. A VPC endpoint, if ever needed, can become an optional advanced field then.
 */
export function bedrockProvider(options: BedrockOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "embedding", "img2txt"],
    credentialFields: [
      credential("accessKey", "secret", { required: true }),
      credential("secretKey", "secret", { required: true }),
      credential("region", "select", { required: true, options: BEDROCK_REGIONS, default: "us-east-1" }),
    ],
    catalogue: [
      { name: "anthropic.claude-3-5-sonnet-20240620-v1:0", type: "chat", maxTokens: 200_000, vision: true },
      { name: "anthropic.claude-3-haiku-20240307-v1:0", type: "chat", maxTokens: 200_000, vision: true },
      { name: "amazon.nova-pro-v1:0", type: "chat", maxTokens: 300_000, vision: true },
      { name: "amazon.nova-lite-v1:0", type: "chat", maxTokens: 300_000, vision: true },
      { name: "meta.llama3-1-70b-instruct-v1:0", type: "chat", maxTokens: 128_000 },
      { name: "mistral.mistral-large-2407-v1:0", type: "chat", maxTokens: 128_000 },
      { name: "amazon.titan-embed-text-v2:0", type: "embedding", maxTokens: 8_192 },
      { name: "cohere.embed-multilingual-v3", type: "embedding", maxTokens: 512 },
      { name: "cohere.embed-english-v3", type: "embedding", maxTokens: 512 },
      { name: "anthropic.claude-3-5-sonnet-20240620-v1:0", type: "img2txt", maxTokens: 200_000, vision: true },
      { name: "amazon.nova-lite-v1:0", type: "img2txt", maxTokens: 300_000, vision: true },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const call = new BedrockCalls(spec, options);
      // Converse describes tools one way for every model family; whether a model takes them is Bedrock's to say (§ its model table).
      const chat: ChatModel = { capabilities: TOOLS_AND_JSON, stream: (messages, generation) => call.converseStream(messages, generation) };
      return pickClient(PROVIDER, type, {
        chat: () => chat,
        embedding: () => ({ embed: (texts, embedOptions) => call.embed(texts, embedOptions) }),
        img2txt: () => describeWithChat(chat),
      });
    },
  };
}

export const bedrock = bedrockProvider();

// The SDK takes ~100 ms to load (and warns about Node 20 when it does): only when Bedrock is used.
let sdk: typeof BedrockSdk | undefined;
function bedrockSdk(): typeof BedrockSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sdk ??= require("@aws-sdk/client-bedrock-runtime") as typeof BedrockSdk);
}

// One SDK client (and its keep-alive sockets) per key, region, endpoint and outbound policy, rather than one per call.
const sdkClients = new Map<string, BedrockRuntimeClient>();
const MAX_CACHED_CLIENTS = 32;
const policyIds = new WeakMap<OutboundPolicy, number>();
let nextPolicyId = 0;

/** Where the SDK sends a region's requests (it works that out itself; the guard needs it too). */
function runtimeUrl(region: string, endpoint: string | undefined): string {
  return endpoint ?? `https://bedrock-runtime.${region}.amazonaws.com`;
}

function sdkClient(accessKeyId: string, secretAccessKey: string, region: string, endpoint: string | undefined, outbound: OutboundPolicy): BedrockRuntimeClient {
  if (!policyIds.has(outbound)) policyIds.set(outbound, nextPolicyId++);
  const key = crypto.createHash("sha256").update(JSON.stringify([accessKeyId, secretAccessKey, region, endpoint ?? "", policyIds.get(outbound)])).digest("hex");
  let client = sdkClients.get(key);
  if (!client) {
    client = new (bedrockSdk().BedrockRuntimeClient)({
      region,
      endpoint,
      credentials: { accessKeyId, secretAccessKey },
      // Every other provider fails fast and lets the caller (a job, a chat turn) decide; the SDK's own
      // retries would triple a throttled call's wait.
      maxAttempts: 1,
      // The SDK's HTTP/2 sessions connect through the outbound guard, like every other model call.
      requestHandler: {
        disableConcurrentStreams: true,
        nodeHttp2ConnectOptions: guardedConnection(runtimeUrl(region, endpoint), outbound),
      },
    });
    if (sdkClients.size >= MAX_CACHED_CLIENTS) {
      const oldest = sdkClients.keys().next().value as string;
      sdkClients.get(oldest)?.destroy();
      sdkClients.delete(oldest);
    }
    sdkClients.set(key, client);
  }
  return client;
}

const STOP_REASONS: Record<string, Extract<ChatEvent, { type: "finish" }>["reason"]> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool-calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  guardrail_intervened: "content_filter",
  content_filtered: "content_filter",
};

const IMAGE_FORMATS: Record<string, "png" | "jpeg" | "gif" | "webp"> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/**
 * Converse wants the system prompt apart and user/assistant turns that alternate: consecutive turns of one
 * role are merged. Tool results are user turns of toolResult blocks; an assistant's calls, toolUse blocks.
 */
export function converseMessages(messages: ChatMessage[]): { system: SystemContentBlock[]; messages: Message[] } {
  const system: SystemContentBlock[] = [];
  const turns: Message[] = [];
  for (const message of messages) {
    if (message.role === "system") {
      if (message.content) system.push({ text: message.content });
      continue;
    }
    const role = message.role === "tool" ? "user" : message.role;
    const content: ContentBlock[] = [];
    if (message.role === "tool") {
      content.push({ toolResult: { toolUseId: message.toolCallId, content: [{ text: message.content }], ...(message.isError ? { status: "error" } : {}) } });
    }
    for (const image of message.images ?? []) {
      const format = IMAGE_FORMATS[image.mimeType.toLowerCase()];
      if (!format) throw new ModelCallError("badRequest", PROVIDER, `Bedrock accepts PNG, JPEG, GIF and WebP images, not ${image.mimeType}`);
      content.push({ image: { format, source: { bytes: new Uint8Array(image.data) } } });
    }
    if (message.content && message.role !== "tool") content.push({ text: message.content });
    for (const call of message.toolCalls ?? []) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: argumentsObject(call.arguments) as DocumentType } });
    const previous = turns.at(-1);
    if (previous && previous.role === role) previous.content!.push(...content);
    else turns.push({ role, content });
  }
  return { system, messages: turns };
}

function converseToolChoice(choice: ToolChoice): NonNullable<ToolConfiguration["toolChoice"]> | undefined {
  if (choice === "required") return { any: {} };
  if (typeof choice === "object") return { tool: { name: choice.tool } };
  return { auto: {} };
}

/**
 * Converse's toolConfig. It has no "none": such a request offers no tools, unless the history holds tool
 * turns, which Converse refuses without a toolConfig; then the tools go with no choice and the model decides.
 */
function toolConfiguration(plan: ToolPlan, turns: Message[]): ToolConfiguration | undefined {
  if (plan.tools.length === 0) return undefined;
  const historyHasTools = turns.some((turn) => turn.content?.some((block) => block.toolUse || block.toolResult));
  if (plan.choice === "none" && !historyHasTools) return undefined;
  return {
    tools: plan.tools.map((tool) => ({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters as DocumentType } } })),
    toolChoice: plan.choice && plan.choice !== "none" ? converseToolChoice(plan.choice) : undefined,
  };
}

class BedrockCalls {
  private readonly timeoutMs: number;

  constructor(
    private readonly spec: ModelSpec,
    private readonly options: BedrockOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * The SDK client, checked before each call, inside its error handling: the SDK reports a connection
   * the guard refused only as a cancelled HTTP/2 stream, so the endpoint is checked first for a clear
   * error (and again by the guard when the SDK connects).
   */
  private async client(): Promise<BedrockRuntimeClient> {
    const { accessKey = "", secretKey = "", region = "us-east-1" } = this.spec.credentials;
    const outbound = modelPolicyOr(this.spec.outbound);
    await checkDestination(runtimeUrl(region, this.options.endpoint), outbound);
    return sdkClient(accessKey, secretKey, region, this.options.endpoint, outbound);
  }

  async *converseStream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const { system, messages: turns } = converseMessages(messages);
    const plan = toolPlan(options);
    const limit = this.limit(options.signal);
    try {
      const output = await (await this.client()).send(
        new (bedrockSdk().ConverseStreamCommand)({
          modelId: this.spec.modelName,
          messages: turns,
          system: system.length > 0 ? system : undefined,
          inferenceConfig: {
            maxTokens: options.maxTokens,
            temperature: options.temperature,
            topP: options.topP,
            stopSequences: options.stop?.length ? options.stop : undefined,
          },
          toolConfig: toolConfiguration(plan, turns),
        }),
        { abortSignal: limit.signal },
      );
      if (!output.stream) throw new ModelCallError("badRequest", PROVIDER, "the answer has no event stream");
      const toolCalls = new ToolCallAssembler(PROVIDER);
      // The content blocks of the forced answer tool, whose input is passed on as the answer's text.
      const answerBlocks = new Set<number>();
      for await (const event of watchedEvents<ConverseStreamOutput>(output.stream, limit)) {
        const exception =
          event.throttlingException ?? event.validationException ?? event.modelStreamErrorException ?? event.internalServerException ?? event.serviceUnavailableException;
        if (exception) throw exception;
        const block = event.contentBlockStart?.contentBlockIndex ?? event.contentBlockDelta?.contentBlockIndex ?? event.contentBlockStop?.contentBlockIndex ?? 0;
        const toolUse = event.contentBlockStart?.start?.toolUse;
        if (toolUse) {
          if (toolUse.name === plan.answerTool) answerBlocks.add(block);
          else yield* toolCalls.add(block, { id: toolUse.toolUseId, name: toolUse.name });
        } else if (event.contentBlockDelta?.delta?.toolUse?.input) {
          const input = event.contentBlockDelta.delta.toolUse.input;
          if (answerBlocks.has(block)) yield { type: "delta", text: input };
          else yield* toolCalls.add(block, { arguments: input });
        } else if (event.contentBlockStop) {
          const call = toolCalls.take(block);
          if (call) yield call;
        } else if (event.contentBlockDelta?.delta?.text) {
          yield { type: "delta", text: event.contentBlockDelta.delta.text };
        } else if (event.messageStop) {
          yield* toolCalls.finish();
          const reason = STOP_REASONS[event.messageStop.stopReason ?? ""] ?? "other";
          // A turn that only gave the forced answer ended as an answer does.
          yield { type: "finish", reason: reason === "tool-calls" && !toolCalls.called ? "stop" : reason };
        } else if (event.metadata?.usage) {
          const { inputTokens = 0, outputTokens = 0, totalTokens } = event.metadata.usage;
          yield { type: "usage", usage: { promptTokens: inputTokens, completionTokens: outputTokens, totalTokens: totalTokens ?? inputTokens + outputTokens } };
        }
      }
    } catch (error) {
      throw limit.failure(error);
    } finally {
      limit.dispose();
    }
  }

  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}) {
    const model = this.spec.modelName;
    if (model.includes("cohere.embed")) return this.embedCohere(texts, options.purpose ?? "document", options.signal);
    if (model.includes("amazon.titan-embed")) return this.embedTitan(texts, options.signal);
    throw new ModelCallError("badRequest", PROVIDER, `${model}: only Amazon Titan and Cohere embedding models are supported on Bedrock`);
  }

  /** One InvokeModel call with its own time limit, answered with the model family's JSON. */
  private async invoke(body: unknown, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const limit = this.limit(signal);
    let text: string;
    try {
      const output = await (await this.client()).send(
        new (bedrockSdk().InvokeModelCommand)({ modelId: this.spec.modelName, contentType: "application/json", accept: "application/json", body: JSON.stringify(body) }),
        { abortSignal: limit.signal },
      );
      text = new TextDecoder().decode(output.body);
    } catch (error) {
      throw limit.failure(error);
    } finally {
      limit.dispose();
    }
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw notJson(PROVIDER);
    }
  }

  /** Titan embeds one text per call; a few calls run at once. */
  private async embedTitan(texts: string[], signal: AbortSignal | undefined) {
    const vectors: number[][] = new Array(texts.length);
    let promptTokens = 0;
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const index = next++;
        const answer = await this.invoke({ inputText: texts[index] }, signal);
        vectors[index] = answer.embedding as number[];
        promptTokens += Number(answer.inputTextTokenCount ?? 0);
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, texts.length) }, worker));
    return { vectors, usage: tokens(promptTokens) };
  }

  /** Cohere on Bedrock takes up to 96 texts per call and embeds queries and documents differently. */
  private async embedCohere(texts: string[], purpose: "query" | "document", signal: AbortSignal | undefined) {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += 96) {
      const answer = await this.invoke(
        { texts: texts.slice(start, start + 96), input_type: purpose === "query" ? "search_query" : "search_document", truncate: "END" },
        signal,
      );
      // v3 answers a list of vectors; embed-v4 answers them by type ({ float: [...] }).
      const embeddings = answer.embeddings as number[][] | { float: number[][] };
      vectors.push(...(Array.isArray(embeddings) ? embeddings : embeddings.float));
    }
    return { vectors };
  }

  /**
   * The caller's signal joined with a silence limit, as callProvider has it: the SDK call, and then each
   * wait for the next stream event, may last at most `timeoutMs`; a stream that keeps flowing is never cut.
   */
  private limit(callerSignal?: AbortSignal) {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const disarm = () => clearTimeout(timer);
    const arm = () => {
      disarm();
      timer = setTimeout(() => {
        expired = true;
        controller.abort(new Error("timeout"));
      }, this.timeoutMs);
    };
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    arm();
    return {
      signal: controller.signal,
      arm,
      disarm,
      failure: (error: unknown): unknown => {
        if (error instanceof ModelCallError) return error;
        if (callerSignal?.aborted) return error;
        if (expired) return new ModelCallError("timeout", PROVIDER, `no answer within ${this.timeoutMs} ms`);
        return bedrockFailure(error);
      },
      dispose: () => {
        disarm();
        callerSignal?.removeEventListener("abort", onCallerAbort);
      },
    };
  }
}

function tokens(promptTokens: number): TokenUsage {
  return { promptTokens, completionTokens: 0, totalTokens: promptTokens };
}

/**
 * The events of a stream with the silence clock running only while Cairn waits for the next one, and
 * the wait given up once the signal fires (the SDK's stream itself would wait on).
 */
async function* watchedEvents<T>(iterable: AsyncIterable<T>, limit: { signal: AbortSignal; arm(): void; disarm(): void }): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  const { signal } = limit;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    while (true) {
      limit.arm();
      const next = await Promise.race([iterator.next(), aborted]);
      limit.disarm();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    void iterator.return?.();
  }
}

const FAILURES_BY_NAME: Record<string, ModelFailure> = {
  UnrecognizedClientException: "auth",
  InvalidSignatureException: "auth",
  AccessDeniedException: "auth",
  ExpiredTokenException: "auth",
  IncompleteSignature: "auth",
  MissingAuthenticationTokenException: "auth",
  ThrottlingException: "quota",
  ServiceQuotaExceededException: "quota",
  ResourceNotFoundException: "notFound",
  ModelTimeoutException: "timeout",
  ServiceUnavailableException: "unavailable",
  InternalServerException: "unavailable",
  ModelNotReadyException: "unavailable",
  ModelErrorException: "unavailable",
  ModelStreamErrorException: "unavailable",
  ValidationException: "badRequest",
};

const NETWORK_CODE = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;

/** What the SDK threw, as a ModelCallError: by the AWS error name first, then the HTTP status, then the socket error. */
export function bedrockFailure(error: unknown): ModelCallError {
  if (error instanceof OutboundRefused) return refusedCall(error, PROVIDER);
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string }; $metadata?: { httpStatusCode?: number } };
  const message = e.message ?? String(error);
  const name = e.name ?? "";
  if (name === "TimeoutError" || e.code === "ETIMEDOUT") return new ModelCallError("timeout", PROVIDER, message);
  // The HTTP/2 handler wraps socket errors ("… caused by: connect ECONNREFUSED 127.0.0.1:…").
  const socketCode = NETWORK_CODE.exec([e.code, e.cause?.code, message].join(" "))?.[1];
  if (socketCode && e.$metadata?.httpStatusCode === undefined) return new ModelCallError("network", PROVIDER, socketCode);
  let reason: ModelFailure | undefined = FAILURES_BY_NAME[name];
  // Bedrock answers an unknown model id with a ValidationException, not a 404.
  if (reason === "badRequest" && /model identifier is invalid|model.*(not found|doesn't exist|does not exist|not supported)/i.test(message)) reason = "notFound";
  if (!reason) {
    const status = e.$metadata?.httpStatusCode;
    if (status === 401 || status === 403) reason = "auth";
    else if (status === 429) reason = "quota";
    else if (status === 404) reason = "notFound";
    else if (status !== undefined && status >= 500) reason = "unavailable";
    else if (status !== undefined) reason = "badRequest";
    else return new ModelCallError("network", PROVIDER, `${name}: ${message}`);
  }
  return new ModelCallError(reason, PROVIDER, name ? `${name}: ${message}` : message);
}
