import type { ComponentContext } from "../../component";
import { badAnswer, callVendor, parseJson, vendorRefused, vendorUrl } from "./web-search";

/** Google and Google Scholar go through SerpApi (Google has no search API of its own for these). */
const BASE = "https://serpapi.com";
/** SerpApi answers 200 with this error when Google found nothing: an empty result, not a failure. */
const NO_RESULTS = /hasn't returned any results/i;

export interface SerpApiResult {
  title?: string;
  link?: string;
  snippet?: string;
  publication_info?: { summary?: string };
}

interface SerpApiAnswer {
  error?: string;
  organic_results?: SerpApiResult[];
}

/** The organic results of one SerpApi search (`engine` and its parameters); the key goes as SerpApi takes it, in the query. */
export async function serpApiSearch(context: ComponentContext, component: string, service: string, parameters: Record<string, string | number | undefined>): Promise<SerpApiResult[]> {
  const answer = await callVendor(context, {
    service,
    url: vendorUrl(context, component, BASE, "/search.json", { ...parameters, output: "json" }),
    headers: { accept: "application/json" },
    keyed: true,
  });
  const body = parseJson<SerpApiAnswer>(answer.text, service);
  if (body.error) {
    if (NO_RESULTS.test(body.error)) return [];
    throw vendorRefused(service, body.error);
  }
  if (body.organic_results === undefined) return [];
  if (!Array.isArray(body.organic_results)) throw badAnswer(service);
  return body.organic_results;
}
