import zlib from "node:zlib";
import { outboundFetch, outboundPolicy } from "../../platform/outbound";
import { neverAnswer, sendJson, startVendorServer, unreachableUrl, type VendorServer } from "../../testing/vendor-servers";
import type { ComponentContext, ComponentDefinition } from "../component";
import { runComponent, testPorts } from "../testing/run-component";
import { failureOf } from "../testing/services-vendors";
import { callVendor, fetchOutside, markdownTable, recordsTable, requiredKey, vendorUrl } from "./outside-service";

/** A context with only what a call reads. */
function contextWith(ports = testPorts(), signal = new AbortController().signal, params: Record<string, unknown> = {}): ComponentContext {
  return { ports, signal, params, language: "en" } as unknown as ComponentContext;
}

let server: VendorServer;
beforeAll(async () => {
  server = await startVendorServer((_request, response) => sendJson(response, 200, { ok: true }));
});
afterAll(() => server.close());

/** A component that makes one call with a short time limit, to see the call's behaviour inside a run. */
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

describe("a call to an outside service", () => {
  it("gives up with a time-out error when the vendor does not answer in time", async () => {
    server.handle(neverAnswer);
    await expect(runComponent(probe(100), { ports: testPorts({ baseUrls: { Probe: server.url } }) })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.outside.timeout",
      params: { service: "Probe", seconds: 1 },
    });
  });

  it("stays a cancellation when the run is cancelled while waiting", async () => {
    let arrived!: () => void;
    const request = new Promise<void>((resolve) => (arrived = resolve));
    server.handle(() => arrived());
    const controller = new AbortController();
    const running = runComponent(probe(60_000), { ports: testPorts({ baseUrls: { Probe: server.url } }), signal: controller.signal });
    await request;
    const reason = new Error("run cancelled");
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("says a closed port is unreachable, with the system's code", async () => {
    const error = await failureOf(fetchOutside(contextWith(), { service: "DeepL", url: `${await unreachableUrl()}/v2/translate` }));
    expect(error).toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.outside.unreachable", params: { service: "DeepL", detail: "ECONNREFUSED" } });
  });

  it("leaves an address the outbound guard refuses to the guard's own error", async () => {
    const guarded = testPorts({ fetch: (url, request = {}) => outboundFetch(url, request, outboundPolicy({ privateNetworks: false, redirects: "same-class" })) });
    const error = await failureOf(fetchOutside(contextWith(guarded), { service: "DeepL", url: `${server.url}/v2/translate` }));
    expect(error.messageKey).toBe("errors.outbound.addressRefused");
  });

  it("stops reading an answer larger than its cap", async () => {
    server.handle((_request, response) => {
      response.end("x".repeat(3 * 1024 * 1024));
    });
    const error = await failureOf(fetchOutside(contextWith(), { service: "Big", url: server.url, maxBytes: 1024 * 1024 }));
    expect(error).toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.outside.tooLarge", params: { service: "Big", megabytes: 1 } });
  });

  it("reads a compressed answer in the charset it declares", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain; charset=utf-16le" });
      response.end(zlib.gzipSync(Buffer.from("天气 ok", "utf16le")));
    });
    expect((await fetchOutside(contextWith(), { service: "Any", url: server.url })).text).toBe("天气 ok");
  });

  it("tells a refused key, rate limiting and other statuses apart, with the vendor's JSON message only", async () => {
    const answering = (status: number, body: string) =>
      server.handle((_request, response) => {
        response.writeHead(status).end(body);
      });
    answering(401, JSON.stringify({ error: { message: "bad key" } }));
    expect(await failureOf(callVendor(contextWith(), { service: "V", url: server.url, keyed: true }))).toMatchObject({ messageKey: "flow.errors.outside.keyRejected", params: { status: 401, detail: "bad key" } });
    answering(429, "{}");
    expect(await failureOf(callVendor(contextWith(), { service: "V", url: server.url }))).toMatchObject({ messageKey: "flow.errors.outside.rateLimited" });
    answering(502, "<html>gateway secrets</html>");
    expect(await failureOf(callVendor(contextWith(), { service: "V", url: server.url }))).toMatchObject({ messageKey: "flow.errors.outside.status", params: { status: 502, detail: "" } });
  });
});

describe("a key a vendor needs", () => {
  it("is missing when empty or one of RAGFlow's placeholders", () => {
    for (const value of [undefined, "", "  ", "xxx", "YOUR_ACCESS_KEY", "YOUR_API_KEY"]) {
      expect(() => requiredKey(contextWith(undefined, undefined, { api_key: value }), "api_key", "Bing")).toThrow(expect.objectContaining({ kind: "BAD_REQUEST", messageKey: "flow.errors.outside.keyMissing", params: { service: "Bing", field: "api_key" } }));
    }
    expect(requiredKey(contextWith(undefined, undefined, { api_key: " k " }), "api_key", "Bing")).toBe("k");
  });
});

describe("markdown tables", () => {
  it("write rows one line each, pipes escaped, short rows padded", () => {
    expect(markdownTable(["a", "b"], [["1"], ["x|y", "line\nbreak"]])).toBe("| a | b |\n| --- | --- |\n| 1 |  |\n| x\\|y | line break |");
  });

  it("write records with columns in first-seen order", () => {
    expect(recordsTable([{ a: 1, b: "x|y" }, { a: 2, c: "line\nbreak" }])).toBe("| a | b | c |\n| --- | --- | --- |\n| 1 | x\\|y |  |\n| 2 |  | line break |");
  });
});
