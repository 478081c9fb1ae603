import { componentText, type ComponentDefinition } from "../../component";
import { vendorMessage } from "../../../models/http";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { CAIRN_USER_AGENT, SEARCH_RESTRICTED_TARGETS, badAnswer, badQuery, callVendor, noResults, parseJson, rateLimited, searchOutput, searchQuery, topNOf, vendorUrl } from "./web-search";

const NAME = "GitHub";
const BASE = "https://api.github.com";
/** GitHub's `per_page` goes up to 100. */
const MAX_RESULTS = 100;

interface RepositorySearch {
  items?: { full_name?: string; html_url?: string; description?: string | null; stargazers_count?: number; language?: string | null }[];
}

/** GitHub says "rate limit" with 403 or 429 and x-ratelimit-remaining 0 (10 searches a minute without a token, 30 with one), and a query it cannot read with 422. */
function classify(status: number, headers: Headers, text: string) {
  if ((status === 403 || status === 429) && headers.get("x-ratelimit-remaining") === "0") return rateLimited(NAME);
  if (status === 422) return badQuery(NAME, vendorMessage(text));
  return undefined;
}

export const gitHub: ComponentDefinition = {
  name: NAME,
  category: "search",
  icon: "SiGithub",
  needs: ["internet"],
  restrictedTargets: SEARCH_RESTRICTED_TARGETS,
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    // Beyond RAGFlow v0.14: a token is optional and raises GitHub's search rate limit.
    { key: "token", type: "secret", label: componentText.param(NAME, "token"), help: `flow.components.${NAME}.help.token`, default: "" },
  ],
  async run(context) {
    const query = searchQuery(context);
    if (!query) return noResults();
    const token = typeof context.params.token === "string" ? context.params.token.trim() : "";
    const count = topNOf(context, MAX_RESULTS);
    const answer = await callVendor(context, {
      service: NAME,
      url: vendorUrl(context, NAME, BASE, "/search/repositories", { q: query, sort: "stars", order: "desc", per_page: count }),
      headers: {
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        // GitHub refuses requests without a User-Agent.
        "user-agent": CAIRN_USER_AGENT,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      keyed: Boolean(token),
      classify,
    });
    const { items } = parseJson<RepositorySearch>(answer.text, NAME);
    if (!Array.isArray(items)) throw badAnswer(NAME);
    return searchOutput(
      items.flatMap((repo) => {
        if (!repo.html_url) return [];
        const facts = [`stars: ${repo.stargazers_count ?? 0}`, repo.language].filter(Boolean).join(", ");
        return [{ title: repo.full_name ?? repo.html_url, url: repo.html_url, content: `${repo.description ?? ""} (${facts})`.trim() }];
      }),
      count,
    );
  },
};
