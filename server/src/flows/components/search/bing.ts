import { componentText, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { SEARCH_RESTRICTED_TARGETS, badAnswer, callVendor, noResults, parseJson, requiredKey, searchOutput, searchQuery, topNOf, vendorFailed, vendorRefused, vendorUrl, type SearchResult } from "./web-search";

const NAME = "Bing";
const SERVICE = "Bing Search";
const BASE = "https://api.bing.microsoft.com";
/** Bing Web Search's `count` goes up to 50 (News to 100: the lower bound serves both). */
const MAX_RESULTS = 50;

/** The countries and languages RAGFlow v0.14 offers; with the language they make Bing's market (`mkt`, e.g. en-US). */
const COUNTRIES = [
  "AR", "AU", "AT", "BE", "BR", "CA", "CL", "DK", "FI", "FR", "DE", "HK", "IN", "ID", "IT", "JP", "KR", "MY", "MX", "NL", "NZ", "NO", "CN", "PL", "PT", "PH",
  "RU", "SA", "ZA", "ES", "SE", "CH", "TW", "TR", "GB", "US",
];
const LANGUAGES = [
  "ar", "eu", "bn", "bg", "ca", "ns", "nt", "hr", "cs", "da", "nl", "en", "gb", "et", "fi", "fr", "gl", "de", "gu", "he", "hi", "hu", "is", "it", "jp", "kn",
  "ko", "lv", "lt", "ms", "ml", "mr", "nb", "pl", "br", "pt", "pa", "ro", "ru", "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
];

interface BingAnswer {
  _type?: string;
  errors?: { message?: string }[];
  /** Web search: the pages are under webPages. */
  webPages?: { value?: { name?: string; url?: string; snippet?: string }[] };
  /** News search: the articles are the answer's own value. */
  value?: { name?: string; url?: string; description?: string; datePublished?: string; provider?: { name?: string }[] }[];
}

const errorMessage = (body: BingAnswer) => body.errors?.[0]?.message ?? "";

/** Bing's ErrorResponse ({_type, errors: [{code, message}]}) is not an envelope the shared reading knows. */
function classify(status: number, _headers: Headers, text: string) {
  if (status < 400 || status === 401 || status === 403 || status === 429) return undefined;
  try {
    const body = JSON.parse(text) as BingAnswer;
    return body._type === "ErrorResponse" ? vendorFailed(SERVICE, status, errorMessage(body)) : undefined;
  } catch {
    return undefined;
  }
}

function results(body: BingAnswer, news: boolean): SearchResult[] {
  if (news) {
    if (!Array.isArray(body.value)) throw badAnswer(SERVICE);
    return body.value.flatMap((a) => {
      if (!a.url) return [];
      const about = [a.provider?.[0]?.name, a.datePublished?.slice(0, 10)].filter(Boolean).join(", ");
      return [{ title: a.name ?? a.url, url: a.url, content: `${a.description ?? ""}${about ? ` (${about})` : ""}` }];
    });
  }
  // A query with no web results answers without webPages.
  return (body.webPages?.value ?? []).flatMap((p) => (p.url ? [{ title: p.name ?? p.url, url: p.url, content: p.snippet ?? "" }] : []));
}

export const bing: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "BsBing",
  needs: ["apiKey", "internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    {
      key: "channel",
      type: "select",
      label: componentText.param(NAME, "channel"),
      default: "Webpages",
      widget: "segmented",
      options: ["Webpages", "News"].map((value) => ({ value, label: `flow.components.${NAME}.options.channel.${value}` })),
    },
    // RAGFlow's default key is the placeholder "YOUR_ACCESS_KEY"; an empty one says plainly that a key is missing.
    { key: "api_key", type: "secret", label: componentText.param(NAME, "api_key"), help: `flow.components.${NAME}.help.api_key`, default: "" },
    { key: "country", type: "select", label: componentText.param(NAME, "country"), default: "CN", options: COUNTRIES.map((value) => ({ value })) },
    { key: "language", type: "select", label: componentText.param(NAME, "language"), default: "en", options: LANGUAGES.map((value) => ({ value })) },
  ],
  async run(context) {
    const apiKey = requiredKey(context.params.api_key, SERVICE);
    const query = searchQuery(context);
    if (!query) return noResults();
    const news = context.params.channel === "News";
    const language = String(context.params.language);
    const count = topNOf(context, MAX_RESULTS);
    const answer = await callVendor(context, {
      service: SERVICE,
      url: vendorUrl(context, NAME, BASE, news ? "/v7.0/news/search" : "/v7.0/search", {
        q: query,
        count,
        mkt: `${language}-${String(context.params.country)}`,
        setLang: language,
        textFormat: "Raw",
        ...(news ? {} : { responseFilter: "Webpages" }),
      }),
      headers: { "Ocp-Apim-Subscription-Key": apiKey, accept: "application/json" },
      keyed: true,
      classify,
    });
    const body = parseJson<BingAnswer>(answer.text, SERVICE);
    if (body._type === "ErrorResponse") throw vendorRefused(SERVICE, errorMessage(body));
    return searchOutput(results(body, news), count);
  },
};
