import { DomUtils, parseDocument } from "htmlparser2";
import { componentText, type ComponentContext, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import {
  BROWSER_USER_AGENT,
  SEARCH_RESTRICTED_TARGETS,
  badAnswer,
  callVendor,
  hasClass,
  htmlText,
  noResults,
  parseJson,
  rateLimited,
  searchOutput,
  searchQuery,
  topNOf,
  vendorUrl,
  type SearchResult,
} from "./web-search";

const NAME = "DuckDuckGo";
/** Web results come from the HTML endpoint (no key, no script); news from the JSON endpoint the site's own page calls. */
const HTML_BASE = "https://html.duckduckgo.com";
const SITE_BASE = "https://duckduckgo.com";
/** All regions, moderate safe search: DuckDuckGo's defaults. */
const REGION = "wt-wt";
const MODERATE_SAFE_SEARCH = "-1";

/** DuckDuckGo answers a client it takes for a bot with 202 and an "anomaly" page instead of results. */
function classify(status: number, _headers: Headers, text: string) {
  return status === 202 || text.includes("anomaly-modal") ? rateLimited(NAME) : undefined;
}

/** A result link is DuckDuckGo's redirect (`//duckduckgo.com/l/?uddg=<target>`) or, on newer pages, the target itself. */
function targetOf(href: string): string {
  try {
    const url = new URL(href, SITE_BASE);
    return url.searchParams.get("uddg") ?? url.href;
  } catch {
    return href;
  }
}

function parseHtmlResults(html: string): SearchResult[] {
  const blocks = DomUtils.findAll((el) => hasClass(el, "result") && !hasClass(el, "result--ad"), parseDocument(html).children);
  return blocks.flatMap((block) => {
    const link = DomUtils.findOne((el) => el.name === "a" && hasClass(el, "result__a"), block.children);
    const href = link?.attribs.href;
    if (!link || !href) return [];
    const snippet = DomUtils.findOne((el) => hasClass(el, "result__snippet"), block.children);
    return [{ title: htmlText(DomUtils.getOuterHTML(link)), url: targetOf(href), content: snippet ? htmlText(DomUtils.getOuterHTML(snippet)) : "" }];
  });
}

async function webResults(context: ComponentContext, query: string): Promise<SearchResult[]> {
  const answer = await callVendor(context, {
    service: NAME,
    url: vendorUrl(context, NAME, HTML_BASE, "/html/"),
    method: "POST",
    headers: { "user-agent": BROWSER_USER_AGENT, accept: "text/html" },
    body: new URLSearchParams({ q: query, b: "", kl: REGION }),
    classify,
  });
  return parseHtmlResults(answer.text);
}

interface NewsAnswer {
  results?: { title?: string; url?: string; excerpt?: string; source?: string; date?: number }[];
}

/** News needs the search's `vqd` token, which the site's result page carries, then its news.js endpoint. */
async function newsResults(context: ComponentContext, query: string): Promise<SearchResult[]> {
  const page = await callVendor(context, {
    service: NAME,
    url: vendorUrl(context, NAME, SITE_BASE, "/"),
    method: "POST",
    headers: { "user-agent": BROWSER_USER_AGENT },
    body: new URLSearchParams({ q: query }),
    classify,
  });
  const vqd = /vqd=["']?([\d-]+)/.exec(page.text)?.[1];
  if (!vqd) throw badAnswer(NAME);
  const news = await callVendor(context, {
    service: NAME,
    url: vendorUrl(context, NAME, SITE_BASE, "/news.js", { l: REGION, o: "json", noamp: 1, q: query, vqd, p: MODERATE_SAFE_SEARCH }),
    headers: { "user-agent": BROWSER_USER_AGENT, accept: "application/json" },
    classify,
  });
  const { results } = parseJson<NewsAnswer>(news.text, NAME);
  if (!Array.isArray(results)) throw badAnswer(NAME);
  return results.flatMap((r) => {
    if (!r.url) return [];
    const when = typeof r.date === "number" ? new Date(r.date * 1000).toISOString().slice(0, 10) : "";
    const about = [r.source, when].filter(Boolean).join(", ");
    return [{ title: htmlText(r.title ?? ""), url: r.url, content: `${htmlText(r.excerpt ?? "")}${about ? ` (${about})` : ""}` }];
  });
}

export const duckDuckGo: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiDuckduckgo",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    {
      key: "channel",
      type: "select",
      label: componentText.param(NAME, "channel"),
      default: "text",
      widget: "segmented",
      options: [
        { value: "text", label: `flow.components.${NAME}.options.channel.text` },
        { value: "news", label: `flow.components.${NAME}.options.channel.news` },
      ],
    },
  ],
  async run(context) {
    const query = searchQuery(context);
    if (!query) return noResults();
    const results = context.params.channel === "news" ? await newsResults(context, query) : await webResults(context, query);
    return searchOutput(results, topNOf(context));
  },
};
