import type { Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import type { ComponentContext, ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import {
  BROWSER_USER_AGENT,
  SEARCH_RESTRICTED_TARGETS,
  callVendor,
  hasClass,
  htmlText,
  noResults,
  oneLine,
  rateLimited,
  searchOutput,
  searchQuery,
  topNOf,
  vendorUrl,
  type SearchResult,
} from "./web-search";

const NAME = "Baidu";
const BASE = "https://www.baidu.com";
/** Baidu's `rn` (results per page) goes up to 50. */
const MAX_PER_PAGE = 50;

/** Baidu sends a client it distrusts to its "security check" captcha (wappass.baidu.com) instead of results. */
function isCaptcha(url: string, text: string): boolean {
  return url.includes("wappass.baidu.com") || text.includes("wappass.baidu.com/static/captcha") || text.includes("百度安全验证");
}

/** A snippet's element: its class has changed over the years (c-abstract, then hashed content-right_xxxx). */
const isSnippet = (classes: string[]) => classes.some((c) => c === "c-abstract" || c.startsWith("content-right"));

/** Newer pages nest a `c-container` in each result's own: the outer one is the result. */
function insideContainer(element: Element): boolean {
  for (let parent = element.parent; parent; parent = parent.parent) if (hasClass(parent, "c-container")) return true;
  return false;
}

/**
 * The organic results of a result page: each `c-container` block carries its title link in an h3 and the
 * page's real address in `mu` (the link itself goes through Baidu's redirector, used when `mu` is missing).
 */
function parseResultPage(html: string): SearchResult[] {
  const containers = DomUtils.findAll((el) => hasClass(el, "c-container") && !insideContainer(el), parseDocument(html).children);
  return containers.flatMap((block) => {
    const heading = DomUtils.findOne((el) => el.name === "h3", block.children);
    const link = heading && DomUtils.findOne((el) => el.name === "a", heading.children);
    const title = heading ? htmlText(DomUtils.getOuterHTML(heading)) : "";
    const mu = block.attribs.mu ?? "";
    const url = /^https?:\/\//.test(mu) ? mu : (link?.attribs.href ?? "");
    if (!title || !url) return [];
    const snippet = DomUtils.findOne((el) => isSnippet((el.attribs.class ?? "").split(/\s+/)), block.children);
    const content = snippet ? htmlText(DomUtils.getOuterHTML(snippet)) : oneLine(htmlText(DomUtils.getOuterHTML(block)).replace(title, ""));
    return [{ title, url, content }];
  });
}

async function search(context: ComponentContext, query: string, count: number): Promise<SearchResult[]> {
  const answer = await callVendor(context, {
    service: NAME,
    url: vendorUrl(context, NAME, BASE, "/s", { wd: query, rn: count, ie: "utf-8" }),
    headers: { "user-agent": BROWSER_USER_AGENT, accept: "text/html", "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" },
  });
  if (isCaptcha(answer.url, answer.text)) throw rateLimited(NAME);
  return parseResultPage(answer.text);
}

export const baidu: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiBaidu",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [DESCRIPTION, INPUT_VARIABLES, topN(10)],
  async run(context) {
    const query = searchQuery(context);
    if (!query) return noResults();
    return searchOutput(await search(context, query, topNOf(context, MAX_PER_PAGE)), topNOf(context));
  },
};
