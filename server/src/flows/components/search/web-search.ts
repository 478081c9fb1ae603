import { isTag, type AnyNode, type Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import { vendorMessage } from "../../../models/http";
import { DomainError } from "../../../platform/errors";
import { OutboundRefused, readLimited } from "../../../platform/outbound";
import type { ComponentContext, ComponentOutput, OutputItem } from "../../component";

/**
 * What the search components share: the query they read, the one way they call a vendor (through the
 * outbound guard, with a time limit, every failure a translated error), and the rows they output.
 */

/** How long one request to a search service may take: they answer in a second or two, and a hung one must not hold the run until its budget is spent. */
const SEARCH_TIME_LIMIT_MS = 30_000;
/** A result page or an abstracts file is a few hundred kilobytes; more is not a search answer. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * Some vendors serve their result pages to browsers only (Baidu answers a script with a captcha, DuckDuckGo's
 * HTML endpoint with an empty page), so the page-reading components say they are one, as RAGFlow's do.
 */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
/** The APIs that ask callers to name themselves (Wikimedia's User-Agent policy, GitHub's required header). */
export const CAIRN_USER_AGENT = "Cairn-flows/1.0 (agent flow search component)";

export interface SearchResult {
  title: string;
  url: string;
  /** The snippet, summary or abstract, as plain text. */
  content: string;
}

/** The query: the input variables when the component has some (joined as RAGFlow joins its input rows), else the default input. */
export function searchQuery(context: ComponentContext): string {
  const parts = context.inputs.length > 0 ? context.inputs.map((input) => input.content) : [context.input];
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" - ");
}

const errorOf = (kind: "OUTSIDE_SERVICE" | "BAD_REQUEST", reason: string, params: Record<string, unknown>) =>
  new DomainError(kind, `flow.errors.search.${reason}`, params);

/** The vendor refused the query itself (a syntax it does not take): the user's to fix, not the vendor's. */
export const badQuery = (service: string, detail: string) => errorOf("BAD_REQUEST", "badQuery", { service, detail: shortened(detail) });
/** The vendor answered something that is not what its protocol promises. */
export const badAnswer = (service: string) => errorOf("OUTSIDE_SERVICE", "badAnswer", { service });
export const rateLimited = (service: string) => errorOf("OUTSIDE_SERVICE", "rateLimited", { service });
export const vendorFailed = (service: string, status: number, detail: string) => errorOf("OUTSIDE_SERVICE", "failed", { service, status, detail: shortened(detail) });
/** The vendor answered, successfully by its status, with an error of its own (MediaWiki, SerpApi and NCBI do). */
export const vendorRefused = (service: string, detail: string) => errorOf("OUTSIDE_SERVICE", "refused", { service, detail: shortened(detail) });

/** RAGFlow v0.14 fills its key fields with these placeholders, so an imported flow holds them where no key was given. */
const PLACEHOLDER_KEYS = new Set(["xxx", "YOUR_ACCESS_KEY", "YOUR_API_KEY"]);

/** The API key a vendor needs, or a clear error before anything is sent. */
export function requiredKey(value: unknown, service: string): string {
  const key = typeof value === "string" ? value.trim() : "";
  if (!key || PLACEHOLDER_KEYS.has(key)) throw errorOf("BAD_REQUEST", "keyMissing", { service });
  return key;
}

const MAX_DETAIL = 300;

