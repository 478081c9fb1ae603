import { answerEverySearch, searchBaseUrls, startSearchVendor, type RecordedRequest as SearchRequest } from "./search-vendor-server";
import { startFakeVendors } from "./services-vendors";

/**
 * Every outside service a whole flow may call, stood in for by the local servers the components' own tests use
 * (the search stub speaking all the search vendors' protocols, and the fakes of the weather, market and news
 * services), so that templates and RAGFlow's files run end to end without the internet. `baseUrls` goes into the
 * flow's ports; `calls(vendor)` tells which vendors a turn reached, and with what.
 */

const SERVICES = ["QWeather", "WenCai", "AkShare"] as const;
const SEARCH = ["DuckDuckGo", "Wikipedia", "Baidu", "ArXiv", "PubMed"] as const;
export type OutsideVendor = (typeof SEARCH)[number] | (typeof SERVICES)[number];

export interface OutsideCall {
  path: string;
  query: URLSearchParams;
  /** The request body as text. */
  body: string;
}

/** Which search vendor a request to the search stub was for, by the vendor's own path. */
function searchVendorOf(request: SearchRequest): OutsideVendor | undefined {
  if (request.path.endsWith("/w/api.php")) return "Wikipedia";
  if (request.path === "/s") return "Baidu";
  if (["/html/", "/", "/news.js"].includes(request.path)) return "DuckDuckGo";
  if (request.path === "/esearch.fcgi" || request.path === "/efetch.fcgi") return "PubMed";
  if (request.path === "/api/query") return "ArXiv";
  return undefined;
}

export interface OutsideWorld {
  baseUrls: Record<string, string>;
  /** The requests a vendor received since the last `forget()`, oldest first. */
  calls(vendor: OutsideVendor): OutsideCall[];
  forget(): void;
  close(): Promise<void>;
}

export async function startOutsideWorld(): Promise<OutsideWorld> {
  const [search, services] = await Promise.all([startSearchVendor(), startFakeVendors(SERVICES)]);
  search.answer(answerEverySearch);
  return {
    baseUrls: { ...searchBaseUrls(search.url), ...services.baseUrls },
    calls: (vendor) =>
      (SERVICES as readonly string[]).includes(vendor)
        ? services.servers[vendor].requests.map((r) => ({ path: r.path, query: r.query, body: r.body.toString("utf8") }))
        : search.requests.filter((r) => searchVendorOf(r) === vendor).map((r) => ({ path: r.path, query: r.query, body: r.body })),
    forget: () => {
      search.requests.length = 0;
      for (const server of Object.values(services.servers)) server.requests.length = 0;
    },
    close: async () => {
      await Promise.all([search.close(), services.close()]);
    },
  };
}
