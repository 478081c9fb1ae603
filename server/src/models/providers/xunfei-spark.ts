import crypto from "node:crypto";
import WebSocket from "ws";
import type { FieldProblem } from "../../platform/errors";
import { guardedConnection, OutboundRefused } from "../../platform/outbound";
import { callProvider, joinUrl, ModelCallError, modelPolicyOr, refusedCall, serverSentEvents, vendorMessage, type ModelFailure } from "../http";
import type { ChatEvent, ChatMessage, GenerationOptions, ModelClients, ModelType, SpeechResult, TokenUsage } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { pickClient } from "./shared";
import { credential } from "../provider";

const PROVIDER = "XunFei Spark";
const CHAT_BASE_URL = "https://spark-api-open.xf-yun.com/v1";
const TTS_URL = "wss://tts-api.xfyun.cn/v2/tts";
const DEFAULT_TIMEOUT_MS = 120_000;

export interface SparkOptions {
  /** Replaces https://spark-api-open.xf-yun.com/v1 (tests). */
  chatBaseUrl?: string;
  /** Replaces wss://tts-api.xfyun.cn/v2/tts (tests); its host and path are part of the signature. */
  ttsUrl?: string;
  timeoutMs?: number;
}

/**
 * iFlytek Spark. Of the four credentials of §3 each API uses its own: chat goes to Spark's HTTP
 * endpoint, which speaks the OpenAI chat protocol and takes the model's APIPassword as bearer token
 * (the older WebSocket chat API, signed with app id, API key and secret, is not used: the HTTP one
 * serves the same models more simply); speech synthesis goes to the online TTS WebSocket, which is
 * signed with the API key and secret (HMAC-SHA256 over host, date and request line) and names the app id.
 */
export function xunfeiSparkProvider(options: SparkOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "tts"],
    credentialFields: [
      credential("appId", "string"),
      credential("apiKey", "secret", { help: "models.fields.apiKey.helpOptional" }),
      credential("apiSecret", "secret"),
      credential("apiPassword", "secret"),
    ],
    catalogue: [
      { name: "Spark-4.0-Ultra", type: "chat", maxTokens: 8_192 },
      { name: "Spark-Max", type: "chat", maxTokens: 8_192 },
      { name: "Spark-Max-32K", type: "chat", maxTokens: 32_768 },
      { name: "Spark-Pro", type: "chat", maxTokens: 8_192 },
      { name: "Spark-Pro-128K", type: "chat", maxTokens: 131_072 },
      { name: "Spark-Lite", type: "chat", maxTokens: 4_096 },
      { name: "xiaoyan", type: "tts" },
      { name: "aisjiuxu", type: "tts" },
      { name: "aisxping", type: "tts" },
      { name: "aisjinger", type: "tts" },
    ],
    // Which credentials are needed depends on the model type, which the form checks field by field only:
    // chat needs the API password, speech the app id, key and secret. Either complete set is accepted.
    validate(credentials): FieldProblem[] {
      if (credentials.apiPassword) return [];
      const missing = (["appId", "apiKey", "apiSecret"] as const).filter((name) => !credentials[name]);
      if (missing.length === 0) return [];
      return [...(missing.length === 3 ? ["apiPassword" as const] : missing)].map((field) => ({ field, messageKey: "errors.model.fieldRequired", params: { field } }));
    },
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      return pickClient(PROVIDER, type, {
        chat: () => ({ stream: (messages, generation) => streamChat(spec, options, messages, generation) }),
        tts: () => ({ synthesize: (text, ttsOptions) => synthesize(spec, options, text, ttsOptions) }),
      });
    },
  };
}

export const xunfeiSpark = xunfeiSparkProvider();

/** Console names → the `model` of the HTTP API (the "domain" of the WebSocket one); other names are sent as given. */
const SPARK_MODELS: Record<string, string> = {
  "Spark-Lite": "lite",
  "Spark-Pro": "generalv3",
  "Spark-Pro-128K": "pro-128k",
  "Spark-Max": "generalv3.5",
  "Spark-Max-32K": "max-32k",
  "Spark-4.0-Ultra": "4.0Ultra",
};

/**
 * Spark's own error codes, which arrive with HTTP 200 in the body or in a stream event
 * (www.xfyun.cn/doc/spark/HTTP调用文档.html#_4-错误码说明, …/tts/online_tts/API.html).
 */
