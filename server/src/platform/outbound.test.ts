import http from "node:http";
import type { AddressInfo } from "node:net";
import { addressClass, checkUrl, outboundFetch, outboundPolicy, OutboundRefused, type OutboundPolicy } from "./outbound";

/** A loopback server that records every request it receives. */
async function startServer(host: string, handler: http.RequestListener) {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type LocalServer = Awaited<ReturnType<typeof startServer>>;

/** Stands in for a public web site: only 127.0.0.2 may be reached, so 127.0.0.1 plays an internal address. */
const onlyTheSite: OutboundPolicy = { mayReach: (address) => address === "127.0.0.2", redirects: "any" };
const modelLike = outboundPolicy({ privateNetworks: true, redirects: "same-class" });

let internal: LocalServer;
let site: LocalServer;

beforeAll(async () => {
  internal = await startServer("127.0.0.1", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("AKIA-internal-secret"));
  site = await startServer("127.0.0.2", (req, res) => {
    const target = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (target) res.writeHead(req.url?.startsWith("/307") ? 307 : 302, { location: target }).end();
    else res.writeHead(200, { "content-type": "text/plain" }).end(`page ${req.headers.authorization ?? "without authorization"}`);
  });
});
afterAll(async () => {
  await internal.close();
  await site.close();
});

describe("address classes", () => {
  test("link-local and cloud-metadata addresses are always forbidden", () => {
    for (const address of ["169.254.169.254", "169.254.0.23", "169.254.170.2", "100.100.100.200", "168.63.129.16", "fe80::1", "fe80::a9fe:a9fe%eth0", "fd00:ec2::254", "fd20:ce::254", "[fd00:ec2::254]"]) {
      expect([address, addressClass(address)]).toEqual([address, "forbidden"]);
    }
  });

  test("every IPv6 spelling of a refused IPv4 address is refused as that address", () => {
    const spellings: [string, string][] = [
      // IPv4-mapped, dotted and hex
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:169.254.169.254", "forbidden"],
      ["::ffff:a9fe:a9fe", "forbidden"],
      ["::ffff:10.0.0.1", "private"],
      ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
      // IPv4-compatible
      ["::127.0.0.1", "loopback"],
      ["::7f00:1", "loopback"],
      ["::169.254.169.254", "forbidden"],
      ["::a9fe:a9fe", "forbidden"],
      ["::192.168.0.1", "private"],
      // SIIT (IPv4-translated)
      ["::ffff:0:127.0.0.1", "loopback"],
      ["::ffff:0:a9fe:a9fe", "forbidden"],
      // NAT64, well-known and local-use prefixes
      ["64:ff9b::127.0.0.1", "loopback"],
      ["64:ff9b::a9fe:a9fe", "forbidden"],
      ["64:ff9b::10.1.2.3", "private"],
      ["64:ff9b:1::a9fe:a9fe", "forbidden"],
      ["64:ff9b:1:a9fe:a9:fe00::", "forbidden"],
      ["64:ff9b:1::8.8.8.8", "private"],
      // 6to4
      ["2002:7f00:1::", "loopback"],
      ["2002:a9fe:a9fe::1", "forbidden"],
      ["2002:c0a8:101::1", "private"],
      // Teredo: server 65.54.227.120, client 169.254.169.254 stored inverted
      ["2001:0:4136:e378:8000:63bf:5601:5601", "forbidden"],
      ["2001:0:7f00:1::80ff:fefe", "loopback"], // server and client 127.x
    ];
    for (const [address, expected] of spellings) expect([address, addressClass(address)]).toEqual([address, expected]);
  });

  test("loopback, private networks and reserved ranges are told apart from public addresses", () => {
    const classes: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["::1", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.9", "private"],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "private"],
      ["fd00::2", "private"],
      ["0.0.0.0", "forbidden"],
      ["::", "forbidden"],
      ["224.0.0.1", "forbidden"],
      ["255.255.255.255", "forbidden"],
      ["192.0.2.1", "forbidden"],
      ["ff02::1", "forbidden"],
      ["not-an-address", "forbidden"],
      ["93.184.216.34", "public"],
      ["8.8.8.8", "public"],
      ["2606:4700::1111", "public"],
      ["64:ff9b::8.8.8.8", "public"],
      ["2002:808:808::1", "public"],
      ["::ffff:8.8.8.8", "public"],
    ];
    for (const [address, expected] of classes) expect([address, addressClass(address)]).toEqual([address, expected]);
  });
});

describe("the outbound guard", () => {
  test("never connects to a forbidden address, even when the policy allows private networks", async () => {
    const everything: OutboundPolicy = { mayReach: () => true, redirects: "any" };
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/", "http://100.100.100.200/"]) {
      await expect(outboundFetch(url, {}, everything)).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    }
  });

  test("refuses a host name when any of its addresses is refused", async () => {
    const resolve = async (host: string) => (host === "mixed.test" ? ["127.0.0.2", "169.254.169.254"] : ["127.0.0.2"]);
    const policy: OutboundPolicy = { ...onlyTheSite, resolve };
    await expect(outboundFetch(`http://mixed.test:${new URL(site.url).port}/`, {}, policy)).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused", params: { host: "mixed.test" } });
    expect(await (await outboundFetch(`http://fine.test:${new URL(site.url).port}/`, {}, policy)).text()).toBe("page without authorization");
  });

  test("checks a literal address of a form without the network, and leaves names to the connection", () => {
    expect(() => checkUrl("http://169.254.169.254/", modelLike)).toThrow(OutboundRefused);
    expect(() => checkUrl("http://[::ffff:127.0.0.1]:11434", outboundPolicy({ privateNetworks: false, redirects: "same-class" }))).toThrow(OutboundRefused);
    expect(() => checkUrl("file:///etc/passwd", modelLike)).toThrow(OutboundRefused);
    expect(() => checkUrl("http://127.0.0.1:11434", modelLike)).not.toThrow();
    expect(() => checkUrl("https://api.example.test/v1", outboundPolicy({ privateNetworks: false, redirects: "same-class" }))).not.toThrow();
  });

  test("connects to the address it checked: a second DNS answer cannot swap it", async () => {
    let lookups = 0;
    const rebinding: OutboundPolicy = { ...onlyTheSite, resolve: async () => (lookups++ === 0 ? ["127.0.0.2"] : ["127.0.0.1"]) };
    const before = internal.requests.length;
    const response = await outboundFetch(`http://rebind.test:${new URL(site.url).port}/`, {}, rebinding);
    expect(await response.text()).toBe("page without authorization");
    expect(lookups).toBe(1);
    expect(internal.requests.length).toBe(before);
  });

  test("a redirect from an allowed site to 127.0.0.1 is not followed", async () => {
    const before = internal.requests.length;
    await expect(outboundFetch(`${site.url}/?to=${encodeURIComponent(`${internal.url}/secret`)}`, {}, onlyTheSite)).rejects.toMatchObject({
      messageKey: "errors.outbound.addressRefused",
    });
    await expect(outboundFetch(`${site.url}/?to=${encodeURIComponent(`http://localhost:${new URL(internal.url).port}/`)}`, {}, onlyTheSite)).rejects.toBeInstanceOf(OutboundRefused);
    expect(internal.requests.length).toBe(before);
  });

  test("a redirect to 169.254.169.254 is not followed", async () => {
    for (const target of ["http://169.254.169.254/latest/meta-data/iam/", "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/"]) {
      await expect(outboundFetch(`${site.url}/?to=${encodeURIComponent(target)}`, {}, onlyTheSite)).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    }
  });

  test("follows an allowed redirect, and keeps no credential when it changes origin", async () => {
    const sameOrigin = await outboundFetch(`${site.url}/?to=/page`, { headers: { authorization: "Bearer sk-1" } }, onlyTheSite);
    expect(await sameOrigin.text()).toBe("page Bearer sk-1");
    expect(sameOrigin.url).toBe(`${site.url}/page`);
    const elsewhere = `http://another-origin.test:${new URL(site.url).port}/other`;
    const resolve = async () => ["127.0.0.2"];
    const moved = await outboundFetch(`${site.url}/?to=${encodeURIComponent(elsewhere)}`, { headers: { authorization: "Bearer sk-1" } }, { ...onlyTheSite, resolve });
    expect(await moved.text()).toBe("page without authorization");
  });

  test("never follows a redirect of a POST", async () => {
    const before = site.requests.length;
    await expect(outboundFetch(`${site.url}/307?to=/page`, { method: "POST", body: "{}" }, onlyTheSite)).rejects.toMatchObject({ messageKey: "errors.outbound.redirectRefused" });
    expect(site.requests.length).toBe(before + 1);
  });

  test("a same-class policy does not follow a redirect into another class of address", async () => {
    // The first hop is loopback; a private address is refused before anything is sent to it.
    await expect(outboundFetch(`${site.url}/?to=${encodeURIComponent("http://10.255.255.1/")}`, {}, modelLike)).rejects.toMatchObject({ messageKey: "errors.outbound.redirectRefused" });
    const same = await outboundFetch(`${site.url}/?to=${encodeURIComponent(`${internal.url}/`)}`, {}, modelLike);
    expect(await same.text()).toBe("AKIA-internal-secret");
  });
});

describe("pooled connections", () => {
  /**
   * A provider whose second request on a connection finds it closed (its keep-alive timeout ran out as the request was
   * written): the connection is reset with no answer.
   */
  async function closingProvider() {
    const requestsOn = new WeakMap<object, number>();
    let resets = 0;
    const bodies: string[] = [];
    const provider = await startServer("127.0.0.1", (req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count > 1) {
        resets += 1;
        req.socket.resetAndDestroy();
        return;
      }
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(200, { "content-type": "text/plain", connection: "keep-alive" }).end(`answer ${bodies.length}`);
      });
    });
    return { provider, bodies, resets: () => resets };
  }

  test("a request on a pooled connection the provider closed meanwhile is sent again on a new one, body and all", async () => {
    const { provider, bodies, resets } = await closingProvider();
    const policy = outboundPolicy({ privateNetworks: true, redirects: "same-class" });
    try {
      const first = await outboundFetch(`${provider.url}/v1/chat`, { method: "POST", body: '{"n":1}' }, policy);
      expect(await first.text()).toBe("answer 1");
      const second = await outboundFetch(`${provider.url}/v1/chat`, { method: "POST", body: '{"n":2}' }, policy);
      expect(await second.text()).toBe("answer 2");
      expect(resets()).toBe(1);
      expect(bodies).toEqual(['{"n":1}', '{"n":2}']);
    } finally {
      await provider.close();
    }
  });

  test("a reset on a new connection is not retried: the provider's failure is reported", async () => {
    const provider = await startServer("127.0.0.1", (req) => req.socket.resetAndDestroy());
    try {
      await expect(outboundFetch(`${provider.url}/v1/chat`, { method: "POST", body: "{}" }, outboundPolicy({ privateNetworks: true, redirects: "same-class" }))).rejects.toMatchObject({ code: "ECONNRESET" });
      expect(provider.requests).toHaveLength(1);
    } finally {
      await provider.close();
    }
  });
});
