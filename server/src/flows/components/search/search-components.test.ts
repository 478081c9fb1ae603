import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LANGUAGES, LOCALES_DIR } from "../../../platform/messages";
import { messageKeysOf, specProblems } from "../../../platform/param-spec";
import { componentText, type ComponentDefinition } from "../../component";
import { SEARCH_STUB_TITLE, answerEverySearch, searchBaseUrls, startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { SEARCH_COMPONENTS } from "./index";
import { callVendor, searchOutput, vendorUrl } from "./web-search";

/** What every search component shares: its description, and how it fails whatever the vendor does. */

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

/** The params each component needs before it asks anything (a key, PubMed's email). */
const READY: Record<string, Record<string, unknown>> = {
  Google: { api_key: "key" },
  Bing: { api_key: "key" },
  GoogleScholar: { api_key: "key" },
  PubMed: { email: "researcher@example.org" },
};

/** The base URL a component is given: Wikipedia's holds the language, as its real host does. */
const baseFor = (name: string, origin: string) => (name === "Wikipedia" ? `${origin}/{language}` : origin);
const run = (component: ComponentDefinition, origin: string, params: Record<string, unknown> = {}) =>
  runComponent(component, { input: "fuel cells", params: { ...READY[component.name], ...params }, ports: testPorts({ baseUrls: { [component.name]: baseFor(component.name, origin) } }) });

async function failure(promise: Promise<unknown>): Promise<{ kind: string; messageKey: string; params: Record<string, unknown>; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error("expected the run to fail");
}

const locale = (language: string) => JSON.parse(readFileSync(join(LOCALES_DIR, `${language}.json`), "utf8")) as Record<string, unknown>;
const lookup = (messages: Record<string, unknown>, key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe("the search components", () => {
  it("are the nine of the specification, in the search category, with RAGFlow's names, each saying it needs the internet and which need a key", () => {
    expect(SEARCH_COMPONENTS.map((c) => c.name)).toEqual(["Baidu", "DuckDuckGo", "Wikipedia", "PubMed", "ArXiv", "Google", "Bing", "GoogleScholar", "GitHub"]);
    for (const component of SEARCH_COMPONENTS) {
      expect({ name: component.name, category: component.category, internet: component.needs?.includes("internet"), problems: specProblems(component.params) }).toEqual({
        name: component.name,
        category: "search",
        internet: true,
        problems: [],
      });
      expect(component.restrictedTargets).toEqual(["Begin", "Retrieval"]);
    }
    expect(SEARCH_COMPONENTS.filter((c) => c.needs?.includes("apiKey")).map((c) => c.name)).toEqual(["Google", "Bing", "GoogleScholar"]);
  });

  it("have RAGFlow v0.14's param keys and defaults", () => {
    const defaults = (name: string) => Object.fromEntries(SEARCH_COMPONENTS.find((c) => c.name === name)!.params.filter((p) => !["description", "query", "api_key", "token"].includes(p.key)).map((p) => [p.key, p.default]));
    expect(defaults("DuckDuckGo")).toEqual({ top_n: 10, channel: "text" });
    expect(defaults("Baidu")).toEqual({ top_n: 10 });
    expect(defaults("Wikipedia")).toEqual({ top_n: 10, language: "en" });
    expect(defaults("PubMed")).toEqual({ top_n: 5, email: undefined });
    expect(defaults("ArXiv")).toEqual({ top_n: 6, sort_by: "submittedDate" });
    expect(defaults("Google")).toEqual({ top_n: 10, country: "cn", language: "en" });
    expect(defaults("Bing")).toEqual({ top_n: 10, channel: "Webpages", country: "CN", language: "en" });
    expect(defaults("GoogleScholar")).toEqual({ top_n: 6, sort_by: "relevance", year_low: null, year_high: null, patents: true });
    expect(defaults("GitHub")).toEqual({ top_n: 10 });
  });

  it("have every text in every language: label, description, params, options, help, and the errors they raise", () => {
    const english = locale("en");
    const errorKeys = Object.keys(lookup(english, "flow.errors.search") as object).map((reason) => `flow.errors.search.${reason}`);
    const keys = SEARCH_COMPONENTS.flatMap((c) => [componentText.label(c.name), componentText.description(c.name), ...messageKeysOf(c.params)]).concat(errorKeys, "flow.components.PubMed.errors.email");
    for (const language of LANGUAGES) {
      const messages = locale(language);
      const missing = keys.filter((key) => typeof lookup(messages, key) !== "string" || !(lookup(messages, key) as string).trim());
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });

  it("all answer rows from the one server that stands in for every vendor in flow tests", async () => {
    vendor.answer(answerEverySearch);
    const ports = testPorts({ baseUrls: searchBaseUrls(vendor.url) });
    for (const component of SEARCH_COMPONENTS) {
      const { output } = await runComponent(component, { input: "fuel cells", params: READY[component.name], ports });
      expect({ name: component.name, items: output.items }).toEqual({ name: component.name, items: [expect.objectContaining({ title: SEARCH_STUB_TITLE, url: expect.stringMatching(/^https:\/\//) })] });
    }
  });

  describe.each(SEARCH_COMPONENTS.map((c) => [c.name, c] as const))("%s", (_name, component) => {
    it("fails with the vendor's error status as an outside-service error, never with the page it answered", async () => {
      vendor.answer(() => ({ status: 500, body: "<html><body>Internal Server Error: stack trace with secrets</body></html>" }));
      const error = await failure(run(component, vendor.url));
      expect(error).toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.failed", params: { status: 500, detail: "" } });
      expect(error.message).not.toMatch(/secrets|^flow\./);
    });

    it("never reaches a cloud metadata address, whatever its base URL", async () => {
      vendor.answer(() => ({ body: {} }));
      const error = await failure(run(component, "http://169.254.169.254"));
      expect(error).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.outbound.addressRefused", params: { host: "169.254.169.254" } });
    });

    it("says the vendor could not be reached when nothing listens there", async () => {
      const closed = await startSearchVendor();
      await closed.close();
      const error = await failure(run(component, closed.url));
      expect(error).toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.unreachable", params: { detail: "ECONNREFUSED" } });
    });
  });

  // The components that read a structured answer (the HTML pages of DuckDuckGo's web channel and Baidu may hold no results at all).
  it.each([["Wikipedia"], ["PubMed"], ["ArXiv"], ["Google"], ["Bing"], ["GoogleScholar"], ["GitHub"], ["DuckDuckGo"]])("%s says so when the answer is not what its protocol promises", async (name) => {
    const component = SEARCH_COMPONENTS.find((c) => c.name === name)!;
    vendor.answer((request) => (request.path === "/" ? { body: 'vqd="4-1"' } : { body: "<<not what was asked for" }));
    const params = name === "DuckDuckGo" ? { channel: "news" } : {};
    await expect(run(component, vendor.url, params)).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.badAnswer" });
  });
});

/** A component that makes one vendor call with a short time limit, to see the call's own behaviour. */
const probe = (timeoutMs: number): ComponentDefinition => ({
  name: "Probe",
  category: "search",
  icon: "LuSearch",
  params: [],
  async run(context) {
    const answer = await callVendor(context, { service: "Probe", url: vendorUrl(context, "Probe", "https://probe.invalid", "/search"), timeoutMs });
    return { content: answer.text };
  },
});

describe("a vendor call", () => {
  it("gives up with a time-out error when the vendor does not answer in time", async () => {
    vendor.answer(() => ({ hang: true }));
    await expect(runComponent(probe(100), { ports: testPorts({ baseUrls: { Probe: vendor.url } }) })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.search.timeout",
      params: { service: "Probe", seconds: 1 },
    });
  });

  it("stays a cancellation when the run is cancelled while waiting", async () => {
    let arrived!: () => void;
    const request = new Promise<void>((resolve) => (arrived = resolve));
    vendor.answer(() => {
      arrived();
      return { hang: true };
    });
    const controller = new AbortController();
    const running = runComponent(probe(60_000), { ports: testPorts({ baseUrls: { Probe: vendor.url } }), signal: controller.signal });
    await request;
    const reason = new Error("run cancelled");
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });
});

describe("search rows", () => {
  it("are a markdown list of linked titles and one-line snippets, and nothing for no results", () => {
    expect(searchOutput([{ title: "A\ntitle", url: "https://a.example/x y", content: "line one\n\nline  two" }], 5)).toEqual({
      content: "- [A title](https://a.example/x%20y): line one line two",
      items: [{ title: "A title", url: "https://a.example/x y", content: "line one line two" }],
    });
    expect(searchOutput([], 5)).toEqual({ content: "", items: [] });
  });
});
