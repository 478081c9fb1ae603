import zlib from "node:zlib";
import { htmlBlocks } from "../../ingestion/parsers/html-blocks";
import { decodeText } from "../../ingestion/parsers/plain-text";
import type { Block } from "../../ingestion/types";
import { vendorMessage } from "../../models/http";
import { DomainError, type ErrorKind } from "../../platform/errors";
import { OutboundRefused, readLimited, type OutboundRequest } from "../../platform/outbound";
import type { ComponentContext } from "../component";

/**
 * What every component that calls an outside service (the search, data and translation vendors, the web
 * tools) shares: the vendor's base URL, the text the component reads, the key it needs, one request through
 * the run's outbound guard (`ports.fetch`) with a time-out, a size cap and decompression, the failures every
 * call can have told in one vocabulary of translated errors (`flow.errors.outside.*`), and the readings of an
 * answer (JSON, HTML as text or markdown, rows as a markdown table).
 */

/** RAGFlow's calls have no time-out at all: a vendor that never answers would hold the run until its budget ends. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** A vendor's answer is a page of JSON, text or HTML of a few hundred kilobytes; far more is not an answer. */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
/** How much of a vendor's own message an error shows. */
const MAX_DETAIL = 300;

// ---- errors -------------------------------------------------------------------------------------------------

export const outsideError = (kind: Extract<ErrorKind, "OUTSIDE_SERVICE" | "BAD_REQUEST">, reason: string, params?: Record<string, unknown>) =>
  new DomainError(kind, `flow.errors.outside.${reason}`, params);

