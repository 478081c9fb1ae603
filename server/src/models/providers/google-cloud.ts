import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FieldProblem } from "../../platform/errors";
import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, callProviderJson, ModelCallError, serverSentEvents } from "../http";
import { requestOAuthToken, type OAuthToken } from "./oauth-token";
import { ToolCallAssembler, TOOLS_AND_JSON } from "../chat-tools";
import type { ChatEvent, ChatMessage, ChatModel, EmbeddingResult, GenerationOptions, ModelClients, ModelType, TokenUsage } from "../model-types";
import { geminiContents, geminiFinishReason, geminiJsonConfig, geminiPartEvents, geminiTools, type GeminiPart } from "./gemini-protocol";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { describeWithChat, pickClient } from "./shared";
import { base64Credential, credential } from "../provider";

const PROVIDER = "Google Cloud";
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

export interface GoogleCloudOptions {
  /** Replaces `https://{region}-aiplatform.googleapis.com`; for tests only, so not a credential field. */
  baseUrl?: string;
  timeoutMs?: number;
  /**
   * Where default credentials are looked up when no key is given (GOOGLE_APPLICATION_CREDENTIALS,
   * CLOUDSDK_CONFIG, GCE_METADATA_HOST); process.env unless a test gives its own.
   */
  env?: Record<string, string | undefined>;
}

/** The fields of a service-account key file that Cairn uses. */
interface ServiceAccountKey {
  type: "service_account";
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** gcloud's `application_default_credentials.json` after `gcloud auth application-default login`. */
interface AuthorizedUser {
  type: "authorized_user";
  client_id: string;
  client_secret: string;
  refresh_token: string;
  token_uri?: string;
}

/** The service-account key of the form, or why it is not one. */
export function parseServiceAccountKey(base64: string): ServiceAccountKey | string {
  const compact = base64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return "not base64";
  let key: Partial<ServiceAccountKey>;
  try {
    key = JSON.parse(Buffer.from(compact, "base64").toString("utf8")) as Partial<ServiceAccountKey>;
  } catch {
    return "not JSON once decoded";
  }
  if (key?.type !== "service_account") return "not a service-account key (type must be service_account)";
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") return "client_email or private_key is missing";
  try {
    crypto.createPrivateKey(key.private_key);
  } catch {
    return "private_key is not a PEM private key";
  }
  return key as ServiceAccountKey;
}

/**
 * Google Cloud Vertex AI: Gemini chat (and image description) over `streamGenerateContent` with SSE,
 * and text embeddings over `:predict`. Access tokens come from the service-account key (an RS256 JWT
 * exchanged at the key's token_uri), or, when the key is left blank (§5), from Application Default
 * Credentials: the GOOGLE_APPLICATION_CREDENTIALS file, gcloud's well-known file, then the metadata
 * server of the machine Cairn runs on.
 */
export function googleCloudProvider(options: GoogleCloudOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["chat", "embedding", "img2txt"],
    credentialFields: [
      credential("projectId", "string", { required: true }),
      credential("region", "string", { required: true, default: "us-central1" }),
      base64Credential("serviceAccountKey"),
    ],
    catalogue: [
      { name: "gemini-2.5-pro", type: "chat", maxTokens: 1_048_576, vision: true },
      { name: "gemini-2.5-flash", type: "chat", maxTokens: 1_048_576, vision: true },
      { name: "gemini-2.0-flash-001", type: "chat", maxTokens: 1_048_576, vision: true },
      { name: "text-embedding-005", type: "embedding", maxTokens: 2_048 },
      { name: "text-multilingual-embedding-002", type: "embedding", maxTokens: 2_048 },
      { name: "gemini-2.5-flash", type: "img2txt", maxTokens: 1_048_576, vision: true },
    ],
    validate(credentials): FieldProblem[] {
      const problems: FieldProblem[] = [];
      const region = credentials.region ?? "";
      // us-central1, europe-west4, asia-northeast1, … or the global endpoint.
      if (region && !/^(global|[a-z]+-[a-z]+\d+)$/.test(region)) problems.push({ field: "region", messageKey: "errors.invalidField", params: { field: "region" } });
      const key = credentials.serviceAccountKey ?? "";
      if (key && typeof parseServiceAccountKey(key) === "string") problems.push({ field: "serviceAccountKey", messageKey: "errors.model.serviceAccountInvalid" });
      return problems;
    },
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      const vertex = new VertexCalls(spec, options);
      // Vertex AI serves Gemini with the same function calling and JSON answers as the Gemini API.
      const chat: ChatModel = { capabilities: TOOLS_AND_JSON, stream: (messages, generation) => vertex.stream(messages, generation) };
      return pickClient(PROVIDER, type, {
        chat: () => chat,
        embedding: () => ({ embed: (texts, embedOptions) => vertex.embed(texts, embedOptions) }),
        img2txt: () => describeWithChat(chat),
      });
    },
  };
}

export const googleCloud = googleCloudProvider();

interface GeminiChunk {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; totalTokenCount?: number };
}

