import { validate } from "../../../platform/param-spec";
import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { pubMed } from "./pubmed";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { PubMed: `${vendor.url}/entrez/eutils` } });
const EMAIL = "researcher@example.org";

/** esearch.fcgi with retmode=json, as NCBI answers it. */
const SEARCH = {
  header: { type: "esearch", version: "0.3" },
  esearchresult: {
    count: "18250",
    retmax: "2",
    retstart: "0",
    idlist: ["38012345", "37654321"],
    translationset: [{ from: "metformin", to: '"metformin"[MeSH Terms] OR "metformin"[All Fields]' }],
    querytranslation: '"metformin"[MeSH Terms] OR "metformin"[All Fields]',
  },
};

/** efetch.fcgi with retmode=xml: a PubmedArticleSet, here not in esearch's order, with inline markup and a structured abstract. */
const ARTICLES = `<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">
<PubmedArticleSet>
<PubmedArticle>
  <MedlineCitation Status="MEDLINE" Owner="NLM">
    <PMID Version="1">37654321</PMID>
    <Article PubModel="Print">
      <Journal><Title>Diabetes care</Title></Journal>
      <ArticleTitle>A trial without an abstract.</ArticleTitle>
    </Article>
  </MedlineCitation>
</PubmedArticle>
<PubmedArticle>
  <MedlineCitation Status="MEDLINE" Owner="NLM">
    <PMID Version="1">38012345</PMID>
    <Article PubModel="Print-Electronic">
      <Journal><Title>The Lancet</Title></Journal>
      <ArticleTitle>Metformin and <i>Helicobacter pylori</i> &amp; gastric cancer risk.</ArticleTitle>
      <Abstract>
        <AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">Metformin lowers HbA<sub>1c</sub> levels.</AbstractText>
        <AbstractText Label="RESULTS" NlmCategory="RESULTS">Risk fell by 12% (<i>p</i> &lt; 0.05).</AbstractText>
      </Abstract>
    </Article>
  </MedlineCitation>
</PubmedArticle>
</PubmedArticleSet>`;

describe("PubMed", () => {
  it("searches with E-utilities (esearch, then efetch of the ids found), naming the tool and the user's email, and keeps esearch's order", async () => {
    vendor.answer((request) => (request.path.endsWith("/esearch.fcgi") ? { body: SEARCH } : { body: ARTICLES, headers: { "content-type": "text/xml; charset=UTF-8" } }));
    const { output } = await runComponent(pubMed, { input: "metformin", params: { top_n: 2, email: EMAIL }, ports: ports() });

    expect(vendor.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /entrez/eutils/esearch.fcgi", "GET /entrez/eutils/efetch.fcgi"]);
    const [search, fetch] = vendor.requests;
    expect(Object.fromEntries(search.query)).toEqual({ db: "pubmed", term: "metformin", retmax: "2", retmode: "json", tool: "cairn", email: EMAIL });
    expect(Object.fromEntries(fetch.query)).toEqual({ db: "pubmed", id: "38012345,37654321", retmode: "xml", tool: "cairn", email: EMAIL });
    expect(output.items).toEqual([
      {
        title: "Metformin and Helicobacter pylori & gastric cancer risk.",
        url: "https://pubmed.ncbi.nlm.nih.gov/38012345/",
        content: "BACKGROUND: Metformin lowers HbA1c levels. RESULTS: Risk fell by 12% (p < 0.05).",
      },
      { title: "A trial without an abstract.", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/", content: "" },
    ]);
    expect(output.content.split("\n")[1]).toBe("- [A trial without an abstract.](https://pubmed.ncbi.nlm.nih.gov/37654321/)");
  });

  it("fetches nothing when the search finds nothing", async () => {
    vendor.answer(() => ({ body: { header: {}, esearchresult: { count: "0", retmax: "0", retstart: "0", idlist: [], translationset: [] } } }));
    const { output } = await runComponent(pubMed, { input: "zzqqxx", params: { email: EMAIL }, ports: ports() });
    expect(output.items).toEqual([]);
    expect(vendor.requests).toHaveLength(1);
    expect(vendor.requests[0].query.get("retmax")).toBe("5");
  });

  it("requires an email (spec §5), with its own message for one that is not an address", () => {
    expect(validate(pubMed.params, {})).toEqual([expect.objectContaining({ path: "email", code: "required" })]);
    expect(validate(pubMed.params, { email: "   " })).toEqual([expect.objectContaining({ path: "email", code: "required" })]);
    expect(validate(pubMed.params, { email: "not an address" })).toEqual([expect.objectContaining({ path: "email", code: "email", messageKey: "flow.components.PubMed.errors.email" })]);
    expect(validate(pubMed.params, { email: EMAIL })).toEqual([]);
  });

  it("never asks NCBI without an email, even when run with unchecked params", async () => {
    vendor.answer(() => ({ body: SEARCH }));
    await expect(runComponent(pubMed, { input: "metformin", ports: ports() })).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.components.PubMed.errors.email" });
    expect(vendor.requests).toHaveLength(0);
  });

  it("says that NCBI could not read the query, and that it limits requests", async () => {
    vendor.answer(() => ({ body: { header: {}, esearchresult: { ERROR: "Invalid query: unbalanced parentheses" } } }));
    await expect(runComponent(pubMed, { input: "(metformin", params: { email: EMAIL }, ports: ports() })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.errors.search.badQuery",
      params: { detail: "Invalid query: unbalanced parentheses" },
    });
    vendor.answer(() => ({ status: 429, body: { error: "API rate limit exceeded", "api-key": "203.0.113.9", count: "4", limit: "3" } }));
    await expect(runComponent(pubMed, { input: "metformin", params: { email: EMAIL }, ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.rateLimited" });
  });

  it("says so when efetch answers an error or something that is not PubMed XML", async () => {
    vendor.answer((request) => (request.path.endsWith("/esearch.fcgi") ? { body: SEARCH } : { body: "<eFetchResult><ERROR>Empty id list - nothing todo</ERROR></eFetchResult>" }));
    await expect(runComponent(pubMed, { input: "metformin", params: { email: EMAIL }, ports: ports() })).rejects.toMatchObject({
      messageKey: "flow.errors.search.refused",
      params: { detail: "Empty id list - nothing todo" },
    });
    vendor.answer((request) => (request.path.endsWith("/esearch.fcgi") ? { body: SEARCH } : { body: "<PubmedArticleSet><PubmedArticle>" }));
    await expect(runComponent(pubMed, { input: "metformin", params: { email: EMAIL }, ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.badAnswer" });
  });
});