function sparkFailure(code: number, message: string): ModelCallError {
  let reason: ModelFailure = "badRequest";
  if ([10105, 10106, 10313, 11200].includes(code)) reason = "auth";
  else if ([10007, 11201, 11202, 11203, 10019].includes(code)) reason = "quota";
  else if ([10110, 10200, 10114].includes(code)) reason = "timeout";
  else if (code === 10404) reason = "notFound";
  else if (code >= 10000 && code < 10100) reason = "unavailable";
  return new ModelCallError(reason, PROVIDER, `${code}: ${message}`);
}

const FINISH_REASONS: Record<string, Extract<ChatEvent, { type: "finish" }>["reason"]> = { stop: "stop", length: "length", content_filter: "content_filter" };

interface SparkChunk {
  code?: number;
  message?: string;
  choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

async function* streamChat(spec: ModelSpec, options: SparkOptions, messages: ChatMessage[], generation: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
  const password = spec.credentials.apiPassword ?? "";
  if (!password) throw new ModelCallError("auth", PROVIDER, "Spark chat needs the API password of the model (console → HTTP service interface authentication)");
  const response = await callProvider({
    provider: PROVIDER,
    url: joinUrl(options.chatBaseUrl ?? CHAT_BASE_URL, "chat/completions"),
    outbound: spec.outbound,
    headers: { authorization: `Bearer ${password}` },
    body: {
      model: SPARK_MODELS[spec.modelName] ?? spec.modelName,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      stream: true,
      temperature: generation.temperature,
      top_p: generation.topP,
      max_tokens: generation.maxTokens,
      presence_penalty: generation.presencePenalty,
      frequency_penalty: generation.frequencyPenalty,
      stop: generation.stop?.length ? generation.stop : undefined,
    },
    timeoutMs: options.timeoutMs,
    signal: generation.signal,
  });
  if ((response.headers.get("content-type") ?? "").includes("application/json")) {
    const answer = JSON.parse(await response.text()) as SparkChunk;
    throw sparkFailure(answer.code ?? -1, answer.message ?? "the answer is not a stream");
  }
  let usage: TokenUsage | undefined;
  let finished = false;
  for await (const event of serverSentEvents(response)) {
    if (event.data === "[DONE]") {
      // Spark's chunks often carry no finish_reason; [DONE] after a normal answer means it stopped by itself.
      if (!finished) yield { type: "finish", reason: "stop" };
      finished = true;
      break;
    }
    const chunk = JSON.parse(event.data) as SparkChunk;
    if (chunk.code) throw sparkFailure(chunk.code, chunk.message ?? "");
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) yield { type: "delta", text: choice.delta.content };
    if (choice?.finish_reason && !finished) {
      finished = true;
      yield { type: "finish", reason: FINISH_REASONS[choice.finish_reason] ?? "other" };
    }
    if (chunk.usage) {
      const { prompt_tokens = 0, completion_tokens = 0, total_tokens } = chunk.usage;
      usage = { promptTokens: prompt_tokens, completionTokens: completion_tokens, totalTokens: total_tokens ?? prompt_tokens + completion_tokens };
    }
  }
  if (usage) yield { type: "usage", usage };
}

/**
 * The signed address of an iFlytek WebSocket API: HMAC-SHA256 with the API secret over
 * "host: …\ndate: …\nGET /path HTTP/1.1", carried with the API key in the `authorization` query parameter.
 */
export function signedSparkUrl(url: string, apiKey: string, apiSecret: string, date = new Date()): string {
  const parsed = new URL(url);
  const rfc1123 = date.toUTCString();
  const origin = `host: ${parsed.host}\ndate: ${rfc1123}\nGET ${parsed.pathname} HTTP/1.1`;
  const signature = crypto.createHmac("sha256", apiSecret).update(origin).digest("base64");
  const authorization = Buffer.from(`api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`).toString("base64");
  parsed.search = new URLSearchParams({ authorization, date: rfc1123, host: parsed.host }).toString();
  return parsed.toString();
}

interface TtsFrame {
  code: number;
  message?: string;
  data?: { audio?: string; status?: number };
}

/**
 * Online TTS over a WebSocket: one request frame with the whole text, then audio frames (MP3 here) until
 * status 2. The promise settles once the first answer arrives, so a refused key fails the call itself;
 * the rest of the audio streams through the iterable.
 */
