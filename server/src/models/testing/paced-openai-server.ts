import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A local model server that speaks the OpenAI wire protocol — `POST /v1/chat/completions` (streamed as
 * `chat.completion.chunk` server-sent events exactly as OpenAI frames them, or one `chat.completion`),
 * `POST /v1/embeddings` and `GET /v1/models` — and answers at a fixed pace, for tests and for `npm run bench:chat`.
 *
 * Its answer is `answerTokens` tokens "t0 t1 t2 …" (each one token of the answer, carrying its index, so
 * that whoever receives the stream can tell a lost, repeated or reordered token), the first after
 * `firstTokenMs`, then one every 1000 / `tokensPerSecond` ms on a fixed schedule (a late timer does not push
 * the later tokens back). A request's `max_tokens` (or `max_completion_tokens`) cuts the answer short with
 * finish_reason "length", as a real model does. It measures its own time to first token per request, so
 * that a benchmark can subtract it from the time to first token seen through Cairn.
 *
 * Its embeddings take `embeddingMs` a request, however many texts it carries, so that a test can hold ingestion in
 * its embedding stage for a known time on any machine. Each vector is deterministic: the text's words hashed into
 * `EMBEDDING_DIMENSIONS` dimensions, normalised.
 *
 * Run it alone: `node server/dist/models/testing/paced-openai-server.js [--tokens-per-second n]
 * [--answer-tokens n] [--first-token-ms n] [--embedding-ms n] [--port n]`; it prints `{"url": …}` on one line when listening.
 * `GET /_paced/requests` returns what it measured (and `DELETE` clears it).
 */

export interface PacedServerOptions {
  /** Tokens streamed per second once the first one is out (default 50). */
  tokensPerSecond?: number;
  /** Tokens in an answer (default 64). */
  answerTokens?: number;
  /** The model's own time to first token, in ms (default: one token interval). */
  firstTokenMs?: number;
  /** The time an embeddings request takes, in ms (default 0). */
  embeddingMs?: number;
  /** The model id it reports (default "paced-chat"); any model name in a request is accepted. */
  model?: string;
  host?: string;
  port?: number;
}

export interface PacedRequest {
  /** The last user message of the request, as sent. */
  question: string;
  stream: boolean;
  tokens: number;
  /** When the request arrived (its body read), in ms since the epoch (performance.timeOrigin + now: comparable across processes of one machine). */
  arrivedAt: number;
  /** From the request's arrival to the first token written, in ms. */
  firstTokenMs: number | null;
  /** From the arrival to the last frame written, in ms. */
  durationMs: number | null;
  /** The client went away before the answer ended. */
  aborted: boolean;
}

export interface PacedServer {
  /** Base URL for an OpenAI-compatible provider (ends with /v1). */
  url: string;
  options: Required<Omit<PacedServerOptions, "host" | "port">>;
  requests: PacedRequest[];
  /** Streams being written right now. */
  open(): number;
  /** Texts embedded so far. */
  embedded(): number;
  close(): Promise<void>;
}

/** The tokens of an answer of `n` tokens: "t0", " t1", " t2", … (joined: "t0 t1 t2 …"). */
export function pacedTokens(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? "t0" : ` t${i}`));
}

export interface PacedCheck {
  /** Indices received, in order. */
  received: number;
  /** Indices 0..expected−1 that never came. */
  missing: number;
  /** Tokens that came more than once, came out of order, or are not tokens of the answer at all. */
  misplaced: number;
  ok: boolean;
}

/**
 * Checks a received answer against the paced answer of `expected` tokens: every index once, in order.
 * Citations Cairn may add (`[ID:n]`) are not tokens of the model and are ignored.
 */
export function checkPacedText(text: string, expected: number): PacedCheck {
  const words = text.replace(/\s*\[ID:\d+\]/g, " ").split(/\s+/).filter(Boolean);
  let misplaced = 0;
  const seen = new Set<number>();
  let next = 0;
  for (const word of words) {
    const match = /^t(\d+)$/.exec(word);
    const index = match ? Number(match[1]) : -1;
    if (index !== next || index >= expected) misplaced++;
    if (index >= 0) {
      seen.add(index);
      next = index + 1;
    }
  }
  let missing = 0;
  for (let i = 0; i < expected; i++) if (!seen.has(i)) missing++;
  return { received: words.length, missing, misplaced, ok: missing === 0 && misplaced === 0 };
}

interface ChatBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
}

const EMBEDDING_DIMENSIONS = 16;

/** A text's vector: its words hashed (FNV-1a) into the dimensions, normalised; a text of no word gets the first. */
function hashedVector(text: string): number[] {
  const vector: number[] = Array.from({ length: EMBEDDING_DIMENSIONS }, () => 0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
    vector[(hash >>> 0) % EMBEDDING_DIMENSIONS] += 1;
  }
  if (!vector.some((x) => x !== 0)) vector[0] = 1;
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part && typeof part === "object" && "text" in part ? String((part as { text: unknown }).text) : "")).join("");
  return "";
}

/** A rough token count of the prompt (4 characters a token), for the usage OpenAI reports. */
const promptTokens = (messages: ChatBody["messages"]) => Math.ceil((messages ?? []).reduce((sum, m) => sum + textOf(m.content).length, 0) / 4);

