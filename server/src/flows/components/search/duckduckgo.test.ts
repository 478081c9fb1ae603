import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { duckDuckGo } from "./duckduckgo";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { DuckDuckGo: vendor.url } });

/** html.duckduckgo.com/html/'s answer, cut down: an ad, a result through DuckDuckGo's redirector, a result linking directly, the next-page form. */
const HTML_PAGE = `<!DOCTYPE html>
<html lang="en-US"><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"><title>rust async at DuckDuckGo</title></head>
<body class="body--html"><div id="links" class="results">
  <div class="result results_links results_links_deep result--ad ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=books.example&amp;ad_provider=bingv7aa">Buy Rust Books</a></h2>
      <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=books.example">Sponsored.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title">
        <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Ftokio.rs%2Ftokio%2Ftutorial&amp;rut=4c2e1b">Tutorial | <b>Tokio</b> - An asynchronous Rust runtime</a>
      </h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Ftokio.rs%2Ftokio%2Ftutorial">tokio.rs/tokio/tutorial</a></div></div>
      <a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Ftokio.rs%2Ftokio%2Ftutorial">Tokio is an <b>asynchronous</b> runtime for the Rust programming language &amp; more.</a>
      <div class="clear"></div>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://docs.rs/async-std">async_std - Rust</a></h2>
      <a class="result__snippet" href="https://docs.rs/async-std">Async version of the Rust standard library.</a>
    </div>
  </div>
  <div class="nav-link"><form action="/html/" method="post"><input type="submit" class="btn btn--alt" value="Next"><input type="hidden" name="q" value="rust async"><input type="hidden" name="s" value="10"><input type="hidden" name="vqd" value="4-111"></form></div>
</div></body></html>`;

/** duckduckgo.com's page for a query carries the vqd token its scripts use. */
const SITE_PAGE = `<!DOCTYPE html><html><head><title>rust at DuckDuckGo</title></head><body><script>DDG.deep.initialize('/d.js?q=rust&l=wt-wt&s=0&dl=en&ct=US&vqd="4-31415926535897932384626433832795"&p_ent=&ex=-1');</script></body></html>`;
const VQD = "4-31415926535897932384626433832795";

/** news.js?o=json's answer. */
const NEWS = {
  ads: [],
  next: "news.js?q=rust&o=json&noamp=1&l=wt-wt&s=30",
  query: "rust",
  queryEncoded: "rust",
  response_type: "places",
  results: [
    { date: 1732550400, excerpt: "The <b>Rust</b> Foundation announced a new security initiative.", image: "https://images.example/rust.jpg", relative_time: "1 day ago", source: "The Register", syndicate: "Bing", title: "Rust Foundation launches security push", url: "https://www.theregister.com/2024/11/25/rust/", use_relevancy: false },
  ],
};

describe("DuckDuckGo", () => {
  it("posts the query to the HTML endpoint and reads its results, skipping ads and following DuckDuckGo's redirect links to their targets", async () => {
    vendor.answer(() => ({ body: HTML_PAGE }));
    const { output } = await runComponent(duckDuckGo, { input: "rust async", ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("POST /html/");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ q: "rust async", b: "", kl: "wt-wt" });
    expect(output.items).toEqual([
      { title: "Tutorial | Tokio - An asynchronous Rust runtime", url: "https://tokio.rs/tokio/tutorial", content: "Tokio is an asynchronous runtime for the Rust programming language & more." },
      { title: "async_std - Rust", url: "https://docs.rs/async-std", content: "Async version of the Rust standard library." },
    ]);
    expect(output.content).toBe(
      "- [Tutorial | Tokio - An asynchronous Rust runtime](https://tokio.rs/tokio/tutorial): Tokio is an asynchronous runtime for the Rust programming language & more.\n" +
        "- [async_std - Rust](https://docs.rs/async-std): Async version of the Rust standard library.",
    );
  });

  it("on the news channel, gets the search's vqd token from the site, then news.js, with each article's source and date", async () => {
    vendor.answer((request) => (request.path === "/news.js" ? { body: NEWS } : { body: SITE_PAGE }));
    const { output } = await runComponent(duckDuckGo, { input: "rust", params: { channel: "news", top_n: 3 }, ports: ports() });

    expect(vendor.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /", "GET /news.js"]);
    expect(new URLSearchParams(vendor.requests[0].body).get("q")).toBe("rust");
    expect(Object.fromEntries(vendor.requests[1].query)).toEqual({ l: "wt-wt", o: "json", noamp: "1", q: "rust", vqd: VQD, p: "-1" });
    expect(output.items).toEqual([
      { title: "Rust Foundation launches security push", url: "https://www.theregister.com/2024/11/25/rust/", content: "The Rust Foundation announced a new security initiative. (The Register, 2024-11-25)" },
    ]);
  });

  it("says that DuckDuckGo is limiting requests when it answers 202 with its anomaly page", async () => {
    vendor.answer(() => ({ status: 202, body: '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>' }));
    await expect(runComponent(duckDuckGo, { input: "rust", ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.rateLimited", params: { service: "DuckDuckGo" } });
  });

  it("says so when the site's page carries no vqd token for news", async () => {
    vendor.answer(() => ({ body: "<html><body>nothing here</body></html>" }));
    await expect(runComponent(duckDuckGo, { input: "rust", params: { channel: "news" }, ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.badAnswer" });
  });
});
