import http from "node:http";
import type { AddressInfo } from "node:net";
import { addressClass } from "../platform/outbound";
import { fetchPage } from "./web-crawl";

const isNonPublicAddress = (address: string) => addressClass(address) !== "public";

let site: http.Server;
let base: string;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === "/moved") {
      res.writeHead(302, { location: "/page" }).end();
    } else if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><title>Harbour</title><p>The harbour opens at dawn.</p></html>");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

describe("a web crawl", () => {
  test("refuses loopback, private and link-local addresses unless configuration allows them", async () => {
    await expect(fetchPage(`${base}/page`, { allowPrivate: false })).rejects.toMatchObject({ messageKey: "errors.knowledge.crawlPrivateAddress" });
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "::1", "fe80::1", "fd00::2", "::ffff:127.0.0.1", "0.0.0.0"]) {
      expect(isNonPublicAddress(address)).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111"]) expect(isNonPublicAddress(address)).toBe(false);
  });

  test("follows redirects and returns the page when allowed", async () => {
    const page = await fetchPage(`${base}/moved`, { allowPrivate: true });
    expect(page.url).toBe(`${base}/page`);
    expect(page.contentType).toContain("text/html");
    expect(page.body.toString()).toContain("The harbour opens at dawn.");
  });

  test("says why a page could not be fetched", async () => {
    await expect(fetchPage("ftp://example.com/file", { allowPrivate: true })).rejects.toMatchObject({ messageKey: "errors.knowledge.crawlUrlInvalid" });
    await expect(fetchPage("not a url", { allowPrivate: true })).rejects.toMatchObject({ messageKey: "errors.knowledge.crawlUrlInvalid" });
    await expect(fetchPage(`${base}/missing`, { allowPrivate: true })).rejects.toMatchObject({ messageKey: "errors.knowledge.crawlStatus", params: { status: 404 } });
  });
});
