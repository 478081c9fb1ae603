import zlib from "node:zlib";
import { DomainError } from "../../../platform/errors";
import { localizedMessage } from "../../../platform/messages";
import { readLimited, type OutboundRequest } from "../../../platform/outbound";
import type { ComponentContext, ComponentOutput, OutputItem } from "../../component";

/**
 * What the data and translation components share to talk to their vendors: the base URL (a test's local
 * server, else the vendor's own), one outbound call through the flow's guard with a time-out, and the failures
 * every vendor can have, told as translated component errors instead of RAGFlow's `**ERROR**` text or `None`.
 */

/** RAGFlow's calls have no time-out at all: a vendor that never answers would hold the run until its budget ends. */
const VENDOR_TIMEOUT_MS = 30_000;
/** Every answer these vendors give is a page of JSON or text; anything far larger is not one of theirs. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The vendor's base URL without a trailing slash: the one the ports give for this component, else the vendor's. */
export function vendorBase(context: ComponentContext, component: string, fallback: string): string {
  return (context.ports.baseUrls?.[component] ?? fallback).replace(/\/+$/, "");
}

/** What the component reads: its input variables when it has any (RAGFlow's `query`), else the upstream output. */
export function readInput(context: ComponentContext, separator = "\n"): string {
  const text = context.inputs.length > 0 ? context.inputs.map((input) => input.content).join(separator) : context.input;
  return text.trim();
}

/**
 * A key, or null when none was given. RAGFlow's forms start with the placeholder "xxx" and its exported flows
 * keep it, so a flow imported with it has no key either.
 */
export function keyOf(value: unknown): string | null {
  const key = typeof value === "string" ? value.trim() : "";
  return key === "" || key === "xxx" ? null : key;
}

export function missingKey(component: string, param: string): DomainError {
  return new DomainError("BAD_REQUEST", "flow.errors.missingKey", { service: component, field: param });
}

/** The vendor answered with an error of its own; `detail` is its message, shown as the vendor wrote it. */
export function vendorError(component: string, detail: string): DomainError {
  return new DomainError("OUTSIDE_SERVICE", "flow.errors.serviceError", { service: component, detail: detail.slice(0, 500) });
}

/** A vendor error we can explain, with a message key of the component's own. */
export function vendorFailure(messageKey: string, params: Record<string, unknown> = {}): DomainError {
  return new DomainError("OUTSIDE_SERVICE", messageKey, params);
}

export function malformedAnswer(component: string): DomainError {
  return new DomainError("OUTSIDE_SERVICE", "flow.errors.serviceMalformed", { service: component });
}

/** An HTTP failure; `detail` is the vendor's message, left out when it is a page of HTML (a gateway's error page). */
export function statusError(component: string, status: number, detail = ""): DomainError {
  const text = detail.trim();
  const message = text.startsWith("<") ? "" : (text.split("\n")[0] ?? "").slice(0, 300);
  return new DomainError("OUTSIDE_SERVICE", "flow.errors.serviceStatus", { service: component, status, detail: message });
}

export interface VendorAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Some vendors (QWeather) always compress their answers, asked or not. */
function decoded(body: Buffer, encoding: string | null): Buffer {
  switch (encoding?.toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    default:
      return body;
  }
}

/**
 * One request to a vendor through the flow's outbound guard. Whatever goes wrong on the way is a translated
 * component error: a refused address stays the guard's own error, a silent vendor is a time-out, a closed port
 * or an unknown host is "unreachable"; a cancelled run is cancelled, not reported as the vendor's failure.
 */
export async function callVendor(
  context: ComponentContext,
  component: string,
  url: string,
  request: OutboundRequest = {},
  timeoutMs = VENDOR_TIMEOUT_MS,
): Promise<VendorAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  try {
    const response = await context.ports.fetch(url, { ...request, signal });
    const body = await readLimited(response, MAX_ANSWER_BYTES, () => malformedAnswer(component));
    let text: string;
    try {
      text = decoded(body, response.headers.get("content-encoding")).toString("utf8");
    } catch {
      throw malformedAnswer(component);
    }
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    if (error instanceof DomainError) throw error;
    if (timeout.aborted) throw new DomainError("OUTSIDE_SERVICE", "flow.errors.serviceTimeout", { service: component, seconds: Math.ceil(timeoutMs / 1000) });
    throw new DomainError("OUTSIDE_SERVICE", "flow.errors.serviceUnreachable", { service: component });
  }
}

/** The answer's body as JSON; anything else is a malformed answer. */
export function parseJson(component: string, answer: VendorAnswer): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw malformedAnswer(component);
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a path of keys and indexes in a vendor's JSON, or undefined where the path breaks. */
export const valueAt = (value: unknown, keys: readonly (string | number)[]): unknown =>
  keys.reduce<unknown>((node, key) => (Array.isArray(node) && typeof key === "number" ? node[key] : isRecord(node) ? node[key] : undefined), value);

/** A cell of a markdown table: one line, pipes escaped. */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** Rows as a markdown table (what RAGFlow's `DataFrame.to_markdown()` gave the model), columns in first-seen order. */
export function markdownTable(rows: readonly Record<string, unknown>[], headers: Record<string, string> = {}): string {
  if (rows.length === 0) return "";
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const head = `| ${columns.map((c) => cell(headers[c] ?? c)).join(" | ")} |`;
  const rule = `|${columns.map(() => " --- |").join("")}`;
  return [head, rule, ...rows.map((row) => `| ${columns.map((c) => cell(row[c])).join(" | ")} |`)].join("\n");
}

/** A record as `key: value` lines, nested records flattened with dotted keys. */
export function keyValueLines(record: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(record).flatMap(([key, value]) =>
    isRecord(value) ? keyValueLines(value, `${prefix}${key}.`) : value === null || value === undefined || value === "" ? [] : [`${prefix}${key}: ${Array.isArray(value) ? value.map(cell).join(", ") : cell(value)}`],
  );
}

/** A text of the component in the runner's language (table headers, section titles). */
export function textIn(context: ComponentContext, key: string, params?: Record<string, unknown>): string {
  return localizedMessage(context.language, key, params);
}

/** A list output: the items, and as `content` each one's title and link above its text (RAGFlow's `<a href>` rows). */
export function listOutput(items: OutputItem[]): ComponentOutput {
  const text = (item: OutputItem) => [item.title && item.url ? `[${item.title}](${item.url})` : item.title, item.content].filter(Boolean).join("\n");
  return { content: items.map(text).join("\n\n"), items };
}
