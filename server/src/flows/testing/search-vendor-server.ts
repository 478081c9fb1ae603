import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server standing in for a search vendor in the search components' tests: it records every request
 * (so a test checks method, path, query and headers) and answers with what the test's handler says — a
 * recorded-shape body, an error status, or nothing at all (`hang`, for time-outs).
 *
 * For tests of whole flows (templates, the engine), `answerEverySearch` speaks all nine search vendors' protocols
 * at once with one small result each, and `searchBaseUrls` points every search component at the server.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface VendorReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: string | object;
  /** Never answer: the client's time limit or cancellation must end the request. */
  hang?: boolean;
}

export type VendorHandler = (request: RecordedRequest) => VendorReply;

export interface SearchVendorServer {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** What the server answers from now on (the requests recorded so far are forgotten). */
  answer(handler: VendorHandler): void;
  close(): Promise<void>;
}

export async function startSearchVendor(): Promise<SearchVendorServer> {
  const requests: RecordedRequest[] = [];
  let handler: VendorHandler = () => ({ status: 404, body: "no handler" });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      const reply = handler(request);
      if (reply.hang) return;
      const json = typeof reply.body === "object";
      res.writeHead(reply.status ?? 200, { "content-type": json ? "application/json" : "text/html; charset=utf-8", ...reply.headers });
      res.end(json ? JSON.stringify(reply.body) : (reply.body ?? ""));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next) {
      handler = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const SEARCH_STUB_TITLE = "An example result";

/** The base URLs that send every search component to one local server (Wikipedia's keeps its language in the path). */
export function searchBaseUrls(url: string): Record<string, string> {
  const names = ["Baidu", "DuckDuckGo", "PubMed", "ArXiv", "Google", "Bing", "GoogleScholar", "GitHub"];
  return { ...Object.fromEntries(names.map((name) => [name, url])), Wikipedia: `${url}/{language}` };
}

/** Speaks each search vendor's protocol, by path, with one result titled SEARCH_STUB_TITLE. */
export const answerEverySearch: VendorHandler = (request) => {
  const title = SEARCH_STUB_TITLE;
  const url = "https://example.org/result";
  if (request.path.endsWith("/w/api.php")) return { body: { batchcomplete: true, query: { pages: [{ pageid: 1, ns: 0, title, index: 1, extract: "An encyclopedia introduction.", fullurl: url }] } } };
  if (request.path === "/s") return { body: `<div class="result c-container" mu="${url}"><h3><a href="${url}">${title}</a></h3><div class="c-abstract">A Baidu snippet.</div></div>` };
  if (request.path === "/html/") return { body: `<div class="result results_links"><h2><a class="result__a" href="${url}">${title}</a></h2><a class="result__snippet">A DuckDuckGo snippet.</a></div>` };
  if (request.path === "/" && request.method === "POST") return { body: '<script>vqd="4-1"</script>' };
  if (request.path === "/news.js") return { body: { results: [{ title, url, excerpt: "A news excerpt.", source: "Example", date: 1732550400 }] } };
  if (request.path === "/esearch.fcgi") return { body: { esearchresult: { count: "1", idlist: ["1"] } } };
  if (request.path === "/efetch.fcgi") {
    return { body: `<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>${title}</ArticleTitle><Abstract><AbstractText>An abstract.</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>` };
  }
  if (request.path === "/api/query") return { body: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${url}</id><title>${title}</title><summary>A preprint abstract.</summary><link href="${url}" rel="alternate"/></entry></feed>` };
  if (request.path === "/search.json") return { body: { organic_results: [{ title, link: url, snippet: "A Google snippet.", publication_info: { summary: "A Author - 2024" } }] } };
  if (request.path === "/v7.0/search") return { body: { _type: "SearchResponse", webPages: { value: [{ name: title, url, snippet: "A Bing snippet." }] } } };
  if (request.path === "/v7.0/news/search") return { body: { _type: "News", value: [{ name: title, url, description: "A Bing news item." }] } };
  if (request.path === "/search/repositories") return { body: { total_count: 1, items: [{ full_name: title, html_url: url, description: "A repository.", stargazers_count: 1 }] } };
  return { status: 404, body: { message: "Not Found" } };
};
