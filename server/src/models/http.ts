import { DomainError } from "../platform/errors";

/** Why a call to a model provider failed, in words a user can act on (`errors.model.<reason>`). */
export type ModelFailure = "auth" | "quota" | "notFound" | "timeout" | "badRequest" | "unavailable" | "network";

export class ModelCallError extends DomainError {
  constructor(
    readonly reason: ModelFailure,
    provider: string,
    detail: string,
  ) {
    super("MODEL_PROVIDER", `errors.model.${reason}`, { provider, detail: detail.slice(0, 500) });
  }
}

const DEFAULT_TIMEOUT_MS = 120_000;

export interface ModelRequest {
  provider: string;
  url: string;
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

/** The vendor's own words from an error body: OpenAI's {error:{message}}, Anthropic's, Gemini's, Ollama's {error}, … */
function vendorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    // Gemini wraps errors of its streaming endpoint in an array.
    const body = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      return (error as { message: string }).message;
    }
    for (const key of ["message", "detail", "msg", "error_msg", "Message"]) {
      if (typeof body[key] === "string") return body[key] as string;
    }
  } catch {
    // not JSON: the text itself
  }
  return text.trim();
}

/**
 * Sends one request to a provider and returns the response once its status is OK. Every transport
 * failure and error status becomes a ModelCallError naming the provider and what went wrong, also when
 * it happens later, while the caller reads the body.
 */
export async function callProvider(request: ModelRequest): Promise<Response> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const host = new URL(request.url).host;
  const silence = new SilenceWatch(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, silence.signal]) : silence.signal;
  const headers: Record<string, string> = { ...request.headers };
  let body: RequestInit["body"];
  if (request.body instanceof FormData || Buffer.isBuffer(request.body) || typeof request.body === "string") {
    body = request.body as RequestInit["body"];
  } else if (request.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(request.body);
  }
  const failure = (error: unknown): unknown => {
    if (error instanceof ModelCallError || request.signal?.aborted) return error;
    if (silence.expired) return new ModelCallError("timeout", request.provider, `no answer from ${host} within ${timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new ModelCallError("network", request.provider, cause?.code ?? cause?.message ?? String(error));
  };
  let raw: Response;
  silence.arm();
  try {
    raw = await fetch(request.url, { method: request.method ?? "POST", headers, body, signal });
  } catch (error) {
    throw failure(error);
  } finally {
    silence.disarm();
  }
  const response = watchedResponse(raw, silence, failure);
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    const reason = request.classify?.(response.status, text) ?? failureFromStatus(response.status);
    throw new ModelCallError(reason, request.provider, `HTTP ${response.status}: ${vendorMessage(text) || response.statusText}`);
  }
  return response;
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
    throw new ModelCallError("badRequest", request.provider, `the answer is not JSON: ${text.slice(0, 200)}`);
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
      throw new ModelCallError("badRequest", provider, `a line of the answer is not JSON: ${line.slice(0, 200)}`);
    }
    yield value;
  }
}

/** Joins a base URL and a path without doubling or losing the slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
