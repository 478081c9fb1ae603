import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { google } from "./google";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { Google: vendor.url } });
const KEY = "3f1c0ffee0000000000000000000000000000000000000000000000000000000";

/** SerpApi's search.json for engine=google (trimmed to what the component reads, plus the metadata around it). */
const ANSWER = {
  search_metadata: { id: "6745a0c0f0f0f0f0f0f0f0f0", status: "Success", json_endpoint: "https://serpapi.com/searches/x.json", total_time_taken: 1.23 },
  search_parameters: { engine: "google", q: "rust async runtime", google_domain: "google.com", hl: "en", gl: "us", num: "2", device: "desktop" },
  search_information: { organic_results_state: "Results for exact spelling", total_results: 4550000 },
  organic_results: [
    { position: 1, title: "Tokio - An asynchronous Rust runtime", link: "https://tokio.rs/", displayed_link: "https://tokio.rs", snippet: "Tokio is an asynchronous runtime for the Rust programming language." },
    { position: 2, title: "Asynchronous Programming in Rust [book]", link: "https://rust-lang.github.io/async-book/(intro)", snippet: "Getting started." },
  ],
};

describe("Google (SerpApi)", () => {
  it("searches through SerpApi with engine=google, the key, country, language and count, and returns the organic results", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    const { output } = await runComponent(google, { input: "rust async runtime", params: { api_key: KEY, country: "us", language: "en", top_n: 2 }, ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /search.json");
    expect(Object.fromEntries(request.query)).toEqual({ engine: "google", q: "rust async runtime", api_key: KEY, gl: "us", hl: "en", num: "2", output: "json" });
    expect(output.items).toEqual([
      { title: "Tokio - An asynchronous Rust runtime", url: "https://tokio.rs/", content: "Tokio is an asynchronous runtime for the Rust programming language." },
      { title: "Asynchronous Programming in Rust [book]", url: "https://rust-lang.github.io/async-book/(intro)", content: "Getting started." },
    ]);
    // Brackets in a title and parentheses in a URL do not break the markdown link.
    expect(output.content.split("\n")[1]).toBe("- [Asynchronous Programming in Rust \\[book\\]](https://rust-lang.github.io/async-book/%28intro%29): Getting started.");
  });

  it("uses RAGFlow's defaults: country cn, language en, 10 results", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    await runComponent(google, { input: "x", params: { api_key: KEY }, ports: ports() });
    expect(vendor.requests[0].query.get("gl")).toBe("cn");
    expect(vendor.requests[0].query.get("hl")).toBe("en");
    expect(vendor.requests[0].query.get("num")).toBe("10");
  });

  it("needs a key, and says so before asking (RAGFlow's placeholder key counts as none)", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    for (const api_key of ["", "xxx"]) {
      await expect(runComponent(google, { input: "x", params: { api_key }, ports: ports() })).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.errors.search.keyMissing", params: { service: "Google (SerpApi)" } });
    }
    expect(vendor.requests).toHaveLength(0);
  });

  it("says that SerpApi refused the key, with SerpApi's own words", async () => {
    vendor.answer(() => ({ status: 401, body: { error: "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key" } }));
    await expect(runComponent(google, { input: "x", params: { api_key: "wrong" }, ports: ports() })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.search.keyRejected",
      params: { status: 401, detail: "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key" },
    });
  });

  it("returns no rows when Google found nothing (SerpApi's 200 with an error), and passes on SerpApi's other errors, the used-up searches among them", async () => {
    vendor.answer(() => ({ body: { search_metadata: { status: "Success" }, error: "Google hasn't returned any results for this query." } }));
    expect((await runComponent(google, { input: "x", params: { api_key: KEY }, ports: ports() })).output).toEqual({ content: "", items: [] });
    vendor.answer(() => ({ status: 400, body: { error: "Unsupported `zz` country (gl) parameter." } }));
    await expect(runComponent(google, { input: "x", params: { api_key: KEY }, ports: ports() })).rejects.toMatchObject({
      messageKey: "flow.errors.search.failed",
      params: { status: 400, detail: "Unsupported `zz` country (gl) parameter." },
    });
    vendor.answer(() => ({ status: 429, body: { error: "Your account has run out of searches." } }));
    await expect(runComponent(google, { input: "x", params: { api_key: KEY }, ports: ports() })).rejects.toMatchObject({ messageKey: "flow.errors.search.rateLimited" });
  });
});