function shortened(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL - 1)}…` : clean;
}

/**
 * The vendor's base URL: the one the run's ports give for this component (tests stand a local server in), else
 * the vendor's own. `{language}` in it is filled in (Wikipedia has one host per language).
 */
export function vendorUrl(
  context: ComponentContext,
  component: string,
  vendorBase: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
  fill: Record<string, string> = {},
): URL {
  const base = (context.ports.baseUrls?.[component] ?? vendorBase).replace(/\{(\w+)\}/g, (whole, name: string) => (name in fill ? encodeURIComponent(fill[name]) : whole)).replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(`${base}${path}`);
  } catch {
    throw new OutboundRefused("url", base.slice(0, 200));
  }
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

export interface VendorCall {
  /** The vendor's name, as messages show it. */
  service: string;
  url: URL;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: URLSearchParams;
  /** The request carries the user's key: a 401 or 403 then says that the key was refused. */
  keyed?: boolean;
  /** A vendor's own reading of an error answer, before the status's (GitHub says "rate limit" with a 403). */
  classify?(status: number, headers: Headers, text: string): DomainError | undefined;
  timeoutMs?: number;
}

export interface VendorAnswer {
  text: string;
  /** The last hop's URL (a captcha page is a redirect away). */
  url: string;
  headers: Headers;
}

/**
 * One request to a vendor, through the run's outbound guard. Whatever goes wrong is a DomainError in the
 * runner's words: the guard's refusal as it is, a transport failure or a time-out, an error status with the
 * vendor's own message when it sends one in a recognised JSON envelope (never a page it answered: a base URL
 * may point anywhere). A cancelled run stays a cancellation.
 */
export async function callVendor(context: ComponentContext, call: VendorCall): Promise<VendorAnswer> {
  const timeoutMs = call.timeoutMs ?? SEARCH_TIME_LIMIT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  let status: number;
  let headers: Headers;
  let text: string;
  let url: string;
  try {
    const response = await context.ports.fetch(call.url, { method: call.method ?? "GET", headers: call.headers, body: call.body, signal: AbortSignal.any([context.signal, timeout]) });
    ({ status, headers, url } = response);
    text = (await readLimited(response, MAX_ANSWER_BYTES, () => errorOf("OUTSIDE_SERVICE", "tooLarge", { service: call.service }))).toString("utf8");
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (context.signal.aborted) throw context.signal.reason ?? error;
    if (timeout.aborted) throw errorOf("OUTSIDE_SERVICE", "timeout", { service: call.service, seconds: Math.ceil(timeoutMs / 1000) });
    const code = (error as NodeJS.ErrnoException).code ?? (error as { cause?: NodeJS.ErrnoException }).cause?.code;
    throw errorOf("OUTSIDE_SERVICE", "unreachable", { service: call.service, detail: code ?? shortened((error as Error).message ?? String(error)) });
  }
  const own = call.classify?.(status, headers, text);
  if (own) throw own;
  if (status >= 200 && status < 300) return { text, url, headers };
  if ((status === 401 || status === 403) && call.keyed) throw errorOf("OUTSIDE_SERVICE", "keyRejected", { service: call.service, status, detail: shortened(vendorMessage(text)) });
  if (status === 429) throw rateLimited(call.service);
  throw vendorFailed(call.service, status, vendorMessage(text));
}

/** The answer as JSON, or the vendor's protocol was not kept. */
export function parseJson<T = Record<string, unknown>>(text: string, service: string): T {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === "object" && parsed !== null) return parsed as T;
  } catch {
    // falls through to the error below
  }
  throw badAnswer(service);
}

/** The text of an HTML fragment (a snippet with <b> highlights and entities), whitespace collapsed. */
export function htmlText(html: string): string {
  return oneLine(DomUtils.textContent(parseDocument(html).children));
}

/** Whether a node is an element with this class among its classes. */
export function hasClass(node: AnyNode, name: string): node is Element {
  return isTag(node) && (node.attribs.class ?? "").split(/\s+/).includes(name);
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Markdown link text and targets that stay one link whatever a vendor's title or URL holds. */
const linkText = (text: string) => text.replace(/([\\[\]])/g, "\\$1");
// encodeURIComponent leaves parentheses as they are.
const linkTarget = (url: string) => url.replace(/[\s()<>]/g, (c) => (c === "(" ? "%28" : c === ")" ? "%29" : encodeURIComponent(c)));

/**
 * The component's output: the items (`{content, title, url}`) and, as the text other components read, a
 * markdown list of `[title](url): snippet` rows. RAGFlow wrote `<a href="url">title</a> snippet` rows; a
 * markdown list reads the same to a model and renders as links when it goes straight to the chat, where raw
 * HTML is shown as text.
 */
export function searchOutput(results: readonly SearchResult[], topN: number): ComponentOutput {
  const items: OutputItem[] = results.slice(0, topN).map((r) => ({ content: oneLine(r.content), title: oneLine(r.title), url: r.url }));
  const row = (item: OutputItem) => {
    const title = linkText(item.title || item.url || "");
    const head = item.url ? `[${title}](${linkTarget(item.url)})` : title;
    return `- ${head}${item.content ? `: ${item.content}` : ""}`;
  };
  return { content: items.map(row).join("\n"), items };
}

/** What a search outputs for an empty query, as RAGFlow's do: nothing, without asking the vendor. */
export const noResults = (): ComponentOutput => ({ content: "", items: [] });

/** The top_n param, clamped to what one request of the vendor may ask for. */
export function topNOf(context: ComponentContext, vendorMax = Number.POSITIVE_INFINITY): number {
  const n = Number(context.params.top_n);
  return Math.max(1, Math.min(Number.isFinite(n) ? Math.floor(n) : 1, vendorMax));
}

/** Where a search may not lead (RAGFlow's RestrictedUpstreamMap for the search tools). */
export const SEARCH_RESTRICTED_TARGETS = ["Begin", "Retrieval"] as const;
