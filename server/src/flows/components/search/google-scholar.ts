import { componentText, type ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { serpApiSearch } from "./serpapi";
import { SEARCH_RESTRICTED_TARGETS, noResults, requiredKey, searchOutput, searchQuery, topNOf } from "./web-search";

const NAME = "GoogleScholar";
const SERVICE = "Google Scholar (SerpApi)";
/** Google Scholar's `num` goes up to 20. */
const MAX_RESULTS = 20;
/** SerpApi's Scholar filters: `as_sdt` 7 includes patents, 0 leaves them out; `scisbd` 1 sorts by date (as the scholarly library RAGFlow used does). */
const WITH_PATENTS = "7";
const WITHOUT_PATENTS = "0";
const SORT_BY_DATE = 1;

const year = (value: unknown) => (typeof value === "number" && Number.isInteger(value) ? value : undefined);

export const googleScholar: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiGooglescholar",
  needs: ["apiKey", "internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(6),
    {
      key: "sort_by",
      type: "select",
      label: componentText.param(NAME, "sort_by"),
      default: "relevance",
      options: ["date", "relevance"].map((value) => ({ value, label: `flow.components.${NAME}.options.sort_by.${value}` })),
    },
    { key: "year_low", type: "integer", label: componentText.param(NAME, "year_low"), min: 1000, max: 9999, nullable: true, default: null },
    { key: "year_high", type: "integer", label: componentText.param(NAME, "year_high"), min: 1000, max: 9999, nullable: true, default: null },
    { key: "patents", type: "boolean", label: componentText.param(NAME, "patents"), default: true },
    // Beyond RAGFlow v0.14, which scraped Scholar with the scholarly library: SerpApi needs a key.
    { key: "api_key", type: "secret", label: componentText.param(NAME, "api_key"), help: `flow.components.${NAME}.help.api_key`, default: "" },
  ],
  async run(context) {
    const apiKey = requiredKey(context.params.api_key, SERVICE);
    const query = searchQuery(context);
    if (!query) return noResults();
    const { params } = context;
    const count = topNOf(context, MAX_RESULTS);
    const found = await serpApiSearch(context, NAME, SERVICE, {
      engine: "google_scholar",
      q: query,
      api_key: apiKey,
      num: count,
      as_ylo: year(params.year_low),
      as_yhi: year(params.year_high),
      as_sdt: params.patents === false ? WITHOUT_PATENTS : WITH_PATENTS,
      scisbd: params.sort_by === "date" ? SORT_BY_DATE : undefined,
    });
    // A citation-only result has no link: it is kept, as its title and authors still say what exists.
    return searchOutput(
      found.flatMap((r) => (r.title ? [{ title: r.title, url: r.link ?? "", content: [r.publication_info?.summary, r.snippet].filter(Boolean).join(" — ") }] : [])),
      count,
    );
  },
};