class VertexCalls {
  private readonly timeoutMs: number | undefined;

  constructor(
    private readonly spec: ModelSpec,
    private readonly options: GoogleCloudOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
  }

  private modelUrl(method: string): string {
    const { projectId = "", region = "us-central1" } = this.spec.credentials;
    const base = this.options.baseUrl ?? (region === "global" ? "https://aiplatform.googleapis.com" : `https://${region}-aiplatform.googleapis.com`);
    const model = encodeURIComponent(this.spec.modelName);
    return `${base.replace(/\/+$/, "")}/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(region)}/publishers/google/models/${model}:${method}`;
  }

  private async headers(signal?: AbortSignal): Promise<Record<string, string>> {
    const token = await accessToken(this.spec.credentials.serviceAccountKey ?? "", this.options, this.spec.outbound, signal);
    return { authorization: `Bearer ${token}` };
  }

  async *stream(messages: ChatMessage[], options: GenerationOptions = {}): AsyncGenerator<ChatEvent> {
    const response = await callProvider({
      provider: PROVIDER,
      url: `${this.modelUrl("streamGenerateContent")}?alt=sse`,
      outbound: this.spec.outbound,
      headers: await this.headers(options.signal),
      body: {
        ...geminiContents(messages),
        generationConfig: {
          temperature: options.temperature,
          topP: options.topP,
          maxOutputTokens: options.maxTokens,
          presencePenalty: options.presencePenalty,
          frequencyPenalty: options.frequencyPenalty,
          stopSequences: options.stop?.length ? options.stop : undefined,
          ...geminiJsonConfig(options),
        },
        ...geminiTools(options),
      },
      timeoutMs: this.timeoutMs,
      signal: options.signal,
    });
    let usage: TokenUsage | undefined;
    let finish: Extract<ChatEvent, { type: "finish" }>["reason"] | undefined;
    const toolCalls = new ToolCallAssembler(PROVIDER);
    for await (const event of serverSentEvents(response)) {
      const chunk = JSON.parse(event.data) as GeminiChunk;
      const candidate = chunk.candidates?.[0];
      yield* geminiPartEvents(candidate?.content?.parts ?? [], toolCalls);
      if (candidate?.finishReason) finish = geminiFinishReason(candidate.finishReason, toolCalls);
      if (chunk.promptFeedback?.blockReason) finish = "content_filter";
      // Every chunk carries the usage so far; the last one counts.
      if (chunk.usageMetadata) {
        const { promptTokenCount = 0, candidatesTokenCount = 0, thoughtsTokenCount = 0, totalTokenCount } = chunk.usageMetadata;
        const completion = candidatesTokenCount + thoughtsTokenCount;
        usage = { promptTokens: promptTokenCount, completionTokens: completion, totalTokens: totalTokenCount ?? promptTokenCount + completion };
      }
    }
    if (finish) yield { type: "finish", reason: finish };
    if (usage) yield { type: "usage", usage };
  }

  /** Vertex text embeddings: queries and documents get their own task types; gemini-embedding-001 takes one text per call. */
  async embed(texts: string[], options: { purpose?: "query" | "document"; signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const batchSize = this.spec.modelName.startsWith("gemini-embedding") ? 1 : 16;
    const taskType = options.purpose === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT";
    const vectors: number[][] = [];
    let promptTokens = 0;
    for (let start = 0; start < texts.length; start += batchSize) {
      const answer = await callProviderJson<{ predictions?: { embeddings: { values: number[]; statistics?: { token_count?: number } } }[] }>({
        provider: PROVIDER,
        url: this.modelUrl("predict"),
        outbound: this.spec.outbound,
        headers: await this.headers(options.signal),
        body: { instances: texts.slice(start, start + batchSize).map((content) => ({ content, task_type: taskType })), parameters: { autoTruncate: true } },
        timeoutMs: this.timeoutMs,
        signal: options.signal,
      });
      for (const prediction of answer.predictions ?? []) {
        vectors.push(prediction.embeddings.values);
        promptTokens += prediction.embeddings.statistics?.token_count ?? 0;
      }
    }
    return { vectors, usage: { promptTokens, completionTokens: 0, totalTokens: promptTokens } };
  }
}

// Access tokens live an hour; each is reused until a minute before it ends, per key (or for the default credentials).
const tokens = new Map<string, OAuthToken | Promise<OAuthToken>>();

async function accessToken(serviceAccountKey: string, options: GoogleCloudOptions, outbound: OutboundPolicy | undefined, signal?: AbortSignal): Promise<string> {
  const env = options.env ?? process.env;
  const cacheKey = crypto.createHash("sha256").update(serviceAccountKey || `default:${env.GOOGLE_APPLICATION_CREDENTIALS ?? ""}:${env.CLOUDSDK_CONFIG ?? ""}:${env.GCE_METADATA_HOST ?? ""}`).digest("hex");
  const cached = tokens.get(cacheKey);
  if (cached && !(cached instanceof Promise) && cached.expiresAt - 60_000 > Date.now()) return cached.token;
  if (cached instanceof Promise) return (await cached).token;
  const pending = fetchToken(serviceAccountKey, { ...options, outbound }, env, signal);
  tokens.set(cacheKey, pending);
  try {
    const fresh = await pending;
    tokens.set(cacheKey, fresh);
    return fresh.token;
  } catch (error) {
    tokens.delete(cacheKey);
    throw error;
  }
}

/** The options of a token request: the provider's, and where the entry's requests may go. */
type TokenOptions = GoogleCloudOptions & { outbound: OutboundPolicy | undefined };

async function fetchToken(serviceAccountKey: string, options: TokenOptions, env: Record<string, string | undefined>, signal?: AbortSignal): Promise<OAuthToken> {
  if (serviceAccountKey) {
    const key = parseServiceAccountKey(serviceAccountKey);
    if (typeof key === "string") throw new ModelCallError("auth", PROVIDER, `the service-account key is ${key}`);
    return exchangeJwt(key, options, signal);
  }
  const file = defaultCredentialsFile(env);
  if (file) {
    let parsed: ServiceAccountKey | AuthorizedUser;
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8")) as ServiceAccountKey | AuthorizedUser;
    } catch (error) {
      throw new ModelCallError("auth", PROVIDER, `default credentials ${file} cannot be read: ${(error as Error).message}`);
    }
    if (parsed.type === "service_account") return exchangeJwt(parsed, options, signal);
    if (parsed.type === "authorized_user") {
      const body = new URLSearchParams({ grant_type: "refresh_token", client_id: parsed.client_id, client_secret: parsed.client_secret, refresh_token: parsed.refresh_token });
      return tokenRequest(parsed.token_uri ?? GOOGLE_TOKEN_URI, body, options, signal);
    }
    throw new ModelCallError("auth", PROVIDER, `default credentials of type ${String((parsed as { type?: unknown }).type)} are not supported`);
  }
  return metadataServerToken(env, options, signal);
}

