import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { gitHub } from "./github";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { GitHub: vendor.url } });

/** GET /search/repositories, as GitHub answers it (each item trimmed of its many *_url fields). */
const ANSWER = {
  total_count: 2,
  incomplete_results: false,
  items: [
    { id: 1, name: "ragflow", full_name: "infiniflow/ragflow", html_url: "https://github.com/infiniflow/ragflow", description: "RAGFlow is an open-source RAG engine.", stargazers_count: 70123, watchers_count: 70123, language: "Python", score: 1 },
    { id: 2, name: "tiny", full_name: "someone/tiny", html_url: "https://github.com/someone/tiny", description: null, stargazers_count: 3, watchers_count: 3, language: null, score: 1 },
  ],
};

describe("GitHub", () => {
  it("searches repositories sorted by stars with GitHub's REST headers, and names each with its stars and language", async () => {
    vendor.answer(() => ({ body: ANSWER, headers: { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "9" } }));
    const { output } = await runComponent(gitHub, { input: "rag engine", params: { top_n: 2 }, ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /search/repositories");
    expect(Object.fromEntries(request.query)).toEqual({ q: "rag engine", sort: "stars", order: "desc", per_page: "2" });
    expect(request.headers).toMatchObject({ accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": expect.stringMatching(/^Cairn/) });
    expect(request.headers.authorization).toBeUndefined();
    expect(output.items).toEqual([
      { title: "infiniflow/ragflow", url: "https://github.com/infiniflow/ragflow", content: "RAGFlow is an open-source RAG engine. (stars: 70123, Python)" },
      { title: "someone/tiny", url: "https://github.com/someone/tiny", content: "(stars: 3)" },
    ]);
  });

  it("sends the optional token as a bearer token, and says when GitHub refuses it", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    await runComponent(gitHub, { input: "x", params: { token: "ghp_test" }, ports: ports() });
    expect(vendor.requests[0].headers.authorization).toBe("Bearer ghp_test");
    expect(vendor.requests[0].query.get("per_page")).toBe("10");
    vendor.answer(() => ({ status: 401, body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" } }));
    await expect(runComponent(gitHub, { input: "x", params: { token: "ghp_wrong" }, ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.keyRejected", params: { detail: "Bad credentials" } });
  });

  it("tells a used-up rate limit (403 with no requests remaining) from a query GitHub cannot read (422)", async () => {
    vendor.answer(() => ({ status: 403, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1732600000" }, body: { message: "API rate limit exceeded for 203.0.113.9.", documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting" } }));
    await expect(runComponent(gitHub, { input: "x", ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.rateLimited", params: { service: "GitHub" } });
    vendor.answer(() => ({ status: 422, body: { message: "Validation Failed", errors: [{ resource: "Search", field: "q", code: "invalid" }], documentation_url: "https://docs.github.com/v3/search" } }));
    await expect(runComponent(gitHub, { input: "x", ports: ports() })).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.errors.search.badQuery", params: { detail: "Validation Failed" } });
  });
});
