import { DomainError } from "../../../platform/errors";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { answerText, htmlToMarkdown, htmlToText, inputText, PROXY, refuseProxy, webRequest } from "./web";

/**
 * Crawler: reads the web page whose URL is its input, through the run's outbound guard, as markdown, as the
 * page's HTML or as plain text. RAGFlow drives a headless browser (crawl4ai) and its "content" mode gives
 * markdown; Cairn fetches the page as it is served (no scripts run) and "content" is plain text.
 */

const NAME = "Crawler";
const EXTRACT_TYPES = ["markdown", "html", "content"] as const;
/** A page that takes longer than this to arrive is not worth the run's wait. */
const CRAWL_TIMEOUT_MS = 30_000;

export const crawler: ComponentDefinition = {
  name: NAME,
  category: "tools",
  icon: "LuBug",
  needs: ["internet"],
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    {
      key: "extract_type",
      type: "select",
      label: "flow.components.Crawler.params.extract_type",
      options: EXTRACT_TYPES.map((value) => ({ value, label: `flow.components.Crawler.extractTypes.${value}` })),
      default: "markdown",
    },
    PROXY,
  ],
  async run(context) {
    refuseProxy(context.params.proxy);
    const input = inputText(context);
    // The input may be a sentence around the URL (a model's answer): the first http(s) URL in it is the page.
    const url = /https?:\/\/[^\s<>"'`]+/i.exec(input)?.[0];
    if (!url) throw new DomainError("BAD_REQUEST", "flow.components.Crawler.errors.noUrl", { input: input.slice(0, 200) });
    const answer = await webRequest(context, url, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.5" } }, CRAWL_TIMEOUT_MS);
    const html = answerText(answer);
    switch (context.params.extract_type) {
      case "html":
        return { content: html };
      case "content":
        return { content: htmlToText(html) };
      default:
        return { content: htmlToMarkdown(html) };
    }
  },
};
