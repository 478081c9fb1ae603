import { DomainError } from "../platform/errors";
import { OutboundRefused, outboundFetch, outboundPolicy, readLimited, type OutboundPolicy } from "../platform/outbound";
import type { SpeechResult } from "./model-types";

/** Why a call to a model provider failed, in words a user can act on (`errors.model.<reason>`). */
export type ModelFailure = "auth" | "quota" | "notFound" | "timeout" | "badRequest" | "unavailable" | "network" | "addressRefused" | "redirectRefused";

/**
 * A failed model call. `detail` is Cairn's own words or a vendor's structured error message, never a
 * body the server answered: a base URL may point anywhere, and an error must not become a way to read
 * what is there.
 */
export class ModelCallError extends DomainError {
  constructor(
    readonly reason: ModelFailure,
    provider: string,
    detail: string,
  ) {
    super("MODEL_PROVIDER", `errors.model.${reason}`, { provider, detail: shortened(detail) });
  }
}

const MAX_DETAIL = 300;

function shortened(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL - 1)}…` : clean;
}

/** A connection the outbound guard refused, in the words of a model call. */
export function refusedCall(error: OutboundRefused, provider: string): ModelCallError {
  return new ModelCallError(error.reason === "redirect" ? "redirectRefused" : "addressRefused", provider, error.host);
}

/** The answer was meant to be JSON and is not; what it was stays out of the message. */
export function notJson(provider: string, what = "the answer"): ModelCallError {
  return new ModelCallError("badRequest", provider, `${what} is not JSON`);
}

/**
 * Where model calls may go: loopback and private networks too unless the operator says otherwise
 * (MODEL_PRIVATE_ADDRESSES), since local models live there; redirects never into another class of address.
 * One policy object per setting, so that connections are pooled once.
 */
const MODEL_POLICIES = {
  withPrivateNetworks: outboundPolicy({ privateNetworks: true, redirects: "same-class" }),
  publicOnly: outboundPolicy({ privateNetworks: false, redirects: "same-class" }),
};

export function modelOutboundPolicy(privateNetworks: boolean): OutboundPolicy {
  return privateNetworks ? MODEL_POLICIES.withPrivateNetworks : MODEL_POLICIES.publicOnly;
}

/** The policy of a call: the entry's (ModelSpec.outbound), or the default one when none is given (provider unit tests). */
export function modelPolicyOr(outbound: OutboundPolicy | undefined): OutboundPolicy {
  return outbound ?? MODEL_POLICIES.withPrivateNetworks;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** An error answer is read this far for the vendor's message, and no further. */
const MAX_ERROR_BODY = 64 * 1024;

export interface ModelRequest {
  provider: string;
  url: string;
  /**
   * Where the call may go (ModelSpec.outbound: ModelsService sets it from configuration). Every request
   * names it, so that no call forgets the operator's setting; undefined (provider unit tests) is the
   * default policy, with loopback and private networks allowed.
   */
  outbound: OutboundPolicy | undefined;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** An object is sent as JSON; FormData and Buffer as they are. */
  body?: unknown;
  /**
   * The longest the provider may stay silent: before its answer starts, then between two pieces of it.
   * A stream that keeps flowing is never cut, however long the answer (a hard cap would end the long
   * generations of slow models halfway).
   */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A vendor's own reading of an error answer, for statuses that say less than the body (Gemini's 400 for a bad key). */
  classify?(status: number, body: string): ModelFailure | undefined;
}

function failureFromStatus(status: number): ModelFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 402 || status === 429) return "quota";
  if (status === 404) return "notFound";
  if (status === 408 || status === 504) return "timeout";
  if (status >= 500) return "unavailable";
  return "badRequest";
}

/**
 * The vendor's own words from a recognised JSON error envelope: OpenAI's {error:{message}}, Anthropic's,
 * Gemini's, Ollama's {error}, {message}, {detail}, … Anything else (an HTML page, plain text, other
 * JSON) gives nothing: it is not copied into an error.
 */
export function vendorMessage(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "";
  }
  // Gemini wraps errors of its streaming endpoint in an array.
  const body = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown> | null;
  if (!body || typeof body !== "object") return "";
  const error = body.error;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  for (const key of ["message", "detail", "msg", "error_msg", "Message"]) {
    if (typeof body[key] === "string") return body[key] as string;
  }
  return "";
}

function encodedBody(body: unknown, headers: Record<string, string>): string | Buffer | FormData | undefined {
  if (body === undefined) return undefined;
  if (body instanceof FormData || Buffer.isBuffer(body) || typeof body === "string") return body;
  headers["content-type"] ??= "application/json";
  return JSON.stringify(body);
}

/**
 * Sends one request to a provider, through the outbound guard, and returns the response once its
 * status is OK. Every transport failure, refused address and error status becomes a ModelCallError
 * naming the provider and what went wrong, also when it happens later, while the caller reads the body.
 */
export async function callProvider(request: ModelRequest): Promise<Response> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const host = new URL(request.url).host;
  const silence = new SilenceWatch(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, silence.signal]) : silence.signal;
  const headers: Record<string, string> = { ...request.headers };
  const body = encodedBody(request.body, headers);
  const failure = (error: unknown): unknown => {
    if (error instanceof ModelCallError || request.signal?.aborted) return error;
    if (error instanceof OutboundRefused) return refusedCall(error, request.provider);
    if (silence.expired) return new ModelCallError("timeout", request.provider, `no answer from ${host} within ${timeoutMs} ms`);
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    return new ModelCallError("network", request.provider, code ?? (error instanceof Error ? error.message : String(error)));
  };
  let raw: Response;
  silence.arm();
  try {
    raw = await outboundFetch(request.url, { method: request.method ?? "POST", headers, body, signal }, modelPolicyOr(request.outbound));
  } catch (error) {
    throw failure(error);
  } finally {
    silence.disarm();
  }
  const response = watchedResponse(raw, silence, failure);
  if (!response.ok) {
    const text = await readLimited(response, MAX_ERROR_BODY, () => new Error("too long")).then(
      (bytes) => bytes.toString("utf8"),
      () => "",
    );
    const reason = request.classify?.(response.status, text) ?? failureFromStatus(response.status);
    const said = vendorMessage(text);
    throw new ModelCallError(reason, request.provider, said ? `HTTP ${response.status}: ${said}` : `HTTP ${response.status}`);
  }
  return response;
}

/**
 * A text-to-speech answer as audio: audio/* as its content type says, or application/octet-stream
 * from a vendor known to send its audio so (`octetStreamAs`, the format it was asked for). Any other
 * body is refused and not read, so that speech can never pass on whatever a base URL answers.
 */
export async function speechOf(response: Response, provider: string, options: { octetStreamAs?: string } = {}): Promise<SpeechResult> {
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const mimeType = type.startsWith("audio/") ? type : type === "application/octet-stream" ? options.octetStreamAs : undefined;
  if (!mimeType) {
    await response.body?.cancel().catch(() => undefined);
    throw new ModelCallError("badRequest", provider, `the answer is not audio (${type || "no content type"})`);
  }
  return { mimeType, audio: bodyChunks(response) };
}

/** The bytes of a body as they arrive. */
export async function* bodyChunks(response: Response): AsyncGenerator<Buffer> {
  if (!response.body) return;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield Buffer.from(chunk);
}

/** Aborts a request once the provider has been silent for `timeoutMs` while Cairn waited for it. */
class SilenceWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  expired = false;

  constructor(private readonly timeoutMs: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  arm() {
    this.disarm();
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, this.timeoutMs);
    // A body nobody reads must not keep the process alive.
    this.timer.unref();
  }

  disarm() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The same response, with a body whose reads are watched for silence and whose failures (time-out,
 * connection lost mid-stream) are ModelCallErrors. The clock runs only while the caller waits for the
 * next piece, so a slow consumer never times out a fast provider.
 */
function watchedResponse(response: Response, silence: SilenceWatch, failure: (error: unknown) => unknown): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      silence.arm();
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(failure(error));
      } finally {
        silence.disarm();
      }
    },
    cancel(reason) {
      silence.disarm();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export async function callProviderJson<T>(request: ModelRequest): Promise<T> {
  const response = await callProvider(request);
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw notJson(request.provider);
  }
}

async function* lines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<string> {
  if (!body) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
    }
  }
  buffer += decoder.decode();
  if (buffer) yield buffer;
}

export interface ServerSentEvent {
  event?: string;
  data: string;
}

/** Server-sent events, parsed as they arrive (multi-line data joined, comments skipped). */
export async function* serverSentEvents(response: Response): AsyncGenerator<ServerSentEvent> {
  let event: string | undefined;
  let data: string[] = [];
  for await (const line of lines(response.body)) {
    if (line === "") {
      if (data.length > 0) yield { event, data: data.join("\n") };
      event = undefined;
      data = [];
    } else if (line.startsWith(":")) {
      continue;
    } else {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
    }
  }
  if (data.length > 0) yield { event, data: data.join("\n") };
}

/** Newline-delimited JSON (Ollama's streaming format), one object per line as it arrives. */
export async function* jsonLines<T>(response: Response, provider = "The model provider"): AsyncGenerator<T> {
  for await (const line of lines(response.body)) {
    if (!line.trim()) continue;
    let value: T;
    try {
      value = JSON.parse(line) as T;
    } catch {
      throw notJson(provider, "a line of the answer");
    }
    yield value;
  }
}

/** Joins a base URL and a path without doubling or losing the slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
