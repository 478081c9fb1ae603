import { isTag, type AnyNode, type Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import type { ComponentContext, ComponentOutput, OutputItem } from "../../component";
import { inputText, markdownLink } from "../outside-service";

/**
 * What the search components share besides the calls out (../outside-service.ts): the query they read, the
 * reading of result pages, and the rows they output.
 */

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
export const searchQuery = (context: ComponentContext): string => inputText(context, " - ");

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

/**
 * The component's output: the items (`{content, title, url}`) and, as the text other components read, a
 * markdown list of `[title](url): snippet` rows. RAGFlow wrote `<a href="url">title</a> snippet` rows; a
 * markdown list reads the same to a model and renders as links when it goes straight to the chat, where raw
 * HTML is shown as text.
 */
export function searchOutput(results: readonly SearchResult[], topN: number): ComponentOutput {
  const items: OutputItem[] = results.slice(0, topN).map((r) => ({ content: oneLine(r.content), title: oneLine(r.title), url: r.url }));
  const row = (item: OutputItem) => `- ${markdownLink(item.title || item.url || "", item.url)}${item.content ? `: ${item.content}` : ""}`;
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
