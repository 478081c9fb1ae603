import { validate } from "../../../platform/param-spec";
import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { arXiv } from "./arxiv";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { ArXiv: vendor.url } });

/** The arXiv API's Atom feed (export.arxiv.org/api/query), two entries. */
const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Aelectron%26id_list%3D%26start%3D0%26max_results%3D2" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:electron&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2024-11-26T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">184560</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/2411.01234v2</id>
    <updated>2024-11-20T18:00:00Z</updated>
    <published>2024-11-02T12:00:00Z</published>
    <title>Electron Transport in
  Twisted Bilayer Graphene</title>
    <summary>  We study electron transport in twisted bilayer graphene
near the magic angle &amp; find a new phase.
</summary>
    <author><name>A. Researcher</name></author>
    <author><name>B. Scientist</name></author>
    <link href="http://arxiv.org/abs/2411.01234v2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2411.01234v2" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cond-mat.mes-hall" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2410.09999v1</id>
    <updated>2024-10-30T09:00:00Z</updated>
    <published>2024-10-30T09:00:00Z</published>
    <title>Single-electron pumps</title>
    <summary>A short summary.</summary>
    <author><name>C. Author</name></author>
    <link href="http://arxiv.org/abs/2410.09999v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2410.09999v1" rel="related" type="application/pdf"/>
  </entry>
</feed>`;

/** What arXiv answers (HTTP 400) to a query it cannot read. */
const ERROR_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=&amp;id_list=&amp;start=0&amp;max_results=-1</title>
  <id>http://arxiv.org/api/errors</id>
  <entry>
    <id>http://arxiv.org/api/errors#max_results_must_be_non-negative</id>
    <title>Error</title>
    <summary>max_results must be non-negative</summary>
    <link href="http://arxiv.org/api/errors#max_results_must_be_non-negative" rel="alternate" type="text/html"/>
  </entry>
</feed>`;

describe("ArXiv", () => {
  it("queries the arXiv API with the query as given, sorted as asked, newest first, and returns titles, abstract pages and abstracts", async () => {
    vendor.answer(() => ({ body: FEED, headers: { "content-type": "application/atom+xml; charset=utf-8" } }));
    const { output } = await runComponent(arXiv, { input: "ti:electron AND cat:cond-mat", params: { top_n: 2, sort_by: "lastUpdatedDate" }, ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /api/query");
    expect(Object.fromEntries(request.query)).toEqual({ search_query: "ti:electron AND cat:cond-mat", start: "0", max_results: "2", sortBy: "lastUpdatedDate", sortOrder: "descending" });
    expect(output.items).toEqual([
      {
        title: "Electron Transport in Twisted Bilayer Graphene",
        url: "http://arxiv.org/abs/2411.01234v2",
        content: "We study electron transport in twisted bilayer graphene near the magic angle & find a new phase.",
      },
      { title: "Single-electron pumps", url: "http://arxiv.org/abs/2410.09999v1", content: "A short summary." },
    ]);
  });

  it("sorts by submitted date unless told otherwise, and offers exactly spec §9's three sort options", async () => {
    vendor.answer(() => ({ body: FEED }));
    await runComponent(arXiv, { input: "electron", ports: ports() });
    expect(vendor.requests[0].query.get("sortBy")).toBe("submittedDate");
    expect(vendor.requests[0].query.get("max_results")).toBe("6");
    const sortBy = arXiv.params.find((p) => p.key === "sort_by");
    expect(sortBy?.options?.map((o) => o.value)).toEqual(["submittedDate", "lastUpdatedDate", "relevance"]);
    expect(validate(arXiv.params, { sort_by: "date" })).toEqual([expect.objectContaining({ path: "sort_by", code: "option" })]);
  });

  it("passes on arXiv's reason when it cannot read the query", async () => {
    vendor.answer(() => ({ status: 400, body: ERROR_FEED }));
    await expect(runComponent(arXiv, { input: "electron", ports: ports() })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.errors.search.badQuery",
      params: { service: "arXiv", detail: "max_results must be non-negative" },
    });
  });

  it("returns no rows for a feed without entries, and says so for an answer that is not a feed", async () => {
    vendor.answer(() => ({ body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title></feed>' }));
    expect((await runComponent(arXiv, { input: "qqq", ports: ports() })).output.items).toEqual([]);
    vendor.answer(() => ({ body: "<html><body>Service Unavailable" }));
    await expect(runComponent(arXiv, { input: "qqq", ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.badAnswer" });
  });
});
