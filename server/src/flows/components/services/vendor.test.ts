import { outboundFetch, outboundPolicy } from "../../../platform/outbound";
import { neverAnswer, sendJson, startVendorServer, unreachableUrl, type VendorServer } from "../../../testing/vendor-servers";
import type { ComponentContext } from "../../component";
import { runComponent, testPorts } from "../../testing/run-component";
import { failureOf, portsFor } from "../../testing/services-vendors";
import { deepL } from "./deepl";
import { callVendor, markdownTable } from "./vendor";

/** A context with only what callVendor reads. */
function contextWith(ports = testPorts(), signal = new AbortController().signal): ComponentContext {
  return { ports, signal, language: "en" } as unknown as ComponentContext;
}

describe("calls to a vendor", () => {
  let server: VendorServer;

  beforeAll(async () => {
    server = await startVendorServer((_request, response) => sendJson(response, 200, { ok: true }));
  });
  afterAll(() => server.close());

  it("report a vendor that does not answer in time as a time-out", async () => {
    server.handle(neverAnswer);
    const error = await failureOf(callVendor(contextWith(), "DeepL", `${server.url}/v2/translate`, {}, 50));
    expect(error.kind).toBe("OUTSIDE_SERVICE");
    expect(error.messageKey).toBe("flow.errors.serviceTimeout");
    expect(error.params).toEqual({ service: "DeepL", seconds: 1 });
  });

  it("report a closed port as an unreachable vendor, through a whole component run", async () => {
    const error = await failureOf(runComponent(deepL, { params: { auth_key: "k" }, input: "hi", ports: portsFor("DeepL", await unreachableUrl()) }));
    expect(error.kind).toBe("OUTSIDE_SERVICE");
    expect(error.messageKey).toBe("flow.errors.serviceUnreachable");
    expect(error.params).toEqual({ service: "DeepL" });
  });

  it("leave an address the outbound guard refuses to the guard's own error", async () => {
    const guarded = testPorts({ fetch: (url, request = {}) => outboundFetch(url, request, outboundPolicy({ privateNetworks: false, redirects: "same-class" })) });
    const error = await failureOf(callVendor(contextWith(guarded), "DeepL", `${server.url}/v2/translate`));
    expect(error.messageKey).toBe("errors.outbound.addressRefused");
  });

  it("stop with the run when it is cancelled, not as the vendor's failure", async () => {
    server.handle(neverAnswer);
    const controller = new AbortController();
    const call = callVendor(contextWith(testPorts(), controller.signal), "DeepL", `${server.url}/v2/translate`);
    controller.abort(new Error("run cancelled"));
    await expect(call).rejects.toThrow("run cancelled");
  });

  it("write rows as a markdown table, one line per row", () => {
    expect(markdownTable([{ a: 1, b: "x|y" }, { a: 2, c: "line\nbreak" }])).toBe("| a | b | c |\n| --- | --- | --- |\n| 1 | x\\|y |  |\n| 2 |  | line break |");
  });
});