/** A vendor's text for a message: one line, no control characters, cut at a few hundred characters. */
function shortened(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL - 1)}…` : clean;
}

/** The vendor refused the query itself (a syntax it does not take): the user's to fix, not the vendor's. */
export const badQuery = (service: string, detail: string) => outsideError("BAD_REQUEST", "badQuery", { service, detail: shortened(detail) });
/** The vendor answered something that is not what its protocol promises. */
export const malformedAnswer = (service: string) => outsideError("OUTSIDE_SERVICE", "malformed", { service });
export const rateLimited = (service: string) => outsideError("OUTSIDE_SERVICE", "rateLimited", { service });
/** The vendor answered with an error of its own (in a 200 or with a status); `detail` is its message. */
export const vendorError = (service: string, detail: string) => outsideError("OUTSIDE_SERVICE", "vendorError", { service, detail: shortened(detail) });

/**
 * An HTTP status the vendor failed with; `detail` is the vendor's message, its first line, left out when it is
 * a page of HTML (a gateway's error page, or whatever a base URL pointing elsewhere answers).
 */
export function statusError(service: string, status: number, detail = ""): DomainError {
  const text = detail.trim();
  return outsideError("OUTSIDE_SERVICE", "status", { service, status, detail: text.startsWith("<") ? "" : shortened(text.split("\n")[0] ?? "") });
}

// ---- what a component reads ----------------------------------------------------------------------------------

/** The vendor's base URL without a trailing slash: the one the ports give for this component (a test's local server), else the vendor's. */
export function vendorBase(context: ComponentContext, component: string, fallback: string): string {
  return (context.ports.baseUrls?.[component] ?? fallback).replace(/\/+$/, "");
}

/**
 * A URL at the vendor's base with these query parameters; `{name}` in the base is filled in (Wikipedia has
 * one host per language). A base that is no URL is refused as the guard refuses one.
 */
export function vendorUrl(
  context: ComponentContext,
  component: string,
  fallback: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
  fill: Record<string, string> = {},
): URL {
  const base = vendorBase(context, component, fallback).replace(/\{(\w+)\}/g, (whole, name: string) => (name in fill ? encodeURIComponent(fill[name]) : whole));
  let url: URL;
  try {
    url = new URL(`${base}${path}`);
  } catch {
    throw new OutboundRefused("url", base.slice(0, 200));
  }
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

/**
 * What the component reads: its input variables when it has some (RAGFlow's `query` rows, joined by
 * `separator`), else the default input; each part trimmed, empty ones left out.
 */
export function inputText(context: ComponentContext, separator = "\n"): string {
  const parts = context.inputs.length > 0 ? context.inputs.map((input) => input.content) : [context.input];
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(separator);
}

/** RAGFlow fills its key fields with these placeholders, so an imported flow holds them where no key was given. */
const PLACEHOLDER_KEYS = new Set(["xxx", "YOUR_ACCESS_KEY", "YOUR_API_KEY"]);

/** The key (or id, token) the vendor needs, from the param `field`, or a clear error before anything is sent. */
export function requiredKey(context: ComponentContext, field: string, service: string): string {
  const value = context.params[field];
  const key = typeof value === "string" ? value.trim() : "";
  if (!key || PLACEHOLDER_KEYS.has(key)) throw outsideError("BAD_REQUEST", "keyMissing", { service, field });
  return key;
}

// ---- the call -----------------------------------------------------------------------------------------------

export interface OutsideCall extends Omit<OutboundRequest, "signal"> {
  /** The vendor's name (or the address a web tool reaches), as messages show it. */
  service: string;
  url: string | URL;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface OutsideAnswer {
  status: number;
  headers: Headers;
  /** The last hop's URL (a captcha page is a redirect away). */
  url: string;
  /** The body, decompressed, as text in the charset it declares (else UTF-8 and BOMs, as ingestion reads files). */
  text: string;
}

/** Some vendors (QWeather) compress their answers, asked or not. */
function decompressed(body: Buffer, encoding: string | null): Buffer {
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

function decoded(body: Buffer, contentType: string | null): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? "")?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // an unknown charset: read it as ingestion would
    }
  }
  return decodeText(body);
}

/**
 * One request through the run's outbound guard, read whole (up to the size cap) within the time limit,
 * whatever its status. Whatever goes wrong on the way is a translated error: a refused address stays the
 * guard's own error, a silent vendor is a time-out, a closed port or an unknown host is "unreachable"; a
 * cancelled run stays a cancellation, not the vendor's failure.
 */
export async function fetchOutside(context: ComponentContext, call: OutsideCall): Promise<OutsideAnswer> {
  const { service, url, timeoutMs = DEFAULT_TIMEOUT_MS, maxBytes = DEFAULT_MAX_BYTES, ...request } = call;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await context.ports.fetch(url, { ...request, signal: AbortSignal.any([context.signal, timeout]) });
    const raw = await readLimited(response, maxBytes, () => outsideError("OUTSIDE_SERVICE", "tooLarge", { service, megabytes: Math.round(maxBytes / 1024 / 1024) }));
    let body: Buffer;
    try {
      body = decompressed(raw, response.headers.get("content-encoding"));
    } catch {
      throw malformedAnswer(service);
    }
    return { status: response.status, headers: response.headers, url: response.url, text: decoded(body, response.headers.get("content-type")) };
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    if (error instanceof DomainError) throw error;
    if (timeout.aborted) throw outsideError("OUTSIDE_SERVICE", "timeout", { service, seconds: Math.ceil(timeoutMs / 1000) });
    const code = (error as NodeJS.ErrnoException).code ?? (error as { cause?: NodeJS.ErrnoException }).cause?.code;
    throw outsideError("OUTSIDE_SERVICE", "unreachable", { service, detail: code ?? shortened((error as Error).message ?? String(error)) });
  }
}

export interface VendorCall extends OutsideCall {
  /** The request carries the user's key: a 401 or 403 then says that the key was refused. */
  keyed?: boolean;
  /** A vendor's own reading of its answer, before the status's (GitHub says "rate limit" with a 403). */
  classify?(status: number, headers: Headers, text: string): DomainError | undefined;
}

/**
 * A request whose answer must be a success: besides `fetchOutside`'s failures, a status other than 2xx is an
 * error (a refused key, rate limiting, or the status with the vendor's own message when it sends one in a
 * recognised JSON envelope).
 */
export async function callVendor(context: ComponentContext, call: VendorCall): Promise<OutsideAnswer> {
  const { keyed, classify, ...request } = call;
  const answer = await fetchOutside(context, request);
  const own = classify?.(answer.status, answer.headers, answer.text);
  if (own) throw own;
  const { status } = answer;
  if (status >= 200 && status < 300) return answer;
  if ((status === 401 || status === 403) && keyed) throw outsideError("OUTSIDE_SERVICE", "keyRejected", { service: call.service, status, detail: shortened(vendorMessage(answer.text)) });
  if (status === 429) throw rateLimited(call.service);
  throw statusError(call.service, status, vendorMessage(answer.text));
}

// ---- readings of an answer -----------------------------------------------------------------------------------

/** The answer as a JSON object (or array), or the vendor's protocol was not kept. */
export function parseJson<T = Record<string, unknown>>(text: string, service: string): T {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === "object" && parsed !== null) return parsed as T;
  } catch {
    // falls through to the error below
  }
  throw malformedAnswer(service);
}

/**
 * The answer of a vendor that tells its errors in a JSON body whatever its status (Jin10, QWeather, Yahoo):
 * its JSON, or when it is unreadable, the status's failure (a malformed answer if the status said success).
 */
export function answerJson<T = Record<string, unknown>>(answer: OutsideAnswer, service: string): T {
  try {
    return parseJson<T>(answer.text, service);
  } catch (error) {
    if (answer.status < 200 || answer.status >= 300) throw statusError(service, answer.status);
    throw error;
  }
}

/** A markdown link (or the bare text without a URL) that stays one link whatever a vendor's title or URL holds. */
export function markdownLink(text: string, url: string | undefined): string {
  const label = text.replace(/([\\[\]])/g, "\\$1");
  // encodeURIComponent leaves parentheses as they are.
  return url ? `[${label}](${url.replace(/[\s()<>]/g, (c) => (c === "(" ? "%28" : c === ")" ? "%29" : encodeURIComponent(c)))})` : label;
}

/** A cell of a markdown table: one line, pipes escaped, objects as JSON. */
export function tableCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** A markdown table (what RAGFlow's `DataFrame.to_markdown()` gave the model); rows padded to the widest. */
export function markdownTable(header: readonly unknown[], rows: readonly (readonly unknown[])[]): string {
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const line = (cells: readonly unknown[]) => `| ${Array.from({ length: width }, (_, i) => tableCell(cells[i])).join(" | ")} |`;
  return [line(header), line(Array<string>(width).fill("---")), ...rows.map(line)].join("\n");
}

/** Records as a markdown table, columns in first-seen order, headed by `labels` where given. */
export function recordsTable(records: readonly Record<string, unknown>[], labels: Record<string, string> = {}): string {
  if (records.length === 0) return "";
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  return markdownTable(
    columns.map((c) => labels[c] ?? c),
    records.map((record) => columns.map((c) => record[c])),
  );
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.level)} ${block.text}`;
    case "paragraph":
      return block.text;
    case "listItem":
      // an ordered item carries its number; an unordered one has no marker of its own
      return `${"  ".repeat(block.depth)}${/^\d+\. /.test(block.text) ? "" : "- "}${block.text}`;
    case "code":
      return `\`\`\`${block.language ?? ""}\n${block.text}\n\`\`\``;
    case "table": {
      const table = block.header.length > 0 ? markdownTable(block.header, block.rows) : markdownTable(block.rows[0] ?? [], block.rows.slice(1));
      return block.caption ? `${block.caption}\n\n${table}` : table;
    }
    case "image":
      return block.caption ?? "";
    case "pageBreak":
      return "";
  }
}

