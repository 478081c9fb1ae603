import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { ModelCallError } from "../models/http";
import { freePort } from "./processes";

/** One request as the vendor's server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. `/v2/chat` or `/model/a%3A0/invoke`. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export type VendorHandler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

export type UpgradeHandler = (request: http.IncomingMessage, socket: Duplex, head: Buffer, recorded: RecordedRequest) => void;

export interface VendorServer {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The last request received (fails the test when there is none). */
  last(): RecordedRequest;
  /** Replaces the handler, e.g. for an error case. */
  handle(handler: VendorHandler): void;
  /**
   * Takes the server's HTTP upgrades (WebSocket vendors); the upgrade request is recorded like the others.
   * Without a handler an upgrade is refused with 426.
   */
  handleUpgrades(handler: UpgradeHandler): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that stands in for a model vendor: the test gives it a handler that speaks the
 * vendor's protocol, and reads back what the client sent. It never leaves 127.0.0.1.
 *
 * `http2: true` serves cleartext HTTP/2 (prior knowledge), for clients such as the AWS SDK's Bedrock
 * runtime that speak only HTTP/2; handlers then get node's HTTP/2 compatibility response, which has
 * the same writeHead/write/end.
 */
export async function startVendorServer(handler: VendorHandler, options: { http2?: boolean } = {}): Promise<VendorServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const onRequest = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const parsed = new URL(req.url ?? "/", "http://vendor.test");
      let json: unknown;
      try {
        json = body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? "GET", url: req.url ?? "/", path: parsed.pathname, query: parsed.searchParams, headers: req.headers, body, json };
      requests.push(recorded);
      Promise.resolve(current(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`test handler failed: ${String(error)}`);
      });
    });
  };
  const server = options.http2
    ? http2.createServer((req, res) => onRequest(req, res as unknown as http.ServerResponse))
    : http.createServer((req, res) => onRequest(req, res));
  let upgrades: UpgradeHandler | undefined;
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const parsed = new URL(req.url ?? "/", "http://vendor.test");
    const recorded: RecordedRequest = { method: req.method ?? "GET", url: req.url ?? "/", path: parsed.pathname, query: parsed.searchParams, headers: req.headers, body: Buffer.alloc(0), json: undefined };
    requests.push(recorded);
    if (upgrades) upgrades(req, socket, head, recorded);
    else socket.end("HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\n\r\n");
  });
  // A hanging handler (the time-out tests) must not keep close() waiting for its socket.
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // An idle connection is kept longer than the product's client keeps it, so that the client always closes first:
  // closed by the server just as the client sends on it (a busy machine delays both timers alike), a request would
  // fail with ECONNRESET (as testing/app.ts says of the test servers of Cairn itself).
  if (server instanceof http.Server) server.keepAliveTimeout = TEST_SERVER_KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    last() {
      const request = requests.at(-1);
      if (!request) throw new Error("the vendor server received no request");
      return request;
    },
    handle(next) {
      current = next;
    },
    handleUpgrades(next) {
      upgrades = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** How long the test servers keep an idle connection open: longer than any client does. */
export const TEST_SERVER_KEEP_ALIVE_MS = 600_000;

/** An address where nothing listens: a call to it fails the way an unreachable vendor does. */
export async function unreachableUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** A handler that accepts the request and never answers, for time-out tests. */
export const neverAnswer: VendorHandler = () => undefined;

/** Cuts a body into pieces of at most `size` bytes, so that frames, lines and UTF-8 characters straddle writes. */
export function pieces(body: string | Buffer, size: number): Buffer[] {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const out: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) out.push(bytes.subarray(offset, offset + size));
  return out;
}

/**
 * Writes a response body in small pieces with a pause between them, the way a vendor streams: the
 * client must parse what it has so far and wait for the rest. Headers are sent first.
 */
export async function writeSlowly(
  response: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: string | Buffer | Buffer[],
  options: { pieceSize?: number; pauseMs?: number } = {},
): Promise<void> {
  const size = options.pieceSize ?? 7;
  const parts = Array.isArray(body) ? body.flatMap((part) => pieces(part, size)) : pieces(body, size);
  response.writeHead(status, headers);
  // HTTP/1.1 responses hold headers back until the first write; HTTP/2 ones send them at writeHead.
  if (typeof response.flushHeaders === "function") response.flushHeaders();
  for (const part of parts) {
    if (response.destroyed || (response as unknown as http2.Http2ServerResponse).stream?.destroyed) return;
    response.write(part);
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 1));
  }
  response.end();
}

/** Refuses an HTTP upgrade the way a gateway does: a status line, JSON body, connection closed. */
export function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/** A JSON answer in one piece. */
export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** Server-sent events as vendors write them: optional `event:` line, one `data:` line, blank line. */
export function sseBody(events: ({ event?: string; data: unknown } | string)[]): string {
  return events
    .map((item) => {
      if (typeof item === "string") return `data: ${item}\n\n`;
      const data = typeof item.data === "string" ? item.data : JSON.stringify(item.data);
      return `${item.event ? `event: ${item.event}\n` : ""}data: ${data}\n\n`;
    })
    .join("");
}

/** Collects an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The ModelCallError a provider call rejects with; the test fails if it resolves or fails otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}
