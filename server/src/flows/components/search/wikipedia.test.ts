import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { wikipedia } from "./wikipedia";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

// The language goes into the host of the real service; a local server gets it as a path.
const ports = () => testPorts({ baseUrls: { Wikipedia: `${vendor.url}/{language}` } });

/** The shape of a MediaWiki action=query answer with generator=search, prop=extracts|info (formatversion 2). */
const ANSWER = {
  batchcomplete: true,
  continue: { gsroffset: 2, continue: "gsroffset||" },
  query: {
    pages: [
      {
        pageid: 3154653,
        ns: 0,
        title: "Brennstoffzelle",
        index: 2,
        contentmodel: "wikitext",
        pagelanguage: "de",
        extract: "Eine Brennstoffzelle ist eine galvanische Zelle,\ndie die chemische Reaktionsenergie … umwandelt.",
        fullurl: "https://de.wikipedia.org/wiki/Brennstoffzelle",
        canonicalurl: "https://de.wikipedia.org/wiki/Brennstoffzelle",
      },
      {
        pageid: 58133,
        ns: 0,
        title: "Wasserstoff",
        index: 1,
        contentmodel: "wikitext",
        pagelanguage: "de",
        extract: "Wasserstoff ist ein chemisches Element mit dem Symbol H.",
        fullurl: "https://de.wikipedia.org/wiki/Wasserstoff",
        canonicalurl: "https://de.wikipedia.org/wiki/Wasserstoff",
      },
    ],
  },
};

describe("Wikipedia", () => {
  it("searches the chosen language's wiki with MediaWiki's search generator and returns the introductions as linked rows, best first", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    const { output } = await runComponent(wikipedia, { input: "Wasserstoff Brennstoffzelle", params: { top_n: 2, language: "de" }, ports: ports() });

    expect(vendor.requests).toHaveLength(1);
    const [request] = vendor.requests;
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/de/w/api.php");
    expect(Object.fromEntries(request.query)).toMatchObject({
      action: "query",
      format: "json",
      formatversion: "2",
      generator: "search",
      gsrsearch: "Wasserstoff Brennstoffzelle",
      gsrnamespace: "0",
      gsrlimit: "2",
      prop: "extracts|info",
      exintro: "1",
      explaintext: "1",
      inprop: "url",
    });
    expect(request.headers["user-agent"]).toMatch(/^Cairn/);
    expect(output.items).toEqual([
      { title: "Wasserstoff", url: "https://de.wikipedia.org/wiki/Wasserstoff", content: "Wasserstoff ist ein chemisches Element mit dem Symbol H." },
      { title: "Brennstoffzelle", url: "https://de.wikipedia.org/wiki/Brennstoffzelle", content: "Eine Brennstoffzelle ist eine galvanische Zelle, die die chemische Reaktionsenergie … umwandelt." },
    ]);
    expect(output.content).toBe(
      "- [Wasserstoff](https://de.wikipedia.org/wiki/Wasserstoff): Wasserstoff ist ein chemisches Element mit dem Symbol H.\n" +
        "- [Brennstoffzelle](https://de.wikipedia.org/wiki/Brennstoffzelle): Eine Brennstoffzelle ist eine galvanische Zelle, die die chemische Reaktionsenergie … umwandelt.",
    );
  });

  it("reads its input variables, joined, instead of the default input, with RAGFlow's defaults (English, 10 results)", async () => {
    vendor.answer(() => ({ body: { batchcomplete: true } }));
    const { output } = await runComponent(wikipedia, {
      input: "ignored",
      inputs: [
        { component_id: "begin@person", content: "Ada Lovelace" },
        { component_id: "Generate:topic", content: "analytical engine" },
      ],
      ports: ports(),
    });
    expect(vendor.requests[0].path).toBe("/en/w/api.php");
    expect(vendor.requests[0].query.get("gsrsearch")).toBe("Ada Lovelace - analytical engine");
    expect(vendor.requests[0].query.get("gsrlimit")).toBe("10");
    expect(output).toEqual({ content: "", items: [] });
  });

  it("asks nothing when there is nothing to search for", async () => {
    vendor.answer(() => ({ body: ANSWER }));
    const { output } = await runComponent(wikipedia, { input: "   ", ports: ports() });
    expect(output).toEqual({ content: "", items: [] });
    expect(vendor.requests).toHaveLength(0);
  });

  it("says what MediaWiki said when it refuses the request (an error object in a 200 answer)", async () => {
    vendor.answer(() => ({ body: { error: { code: "badvalue", info: 'Unrecognized value for parameter "prop": extracts.', docref: "See https://de.wikipedia.org/w/api.php for API usage." } } }));
    await expect(runComponent(wikipedia, { input: "x", ports: ports() })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.search.refused",
      params: { service: "Wikipedia", detail: 'Unrecognized value for parameter "prop": extracts.' },
    });
  });
});