function blockPlainText(block: Block): string {
  switch (block.kind) {
    case "table":
      return [block.caption, ...[block.header, ...block.rows].filter((row) => row.length > 0).map((row) => row.join("\t"))].filter(Boolean).join("\n");
    case "image":
      return block.caption ?? "";
    case "pageBreak":
      return "";
    default:
      return block.text;
  }
}

/** A page's readable content as markdown (headings, lists, code, tables), by ingestion's HTML parser. */
export function htmlToMarkdown(html: string): string {
  const { title, blocks } = htmlBlocks(html);
  let markdown = title && !blocks.some((block) => block.kind === "heading") ? `# ${title}` : "";
  let previous: Block["kind"] | undefined;
  for (const block of blocks) {
    const part = blockMarkdown(block);
    if (part === "") continue;
    // the items of one list stay together; other blocks are paragraphs apart
    markdown += markdown === "" ? part : `${previous === "listItem" && block.kind === "listItem" ? "\n" : "\n\n"}${part}`;
    previous = block.kind;
  }
  return markdown;
}

/** A page's readable content as plain text, one block a line (RAGFlow's HtmlParser sections, joined). */
export function htmlToText(html: string): string {
  return htmlBlocks(html)
    .blocks.map(blockPlainText)
    .filter((part) => part !== "")
    .join("\n");
}
