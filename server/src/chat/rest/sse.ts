import type { Response } from "express";

/**
 * Server-sent events as RAGFlow writes them (API contract §8.3): `data:` with no space, then a JSON
 * document serialised like Python's `json.dumps(obj, ensure_ascii=False)` — separators ", " and ": ",
 * keys in insertion order, non-ASCII unescaped — then a blank line. No `event:` or `id:` lines.
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
export function openEventStream(res: Response): void {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-control", "no-cache");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
}

/** One frame: `data:<python json>\n\n`. */
export function writeFrame(res: Response, payload: unknown): void {
  if (!res.writableEnded) res.write(`data:${pythonJson(payload)}\n\n`);
}

/** A literal frame (the OpenAI terminator `data:[DONE]`). */
export function writeRawFrame(res: Response, text: string): void {
  if (!res.writableEnded) res.write(`data:${text}\n\n`);
}