export async function startPacedOpenAiServer(options: PacedServerOptions = {}): Promise<PacedServer> {
  const tokensPerSecond = options.tokensPerSecond ?? 50;
  const interval = 1000 / tokensPerSecond;
  const settings = {
    tokensPerSecond,
    answerTokens: options.answerTokens ?? 64,
    firstTokenMs: options.firstTokenMs ?? interval,
    embeddingMs: options.embeddingMs ?? 0,
    model: options.model ?? "paced-chat",
  };
  const requests: PacedRequest[] = [];
  const sockets = new Set<Socket>();
  let open = 0;
  let embedded = 0;
  const created = () => Math.floor(Date.now() / 1000);

  async function chat(body: ChatBody, res: http.ServerResponse, arrived: number): Promise<void> {
    const limit = body.max_completion_tokens ?? body.max_tokens;
    const tokens = pacedTokens(Math.min(settings.answerTokens, limit && limit > 0 ? limit : Infinity));
    const finishReason = tokens.length < settings.answerTokens ? "length" : "stop";
    const users = (body.messages ?? []).filter((m) => m.role === "user");
    const record: PacedRequest = {
      question: textOf(users.at(-1)?.content),
      stream: body.stream === true,
      tokens: tokens.length,
      arrivedAt: performance.timeOrigin + arrived,
      firstTokenMs: null,
      durationMs: null,
      aborted: false,
    };
    requests.push(record);
    const id = `chatcmpl-paced${Math.random().toString(36).slice(2, 12)}`;
    const model = body.model ?? settings.model;
    const usage = { prompt_tokens: promptTokens(body.messages), completion_tokens: tokens.length, total_tokens: promptTokens(body.messages) + tokens.length };
    const firstAt = arrived + settings.firstTokenMs;

    if (!body.stream) {
      await sleepUntil(firstAt + interval * (tokens.length - 1));
      record.firstTokenMs = performance.now() - arrived;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created: created(),
          model,
          choices: [{ index: 0, message: { role: "assistant", content: tokens.join(""), refusal: null }, logprobs: null, finish_reason: finishReason }],
          usage,
          system_fingerprint: null,
        }),
      );
      record.durationMs = performance.now() - arrived;
      return;
    }

    open++;
    let closed = false;
    res.on("close", () => {
      if (!res.writableFinished) {
        closed = true;
        record.aborted = true;
      }
    });
    const frame = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: created(), model, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
    try {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
      res.flushHeaders();
      // OpenAI's first chunk names the role, with empty content.
      res.write(frame({ role: "assistant", content: "", refusal: null }, null));
      for (let i = 0; i < tokens.length; i++) {
        await sleepUntil(firstAt + interval * i);
        if (closed) return;
        res.write(frame({ content: tokens[i] }, null));
        if (i === 0) record.firstTokenMs = performance.now() - arrived;
      }
      res.write(frame({}, finishReason));
      if (body.stream_options?.include_usage) {
        res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: created(), model, system_fingerprint: null, choices: [], usage })}\n\n`);
      }
      res.end("data: [DONE]\n\n");
      record.durationMs = performance.now() - arrived;
    } finally {
      open--;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const arrived = performance.now();
      const path = (req.url ?? "").split("?")[0];
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.method === "GET" && path.endsWith("/models")) {
        json(200, { object: "list", data: [{ id: settings.model, object: "model", created: 1700000000, owned_by: "cairn-testing" }] });
      } else if (req.method === "POST" && path.endsWith("/chat/completions")) {
        let body: ChatBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as ChatBody;
        } catch {
          json(400, { error: { message: "We could not parse the JSON body of your request.", type: "invalid_request_error", param: null, code: null } });
          return;
        }
        void chat(body, res, arrived).catch(() => res.destroy());
      } else if (req.method === "POST" && path.endsWith("/embeddings")) {
        let input: unknown;
        try {
          input = (JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { input?: unknown }).input;
        } catch {
          input = undefined;
        }
        const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((text) => typeof text === "string") ? (input as string[]) : null;
        if (!texts) {
          json(400, { error: { message: "'input' must be a string or an array of strings.", type: "invalid_request_error", param: "input", code: null } });
          return;
        }
        const tokens = texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
        void sleepUntil(arrived + settings.embeddingMs).then(() => {
          embedded += texts.length;
          json(200, { object: "list", data: texts.map((text, index) => ({ object: "embedding", index, embedding: hashedVector(text) })), model: settings.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
        });
      } else if (path === "/_paced/requests") {
        if (req.method === "DELETE") requests.length = 0;
        json(200, { options: settings, open, requests });
      } else {
        json(404, { error: { message: `Unknown request URL: ${req.method} ${path}.`, type: "invalid_request_error", param: null, code: "unknown_url" } });
      }
    });
  });
  // Hundreds of streams at once: no keep-alive timeout may cut an idle pooled connection mid-benchmark.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${address.port}/v1`,
    options: settings,
    requests,
    open: () => open,
    embedded: () => embedded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : undefined;
  };
  void startPacedOpenAiServer({
    tokensPerSecond: option("tokens-per-second"),
    answerTokens: option("answer-tokens"),
    firstTokenMs: option("first-token-ms"),
    embeddingMs: option("embedding-ms"),
    port: option("port"),
  }).then((server) => {
    process.stdout.write(`${JSON.stringify({ url: server.url, options: server.options })}\n`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
