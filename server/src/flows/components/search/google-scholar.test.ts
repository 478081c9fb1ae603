import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { googleScholar } from "./google-scholar";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { GoogleScholar: vendor.url } });
const KEY = "serpapi-key-for-tests";

/** SerpApi's search.json for engine=google_scholar: one result with a link, one citation without. */
const ANSWER = {
  search_metadata: { status: "Success" },
  search_parameters: { engine: "google_scholar", q: "attention is all you need", hl: "en" },
  search_information: { total_results: 3210000, query_displayed: "attention is all you need" },
  organic_results: [
    {
      position: 0,
      title: "Attention is all you need",
      result_id: "5Gohgn6QFikJ",
      link: "https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
      snippet: "The dominant sequence transduction models are based on complex recurrent …",
      publication_info: { summary: "A Vaswani, N Shazeer, N Parmar… - Advances in neural …, 2017 - proceedings.neurips.cc", authors: [{ name: "A Vaswani" }] },
      inline_links: { cited_by: { total: 150000 } },
    },
    { position: 1, title: "[CITATION][C] Attention mechanisms", result_id: "abc", type: "Citation", publication_info: { summary: "J Doe - 2019" } },
  ],
};

describe("GoogleScholar (SerpApi)", () => {
  it("searches Scholar through SerpApi with the year range, patents included and date sorting as asked", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    const { output } = await runComponent(googleScholar, {
      input: "attention is all you need",
      params: { api_key: KEY, top_n: 2, year_low: 2016, year_high: 2020, sort_by: "date", patents: true },
      ports: ports(),
    });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /search.json");
    expect(Object.fromEntries(request.query)).toEqual({
      engine: "google_scholar",
      q: "attention is all you need",
      api_key: KEY,
      num: "2",
      as_ylo: "2016",
      as_yhi: "2020",
      as_sdt: "7",
      scisbd: "1",
      output: "json",
    });
    expect(output.items).toEqual([
      {
        title: "Attention is all you need",
        url: "https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
        content: "A Vaswani, N Shazeer, N Parmar… - Advances in neural …, 2017 - proceedings.neurips.cc — The dominant sequence transduction models are based on complex recurrent …",
      },
      { title: "[CITATION][C] Attention mechanisms", url: "", content: "J Doe - 2019" },
    ]);
    // A result without a link is a row without a link.
    expect(output.content.split("\n")[1]).toBe("- \\[CITATION\\]\\[C\\] Attention mechanisms: J Doe - 2019");
  });

  it("uses RAGFlow's defaults: relevance, no year range, patents included, 6 results; and leaves patents out when told", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    await runComponent(googleScholar, { input: "x", params: { api_key: KEY }, ports: ports() });
    expect(Object.fromEntries(vendor.requests[0].query)).toEqual({ engine: "google_scholar", q: "x", api_key: KEY, num: "6", as_sdt: "7", output: "json" });
    vendor.answer(() => ({ body: ANSWER }));
    await runComponent(googleScholar, { input: "x", params: { api_key: KEY, patents: false }, ports: ports() });
    expect(vendor.requests[0].query.get("as_sdt")).toBe("0");
  });

  it("needs a SerpApi key", async () => {
    await expect(runComponent(googleScholar, { input: "x", ports: ports() })).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.errors.search.keyMissing", params: { service: "Google Scholar (SerpApi)" } });
  });
});
