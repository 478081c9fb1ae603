import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { bing } from "./bing";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { Bing: vendor.url } });
const KEY = "0123456789abcdef0123456789abcdef";

/** Bing Web Search v7's SearchResponse. */
const WEB = {
  _type: "SearchResponse",
  queryContext: { originalQuery: "solar panels" },
  webPages: {
    webSearchUrl: "https://www.bing.com/search?q=solar+panels",
    totalEstimatedMatches: 10300000,
    value: [
      { id: "https://api.bing.microsoft.com/api/v7/#WebPages.0", name: "Solar panel - Wikipedia", url: "https://en.wikipedia.org/wiki/Solar_panel", isFamilyFriendly: true, displayUrl: "https://en.wikipedia.org/wiki/Solar_panel", snippet: "A solar panel is a device that converts sunlight into electricity.", dateLastCrawled: "2024-11-20T10:00:00.0000000Z", language: "en" },
    ],
  },
  rankingResponse: { mainline: { items: [{ answerType: "WebPages", resultIndex: 0 }] } },
};

/** Bing News Search v7's News answer: the articles are its own value. */
const NEWS = {
  _type: "News",
  readLink: "https://api.bing.microsoft.com/api/v7/news/search?q=solar+panels",
  totalEstimatedMatches: 120,
  value: [
    { name: "Solar prices fall again", url: "https://news.example.com/solar", description: "Module prices fell 10% this quarter.", datePublished: "2024-11-25T08:30:00.0000000Z", provider: [{ _type: "Organization", name: "Example News" }], category: "Business" },
  ],
};

describe("Bing", () => {
  it("calls Web Search v7 with the subscription key header, market, interface language and count", async () => {
    vendor.answer(() => ({ body: WEB }));
    const { output } = await runComponent(bing, { input: "solar panels", params: { api_key: KEY, country: "US", language: "en", top_n: 3 }, ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /v7.0/search");
    expect(request.headers["ocp-apim-subscription-key"]).toBe(KEY);
    expect(Object.fromEntries(request.query)).toEqual({ q: "solar panels", count: "3", mkt: "en-US", setLang: "en", textFormat: "Raw", responseFilter: "Webpages" });
    expect(output.items).toEqual([{ title: "Solar panel - Wikipedia", url: "https://en.wikipedia.org/wiki/Solar_panel", content: "A solar panel is a device that converts sunlight into electricity." }]);
  });

  it("calls News Search on the News channel, with the provider and date of each article", async () => {
    vendor.answer(() => ({ body: NEWS }));
    const { output } = await runComponent(bing, { input: "solar panels", params: { api_key: KEY, channel: "News" }, ports: ports() });
    expect(vendor.requests[0].path).toBe("/v7.0/news/search");
    expect(vendor.requests[0].query.get("mkt")).toBe("en-CN");
    expect(vendor.requests[0].query.get("count")).toBe("10");
    expect(output.items).toEqual([{ title: "Solar prices fall again", url: "https://news.example.com/solar", content: "Module prices fell 10% this quarter. (Example News, 2024-11-25)" }]);
  });

  it("needs a key (RAGFlow's placeholder counts as none), and says when Bing refuses it", async () => {
    await expect(runComponent(bing, { input: "x", params: { api_key: "YOUR_ACCESS_KEY" }, ports: ports() })).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.errors.search.keyMissing" });
    vendor.answer(() => ({ status: 401, body: { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } } }));
    await expect(runComponent(bing, { input: "x", params: { api_key: "bad" }, ports: ports() })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.search.keyRejected",
      params: { service: "Bing Search", status: 401, detail: "Access denied due to invalid subscription key or wrong API endpoint." },
    });
  });

  it("passes on Bing's ErrorResponse", async () => {
    vendor.answer(() => ({ status: 400, body: { _type: "ErrorResponse", errors: [{ code: "InvalidRequest", subCode: "ParameterInvalidValue", message: "Parameter has invalid value.", parameter: "mkt" }] } }));
    await expect(runComponent(bing, { input: "x", params: { api_key: KEY }, ports: ports() })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.search.failed",
      params: { status: 400, detail: "Parameter has invalid value." },
    });
  });
});
