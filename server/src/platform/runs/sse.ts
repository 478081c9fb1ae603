import type { ServerResponse } from "node:http";

/**
 * Server-sent events as RAGFlow writes them (API contract §8.3): `data:` with no space, then a JSON
 * document serialised like Python's `json.dumps(obj, ensure_ascii=False)` — separators ", " and ": ",
 * keys in insertion order, non-ASCII unescaped — then a blank line. No `event:` or `id:` lines.
 *
 * `bridgeToSse` writes an async iterable of frames to a response: it opens the stream, writes each frame,
 * optionally a heartbeat while the source is quiet, and when the client goes away before the end it calls
 * `onDisconnect` (cancel the run) and stops reading the source.
 */

/** A number Python holds as a float: printed with a decimal point even when integral (1.0, not 1). */
export class PythonFloat {
  constructor(readonly value: number) {}
}

export const pyFloat = (value: number) => new PythonFloat(value);

function pythonNumber(value: number, float: boolean): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (Number.isInteger(value)) return float ? `${value}.0` : String(value);
  // Python's repr writes exponents with at least two digits (1e-07) where JavaScript writes 1e-7.
  return String(value).replace(/e([+-])(\d)$/, "e$10$2");
}

/** Python's `json.dumps(value, ensure_ascii=False)`. */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof PythonFloat) return pythonNumber(value.value, true);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value, false);
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(String(value));
}

/** Starts an event stream with RAGFlow's headers. */
export function openEventStream(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-control", "no-cache");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
}

/** One frame: `data:<python json>\n\n`. */
export function writeFrame(res: ServerResponse, payload: unknown): void {
  if (!res.writableEnded) res.write(`data:${pythonJson(payload)}\n\n`);
}

/** A literal frame (the OpenAI terminator `data:[DONE]`). */
export function writeRawFrame(res: ServerResponse, text: string): void {
  if (!res.writableEnded) res.write(`data:${text}\n\n`);
}

/** A frame written as it is, not as JSON (`data:[DONE]`). */
export class RawFrame {
  constructor(readonly text: string) {}
}

export const rawFrame = (text: string) => new RawFrame(text);

export interface SseBridgeOptions {
  /**
   * Writes an SSE comment (`:\n\n`) after this long without a frame, so that proxies keep a quiet stream
   * open. Off by default: RAGFlow writes none, and its clients split the body on blank lines.
   */
  heartbeatMs?: number;
  /** The client went away before the last frame: cancel the work that feeds the stream. */
  onDisconnect?: () => void;
}

/** Whether the client is still there: the response neither ended nor closed. */
const connected = (res: ServerResponse) => !res.writableEnded && !res.destroyed;

/**
 * Writes every frame of `frames` (a payload, written as Python JSON, or a `rawFrame`) as an event stream,
 * then ends the response. Resolves when the source is exhausted or the client is gone.
 */
export async function bridgeToSse(res: ServerResponse, frames: AsyncIterable<unknown>, options: SseBridgeOptions = {}): Promise<void> {
  const iterator = frames[Symbol.asyncIterator]();
  let gone!: () => void;
  const disconnected = new Promise<void>((resolve) => (gone = resolve));
  const onClose = () => {
    if (res.writableFinished) return;
    options.onDisconnect?.();
    gone();
  };
  res.on("close", onClose);
  let heartbeat: NodeJS.Timeout | null = null;
  const quietFrom = () => {
    if (!options.heartbeatMs) return;
    if (heartbeat) clearTimeout(heartbeat);
    heartbeat = setTimeout(function beat() {
      if (!connected(res)) return;
      res.write(":\n\n");
      heartbeat = setTimeout(beat, options.heartbeatMs);
    }, options.heartbeatMs);
  };
  if (!res.headersSent) openEventStream(res);
  quietFrom();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), disconnected.then(() => null)]);
      if (next === null || next.done) break;
      if (next.value instanceof RawFrame) writeRawFrame(res, next.value.text);
      else writeFrame(res, next.value);
      quietFrom();
    }
  } finally {
    if (heartbeat) clearTimeout(heartbeat);
    res.off("close", onClose);
    if (!connected(res)) void iterator.return?.()?.catch(() => undefined);
    if (!res.writableEnded) res.end();
  }
}
