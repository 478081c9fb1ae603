import { startSearchVendor, type RecordedRequest, type SearchVendorServer, type VendorReply } from "./search-vendor-server";

/**
 * One local server standing in for every outside service a whole flow may call — the search engines, the weather,
 * market and news services — each under its own path prefix, answering in that vendor's real format (a small
 * recorded-shape answer each), so that templates and RAGFlow's files run end to end without the internet.
 * `baseUrls` goes into the flow's ports; `calls(vendor)` tells which vendors a turn reached.
 */

const ATOM = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry>
    <id>http://arxiv.org/abs/2511.00001v1</id>
    <title>Tidal Forces in Shallow Seas</title>
    <summary>We measure how the moon's pull shapes tides in shallow coastal seas.</summary>
    <link href="http://arxiv.org/abs/2511.00001v1" rel="alternate" type="text/html"/>
  </entry>
</feed>`;

const PUBMED_ARTICLES = `<?xml version="1.0" ?>
<PubmedArticleSet>
  <PubmedArticle>
    <MedlineCitation>
      <PMID Version="1">40000001</PMID>
      <Article>
        <ArticleTitle>Sleep hygiene for adults with insomnia.</ArticleTitle>
        <Abstract><AbstractText>Regular sleep times and less caffeine improved sleep in adults with insomnia.</AbstractText></Abstract>
      </Article>
    </MedlineCitation>
  </PubmedArticle>
</PubmedArticleSet>`;

const DUCKDUCKGO_HTML = `<html><body>
<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Ftides">Tides explained</a></h2>
<a class="result__snippet" href="https://example.org/tides">Tides are the rise and fall of sea levels caused by the moon.</a></div>
</body></html>`;

const BAIDU_HTML = `<html><body>
<div class="result c-container"><h3 class="t"><a href="https://example.org/baidu-tides">潮汐 - 百科</a></h3>
<div class="c-abstract">潮汐是海水在月球引力作用下的周期性涨落。</div></div>
</body></html>`;

const WIKIPEDIA = { batchcomplete: true, query: { pages: [{ pageid: 1, ns: 0, title: "Tide", index: 1, extract: "Tides are the rise and fall of sea levels caused by the gravitational forces of the Moon and the Sun.", fullurl: "https://en.wikipedia.org/wiki/Tide" }] } };

const QWEATHER_CITY = { code: "200", location: [{ name: "Lisbon", id: "2267057", adm1: "Lisbon", country: "Portugal" }] };
const QWEATHER_DAYS = { code: "200", daily: [{ fxDate: "2026-11-27", tempMax: "18", tempMin: "11", textDay: "Sunny" }, { fxDate: "2026-11-28", tempMax: "16", tempMin: "10", textDay: "Rain" }] };
const QWEATHER_NOW = { code: "200", now: { temp: "17", text: "Sunny", windDir: "N" } };

const WENCAI = {
  status_code: 0,
  data: { answer: [{ txt: [{ content: { components: [{ show_type: "txt1", title_config: { data: { h1: "Market" } }, data: { content: "The defence sector rose 2.1% yesterday." } }] } }] }] },
};
const AKSHARE = { code: 0, result: { cmsArticleWebOld: [{ date: "2026-11-26 09:30:00", title: "<em>Defence</em> stocks rally", content: "Defence stocks rallied on strong orders.", mediaName: "Eastmoney", code: "202611260001" }] } };

/** The vendors this server stands in for, by component name, and the path prefix each is served under. */
const VENDORS = ["DuckDuckGo", "Wikipedia", "Baidu", "ArXiv", "PubMed", "QWeather", "WenCai", "AkShare"] as const;
export type OutsideVendor = (typeof VENDORS)[number];

function answer(vendor: OutsideVendor, request: RecordedRequest, path: string): VendorReply {
  switch (vendor) {
    case "DuckDuckGo":
      return { body: DUCKDUCKGO_HTML };
    case "Baidu":
      return { body: BAIDU_HTML };
    case "Wikipedia":
      return { body: WIKIPEDIA };
    case "ArXiv":
      return { headers: { "content-type": "application/atom+xml" }, body: ATOM };
    case "PubMed":
      return path.startsWith("/esearch") ? { body: { esearchresult: { count: "1", idlist: ["40000001"] } } } : { headers: { "content-type": "text/xml" }, body: PUBMED_ARTICLES };
    case "QWeather":
      if (path.startsWith("/v2/city/lookup")) return { body: QWEATHER_CITY };
      return { body: path.endsWith("/now") ? QWEATHER_NOW : QWEATHER_DAYS };
    case "WenCai":
      return { body: WENCAI };
    case "AkShare":
      return { body: `${request.query.get("cb") ?? "callback"}(${JSON.stringify(AKSHARE)})` };
  }
}

export interface OutsideWorld {
  baseUrls: Record<OutsideVendor, string>;
  /** The requests a vendor received since the last `forget()`. */
  calls(vendor: OutsideVendor): RecordedRequest[];
  forget(): void;
  close(): Promise<void>;
}

export async function startOutsideWorld(): Promise<OutsideWorld> {
  const server: SearchVendorServer = await startSearchVendor();
  const vendorOf = (path: string) => VENDORS.find((vendor) => path.startsWith(`/${vendor.toLowerCase()}/`) || path === `/${vendor.toLowerCase()}`);
  server.answer((request) => {
    const vendor = vendorOf(request.path);
    return vendor ? answer(vendor, request, request.path.slice(vendor.length + 1)) : { status: 404, body: "no such vendor" };
  });
  return {
    baseUrls: Object.fromEntries(VENDORS.map((vendor) => [vendor, `${server.url}/${vendor.toLowerCase()}`])) as Record<OutsideVendor, string>,
    calls: (vendor) => server.requests.filter((request) => vendorOf(request.path) === vendor),
    forget: () => server.requests.splice(0),
    close: () => server.close(),
  };
}
