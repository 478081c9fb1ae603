import { XMLParser, XMLValidator } from "fast-xml-parser";
import { componentText, type ComponentContext, type ComponentDefinition } from "../../component";
import { DomainError } from "../../../platform/errors";
import type { ParamIssue } from "../../../platform/param-spec";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { SEARCH_RESTRICTED_TARGETS, badAnswer, badQuery, callVendor, htmlText, noResults, parseJson, searchOutput, searchQuery, topNOf, vendorRefused, vendorUrl, type SearchResult } from "./web-search";

const NAME = "PubMed";
const SERVICE = "PubMed (NCBI E-utilities)";
const BASE = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";
/** NCBI asks every E-utilities caller to name its tool and give an email address where it can reach the user. */
const TOOL = "cairn";
const MAX_RESULTS = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_ERROR = `flow.components.${NAME}.errors.email`;

/** Spec §5: the biomedical literature component requires an email (NCBI contacts it before blocking a caller). */
function emailIssues(value: unknown): ParamIssue[] {
  return typeof value === "string" && EMAIL.test(value.trim()) ? [] : [{ code: "email", messageKey: EMAIL_ERROR }];
}

interface SearchAnswer {
  error?: string;
  esearchresult?: { idlist?: string[]; ERROR?: string };
}

/** Titles and abstracts hold inline markup (<i>, <sup>, <b>): kept raw, then read as text. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  stopNodes: ["*.ArticleTitle", "*.AbstractText"],
  isArray: (name) => name === "PubmedArticle" || name === "AbstractText",
});

type Node = string | { "#text"?: string; "@_Label"?: string };
const textOf = (node: Node | undefined) => (typeof node === "string" ? node : (node?.["#text"] ?? ""));

interface ArticleSet {
  eFetchResult?: { ERROR?: string };
  PubmedArticleSet?: "" | { PubmedArticle?: { MedlineCitation?: { PMID?: Node; Article?: { ArticleTitle?: Node; Abstract?: { AbstractText?: Node[] } } } }[] };
}

/** The articles of an efetch answer (PubmedArticleSet XML), in the order of `ids`. */
function parseArticles(xml: string, ids: string[]): SearchResult[] {
  if (XMLValidator.validate(xml) !== true) throw badAnswer(SERVICE);
  const parsed = parser.parse(xml) as ArticleSet;
  if (parsed.eFetchResult?.ERROR) throw vendorRefused(SERVICE, String(parsed.eFetchResult.ERROR));
  if (parsed.PubmedArticleSet === undefined) throw badAnswer(SERVICE);
  const articles = (parsed.PubmedArticleSet || {}).PubmedArticle ?? [];
  const results = articles.flatMap((article) => {
    const citation = article.MedlineCitation;
    const pmid = textOf(citation?.PMID).trim();
    if (!pmid) return [];
    const abstract = (citation?.Article?.Abstract?.AbstractText ?? []).map((part) => {
      const label = typeof part === "string" ? undefined : part["@_Label"];
      return `${label ? `${label}: ` : ""}${htmlText(textOf(part))}`;
    });
    return [{ pmid, title: htmlText(textOf(citation?.Article?.ArticleTitle)), url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`, content: abstract.join(" ") }];
  });
  // esearch ranks by relevance; efetch does not promise to keep that order.
  const rank = new Map(ids.map((id, i) => [id, i]));
  return results.sort((a, b) => (rank.get(a.pmid) ?? ids.length) - (rank.get(b.pmid) ?? ids.length)).map(({ title, url, content }) => ({ title, url, content }));
}

async function search(context: ComponentContext, query: string, email: string): Promise<SearchResult[]> {
  const identity = { tool: TOOL, email };
  const found = await callVendor(context, {
    service: SERVICE,
    url: vendorUrl(context, NAME, BASE, "/esearch.fcgi", { db: "pubmed", term: query, retmax: topNOf(context, MAX_RESULTS), retmode: "json", ...identity }),
  });
  const { error, esearchresult } = parseJson<SearchAnswer>(found.text, SERVICE);
  if (error) throw vendorRefused(SERVICE, error);
  if (!esearchresult) throw badAnswer(SERVICE);
  if (esearchresult.ERROR) throw badQuery(SERVICE, esearchresult.ERROR);
  const ids = esearchresult.idlist ?? [];
  if (ids.length === 0) return [];
  const fetched = await callVendor(context, {
    service: SERVICE,
    url: vendorUrl(context, NAME, BASE, "/efetch.fcgi", { db: "pubmed", id: ids.join(","), retmode: "xml", ...identity }),
  });
  return parseArticles(fetched.text, ids);
}

export const pubMed: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiPubmed",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(5),
    // No default (RAGFlow's is Biopython's example address): a new PubMed node asks for the user's own.
    { key: "email", type: "string", label: componentText.param(NAME, "email"), help: `flow.components.${NAME}.help.email`, required: true, trimmed: true, check: emailIssues },
  ],
  async run(context) {
    const email = typeof context.params.email === "string" ? context.params.email.trim() : "";
    // The engine checks the params before a run; a run given unchecked params still never asks NCBI anonymously.
    if (emailIssues(email).length > 0) throw new DomainError("BAD_REQUEST", EMAIL_ERROR);
    const query = searchQuery(context);
    if (!query) return noResults();
    return searchOutput(await search(context, query, email), topNOf(context, MAX_RESULTS));
  },
};