/** GOOGLE_APPLICATION_CREDENTIALS, else gcloud's well-known file when it exists. */
function defaultCredentialsFile(env: Record<string, string | undefined>): string | undefined {
  if (env.GOOGLE_APPLICATION_CREDENTIALS) return env.GOOGLE_APPLICATION_CREDENTIALS;
  const configDir = env.CLOUDSDK_CONFIG ?? (process.platform === "win32" ? path.join(env.APPDATA ?? "", "gcloud") : path.join(os.homedir(), ".config", "gcloud"));
  const wellKnown = path.join(configDir, "application_default_credentials.json");
  return fs.existsSync(wellKnown) ? wellKnown : undefined;
}

/** The OAuth 2.0 JWT-bearer grant (RFC 7523) that Google's service accounts use, signed RS256 with the key's private key. */
async function exchangeJwt(key: ServiceAccountKey, options: TokenOptions, signal?: AbortSignal) {
  const tokenUri = key.token_uri ?? GOOGLE_TOKEN_URI;
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT", ...(key.private_key_id ? { kid: key.private_key_id } : {}) })}.${encode({ iss: key.client_email, scope: SCOPE, aud: tokenUri, iat: now, exp: now + 3600 })}`;
  const signature = crypto.sign("RSA-SHA256", Buffer.from(unsigned), key.private_key).toString("base64url");
  const body = new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: `${unsigned}.${signature}` });
  return tokenRequest(tokenUri, body, options, signal);
}

function tokenRequest(url: string, form: URLSearchParams, options: TokenOptions, signal?: AbortSignal) {
  return requestOAuthToken({ provider: PROVIDER, url, form, outbound: options.outbound, timeoutMs: options.timeoutMs, signal });
}

/** Tokens of the service account attached to the VM, Cloud Run service or GKE pod Cairn runs on. */
async function metadataServerToken(env: Record<string, string | undefined>, options: TokenOptions, signal?: AbortSignal) {
  const host = env.GCE_METADATA_HOST ?? "metadata.google.internal";
  try {
    return await requestOAuthToken({
      provider: PROVIDER,
      method: "GET",
      url: `http://${host}/computeMetadata/v1/instance/service-accounts/default/token?scopes=${encodeURIComponent(SCOPE)}`,
      outbound: options.outbound,
      headers: { "metadata-flavor": "Google" },
      timeoutMs: Math.min(options.timeoutMs ?? 3_000, 3_000),
      signal,
    });
  } catch (error) {
    // No metadata server: Cairn does not run on Google Cloud, and nothing else gave credentials. On Google
    // Cloud itself the outbound guard refuses the link-local metadata server: the machine's own identity
    // is not lent to users' model entries (GOOGLE_APPLICATION_CREDENTIALS can be, by the operator's choice).
    if (error instanceof ModelCallError && (error.reason === "network" || error.reason === "timeout" || error.reason === "addressRefused")) {
      throw new ModelCallError("auth", PROVIDER, "no service-account key is given and no default credentials were found (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata server)");
    }
    throw error;
  }
}