async function synthesize(spec: ModelSpec, options: SparkOptions, text: string, ttsOptions: { voice?: string; signal?: AbortSignal } = {}): Promise<SpeechResult> {
  const { appId = "", apiKey = "", apiSecret = "" } = spec.credentials;
  if (!appId || !apiKey || !apiSecret) throw new ModelCallError("auth", PROVIDER, "Spark speech synthesis needs the app id, API key and API secret");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const url = signedSparkUrl(options.ttsUrl ?? TTS_URL, apiKey, apiSecret);
  let connection: ReturnType<typeof guardedConnection>;
  try {
    connection = guardedConnection(url, modelPolicyOr(spec.outbound));
  } catch (error) {
    throw error instanceof OutboundRefused ? refusedCall(error, PROVIDER) : error;
  }
  const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, ...connection });

  const frames: Buffer[] = [];
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  let silence: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(silence);
    silence = setTimeout(() => fail(new ModelCallError("timeout", PROVIDER, `no audio within ${timeoutMs} ms`)), timeoutMs);
  };
  const fail = (error: unknown) => {
    if (finished) return;
    failure ??= error;
    finished = true;
    clearTimeout(silence);
    socket.terminate();
    notify();
  };
  const onAbort = () => fail(ttsOptions.signal?.reason ?? new Error("aborted"));
  ttsOptions.signal?.addEventListener("abort", onAbort, { once: true });

  let firstAnswer!: () => void;
  const started = new Promise<void>((resolve) => (firstAnswer = resolve));

  socket.on("unexpected-response", (_request, response) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => {
      const message = vendorMessage(Buffer.concat(chunks).toString("utf8"));
      const status = response.statusCode ?? 0;
      const reason: ModelFailure = status === 401 || status === 403 ? "auth" : status === 429 ? "quota" : status === 404 ? "notFound" : status >= 500 ? "unavailable" : "badRequest";
      fail(new ModelCallError(reason, PROVIDER, message ? `HTTP ${status}: ${message}` : `HTTP ${status}`));
    });
  });
  socket.on("error", (error: Error & { code?: string }) => {
    if (error instanceof OutboundRefused) return fail(refusedCall(error, PROVIDER));
    const timedOut = /handshake has timed out/i.test(error.message);
    fail(new ModelCallError(timedOut ? "timeout" : "network", PROVIDER, timedOut ? `no answer within ${timeoutMs} ms` : (error.code ?? error.message)));
  });
  socket.on("open", () => {
    watch();
    socket.send(
      JSON.stringify({
        common: { app_id: appId },
        // lame + sfl=1: MP3 sent in pieces as it is synthesized.
        business: { aue: "lame", sfl: 1, auf: "audio/L16;rate=16000", vcn: ttsOptions.voice || spec.modelName, tte: "UTF8" },
        data: { status: 2, text: Buffer.from(text, "utf8").toString("base64") },
      }),
    );
  });
  socket.on("message", (raw: WebSocket.RawData) => {
    watch();
    let frame: TtsFrame;
    try {
      frame = JSON.parse(raw.toString()) as TtsFrame;
    } catch {
      return fail(new ModelCallError("badRequest", PROVIDER, "a frame is not JSON"));
    }
    if (frame.code !== 0) return fail(sparkFailure(frame.code, frame.message ?? ""));
    if (frame.data?.audio) frames.push(Buffer.from(frame.data.audio, "base64"));
    firstAnswer();
    if (frame.data?.status === 2) {
      finished = true;
      clearTimeout(silence);
      socket.close();
    }
    notify();
  });
  socket.on("close", () => {
    if (!finished) fail(new ModelCallError("unavailable", PROVIDER, "the connection closed before the audio ended"));
  });

  await Promise.race([started, new Promise<void>((resolve) => (wake = resolve))]);
  if (failure && frames.length === 0) {
    ttsOptions.signal?.removeEventListener("abort", onAbort);
    throw failure;
  }

  async function* audio(): AsyncGenerator<Buffer> {
    try {
      while (true) {
        while (frames.length > 0) yield frames.shift()!;
        if (failure) throw failure;
        if (finished) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      clearTimeout(silence);
      ttsOptions.signal?.removeEventListener("abort", onAbort);
      if (!finished) {
        finished = true;
        socket.terminate();
      }
    }
  }
  return { mimeType: "audio/mpeg", audio: audio() };
}
