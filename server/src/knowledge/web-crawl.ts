import dns from "node:dns/promises";
import net from "node:net";
import { DomainError } from "../platform/errors";

/**
 * Fetches one web page for a knowledge base. A crawl runs on the server, so a URL could make it probe
 * the internal network: every hop (redirects included) is resolved first, and private, loopback,
 * link-local and other non-public addresses are refused unless CRAWL_PRIVATE_ADDRESSES allows them.
 * The connection goes to the address that was checked, so a second DNS answer cannot swap it.
 */

export const CRAWL_MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 20_000;

export interface CrawledPage {
  url: string;
  contentType: string;
  body: Buffer;
}

const crawlError = (messageKey: string, params?: Record<string, unknown>) => new DomainError("BAD_REQUEST", messageKey, params);

/** Addresses no public web page has: loopback, private, link-local, CGNAT, multicast, unspecified, documentation. */
export function isNonPublicAddress(address: string): boolean {
  const list = new net.BlockList();
  for (const [prefix, bits] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 3],
  ] as const) {
    list.addSubnet(prefix, bits, "ipv4");
  }
  for (const [prefix, bits] of [
    ["::", 127],
    ["fc00::", 7],
    ["fe80::", 10],
    ["ff00::", 8],
    ["2001:db8::", 32],
  ] as const) {
    list.addSubnet(prefix, bits, "ipv6");
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return list.check(mapped[1], "ipv4");
  return list.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

async function checkedAddress(url: URL, allowPrivate: boolean): Promise<string> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw crawlError("errors.knowledge.crawlUrlInvalid");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw crawlError("errors.knowledge.crawlUnreachable", { url: url.href });
  if (!allowPrivate && addresses.some(isNonPublicAddress)) throw crawlError("errors.knowledge.crawlPrivateAddress", { host });
  return addresses[0];
}

export async function fetchPage(address: string, options: { allowPrivate: boolean }): Promise<CrawledPage> {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw crawlError("errors.knowledge.crawlUrlInvalid");
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const ip = await checkedAddress(url, options.allowPrivate);
    const response = await request(url, ip);
    if (response.status >= 300 && response.status < 400 && response.location) {
      url = new URL(response.location, url);
      continue;
    }
    if (response.status >= 400) throw crawlError("errors.knowledge.crawlStatus", { url: url.href, status: response.status });
    return { url: url.href, contentType: response.contentType, body: response.body };
  }
  throw crawlError("errors.knowledge.crawlRedirects", { url: url.href });
}

interface RawResponse {
  status: number;
  location?: string;
  contentType: string;
  body: Buffer;
}

/** One HTTP(S) request to a fixed address, with the host name kept for TLS and the Host header. */
async function request(url: URL, ip: string): Promise<RawResponse> {
  const client = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise<RawResponse>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "GET",
        lookup: (_host, _options, callback) => callback(null, [{ address: ip, family: net.isIPv6(ip) ? 6 : 4 }]),
        headers: { "user-agent": "Cairn/0.1 (knowledge-base web crawl)", accept: "text/html,application/xhtml+xml,*/*;q=0.5" },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return resolve({ status, location: res.headers.location, contentType: "", body: Buffer.alloc(0) });
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > CRAWL_MAX_BYTES) {
            req.destroy();
            reject(new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413"));
            return;
          }
          parts.push(chunk);
        });
        res.on("end", () => resolve({ status, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(parts) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(crawlError("errors.knowledge.crawlUnreachable", { url: url.href })));
    req.on("error", (error) => reject(error instanceof DomainError ? error : crawlError("errors.knowledge.crawlUnreachable", { url: url.href })));
    req.end();
  });
}
