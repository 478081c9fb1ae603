import { XMLParser, XMLValidator } from "fast-xml-parser";
import { componentText, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { SEARCH_RESTRICTED_TARGETS, badAnswer, badQuery, callVendor, noResults, oneLine, searchOutput, searchQuery, topNOf, vendorUrl, type SearchResult } from "./web-search";

const NAME = "ArXiv";
const SERVICE = "arXiv";
const BASE = "https://export.arxiv.org";
const MAX_RESULTS = 100;
/** arXiv answers a query it cannot read with one entry whose id is under this address, its summary the reason. */
const ERROR_ID = "arxiv.org/api/errors";

/** Spec §9's preprint sort options, in arXiv's own words (its API's sortBy values). */
const SORTS = ["submittedDate", "lastUpdatedDate", "relevance"] as const;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, isArray: (name) => name === "entry" || name === "link" });

type Text = string | { "#text"?: string };
const textOf = (node: Text | undefined) => oneLine(typeof node === "string" ? node : (node?.["#text"] ?? ""));

interface Feed {
  feed?: { entry?: { id?: Text; title?: Text; summary?: Text; link?: { href?: string; rel?: string; title?: string }[] }[] };
}

function parseFeed(xml: string): Feed["feed"] & object {
  if (XMLValidator.validate(xml) !== true) throw badAnswer(SERVICE);
  const { feed } = parser.parse(xml) as Feed;
  if (feed === undefined) throw badAnswer(SERVICE);
  return feed || {};
}

function errorEntry(xml: string): string | undefined {
  if (!xml.includes(ERROR_ID)) return undefined;
  try {
    const entry = parseFeed(xml).entry?.find((e) => textOf(e.id).includes(ERROR_ID));
    return entry && textOf(entry.summary);
  } catch {
    return undefined;
  }
}

/** The entries of an arXiv Atom feed: the abstract page as the link (the PDF is one click from it), the abstract as the content. */
function parseEntries(xml: string): SearchResult[] {
  return (parseFeed(xml).entry ?? []).flatMap((entry) => {
    const links = entry.link ?? [];
    const url = links.find((l) => l.rel === "alternate")?.href ?? links.find((l) => l.title === "pdf")?.href ?? textOf(entry.id);
    return url ? [{ title: textOf(entry.title), url, content: textOf(entry.summary) }] : [];
  });
}

export const arXiv: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiArxiv",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(6),
    {
      key: "sort_by",
      type: "select",
      label: componentText.param(NAME, "sort_by"),
      default: "submittedDate",
      options: SORTS.map((value) => ({ value, label: `flow.components.${NAME}.options.sort_by.${value}` })),
    },
  ],
  async run(context) {
    const query = searchQuery(context);
    if (!query) return noResults();
    const count = topNOf(context, MAX_RESULTS);
    const answer = await callVendor(context, {
      service: SERVICE,
      // The query goes as it is, as RAGFlow's arxiv client sends it: plain words, or arXiv's own field syntax (ti:, au:, AND).
      url: vendorUrl(context, NAME, BASE, "/api/query", { search_query: query, start: 0, max_results: count, sortBy: String(context.params.sort_by), sortOrder: "descending" }),
      classify: (_status, _headers, text) => {
        const reason = errorEntry(text);
        return reason === undefined ? undefined : badQuery(SERVICE, reason);
      },
    });
    return searchOutput(parseEntries(answer.text), count);
  },
};
