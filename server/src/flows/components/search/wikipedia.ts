import { componentText, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { CAIRN_USER_AGENT, SEARCH_RESTRICTED_TARGETS, callVendor, noResults, parseJson, searchOutput, searchQuery, topNOf, vendorRefused, vendorUrl } from "./web-search";

const NAME = "Wikipedia";
/** One wiki per language; `{language}` is the param. A test's base URL may hold `{language}` too. */
const BASE = "https://{language}.wikipedia.org";
/** The TextExtracts extension gives intro extracts for at most 20 pages in one request. */
const MAX_EXTRACTS = 20;

/** The languages RAGFlow v0.14 offers (its WikipediaParam.check). */
const LANGUAGES = [
  "af", "pl", "ar", "ast", "az", "bg", "nan", "bn", "be", "ca", "cs", "cy", "da", "de", "et", "el", "en", "es", "eo", "eu", "fa", "fr", "gl", "ko", "hy",
  "hi", "hr", "id", "it", "he", "ka", "lld", "la", "lv", "lt", "hu", "mk", "arz", "ms", "min", "my", "nl", "ja", "nb", "nn", "ce", "uz", "pt", "kk", "ro",
  "ru", "ceb", "sk", "sl", "sr", "sh", "fi", "sv", "ta", "tt", "th", "tg", "azb", "tr", "uk", "ur", "vi", "war", "zh", "yue",
];

interface QueryAnswer {
  error?: { code?: string; info?: string };
  query?: { pages?: { title?: string; index?: number; extract?: string; fullurl?: string }[] };
}

export const wikipedia: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiWikipedia",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    { key: "language", type: "select", label: componentText.param(NAME, "language"), default: "en", options: LANGUAGES.map((value) => ({ value })) },
  ],
  async run(context) {
    const query = searchQuery(context);
    if (!query) return noResults();
    const language = String(context.params.language);
    const count = topNOf(context, MAX_EXTRACTS);
    // One MediaWiki query: the search as a generator, each page's plain-text intro (RAGFlow's page.summary) and its URL.
    const answer = await callVendor(context, {
      service: NAME,
      url: vendorUrl(
        context,
        NAME,
        BASE,
        "/w/api.php",
        {
          action: "query",
          format: "json",
          formatversion: 2,
          generator: "search",
          gsrsearch: query,
          gsrnamespace: 0,
          gsrlimit: count,
          prop: "extracts|info",
          exintro: 1,
          explaintext: 1,
          exlimit: count,
          inprop: "url",
          redirects: 1,
        },
        { language },
      ),
      headers: { "user-agent": CAIRN_USER_AGENT, accept: "application/json" },
    });
    const body = parseJson<QueryAnswer>(answer.text, NAME);
    // MediaWiki reports a bad request with 200 and an error object.
    if (body.error) throw vendorRefused(NAME, body.error.info ?? body.error.code ?? "");
    const pages = [...(body.query?.pages ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const results = pages.flatMap((page) =>
      page.title ? [{ title: page.title, url: page.fullurl ?? `https://${language}.wikipedia.org/wiki/${encodeURIComponent(page.title.replace(/ /g, "_"))}`, content: page.extract ?? "" }] : [],
    );
    return searchOutput(results, count);
  },
};
