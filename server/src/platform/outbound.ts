import type { LookupAddress } from "node:dns";
import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";
import { DomainError } from "./errors";

/**
 * The one way Cairn's server reaches another server on behalf of a user (web crawl, model providers,
 * and every future fetching feature). A URL a user typed must not let the server probe its own
 * network or read a cloud's metadata service, so every connection of every hop is checked:
 * - each host name is resolved, every address it resolves to is checked, and the socket connects to
 *   one of those checked addresses (a second DNS answer cannot swap it);
 * - link-local, cloud-metadata and reserved addresses are always refused, in every IPv6 spelling of an
 *   IPv4 address (mapped, compatible, SIIT, NAT64, 6to4, Teredo); loopback and private networks only
 *   when the caller's policy allows them;
 * - redirects are followed only for GET and HEAD, each hop checked again, never carrying the caller's
 *   credentials to another origin; a policy may also refuse a redirect into another class of address.
 */

/** What an address is, from the server's point of view; `forbidden` is never reached, whatever the policy. */
export type AddressClass = "public" | "private" | "loopback" | "forbidden";

const RESTRICTIVENESS: readonly AddressClass[] = ["public", "private", "loopback", "forbidden"];

function mostRestrictive(classes: AddressClass[]): AddressClass {
  return classes.reduce((a, b) => (RESTRICTIVENESS.indexOf(b) > RESTRICTIVENESS.indexOf(a) ? b : a), "public");
}

function blockList(subnets: readonly (readonly [string, number])[], type: "ipv4" | "ipv6"): net.BlockList {
  const list = new net.BlockList();
  for (const [prefix, bits] of subnets) list.addSubnet(prefix, bits, type);
  return list;
}

const IPV4: readonly [AddressClass, net.BlockList][] = [
  [
    "forbidden",
    blockList(
      [
        ["0.0.0.0", 8], // "this network"
        ["169.254.0.0", 16], // link-local: AWS, GCP, Azure, OCI, DigitalOcean and Tencent metadata live here
        ["100.100.100.200", 32], // Alibaba Cloud metadata
        ["168.63.129.16", 32], // Azure's WireServer (platform DNS, agent configuration)
        ["192.0.0.0", 24], // IETF protocol assignments (OCI's legacy 192.0.0.192)
        ["192.0.2.0", 24], // documentation
        ["198.51.100.0", 24],
        ["203.0.113.0", 24],
        ["192.88.99.0", 24], // deprecated 6to4 relays
        ["224.0.0.0", 4], // multicast
        ["240.0.0.0", 4], // reserved and broadcast
      ],
      "ipv4",
    ),
  ],
  ["loopback", blockList([["127.0.0.0", 8]], "ipv4")],
  [
    "private",
    blockList(
      [
        ["10.0.0.0", 8],
        ["172.16.0.0", 12],
        ["192.168.0.0", 16],
        ["100.64.0.0", 10], // carrier-grade NAT, and Tailscale's addresses
        ["198.18.0.0", 15], // benchmarking, and the fake-IP range of some local proxies
      ],
      "ipv4",
    ),
  ],
];

const IPV6: readonly [AddressClass, net.BlockList][] = [
  [
    "forbidden",
    blockList(
      [
        ["::", 128], // unspecified
        ["fe80::", 10], // link-local
        ["fec0::", 10], // deprecated site-local
        ["ff00::", 8], // multicast
        ["100::", 64], // discard-only
        ["2001:db8::", 32], // documentation
        ["3fff::", 20],
        ["fd00:ec2::", 32], // AWS Nitro services: metadata fd00:ec2::254, DNS, time
        ["fd20:ce::254", 128], // GCP metadata over IPv6
        ["fd00:c1::a9fe:a9fe", 128], // OCI metadata over IPv6
      ],
      "ipv6",
    ),
  ],
  ["loopback", blockList([["::1", 128]], "ipv6")],
  ["private", blockList([["fc00::", 7]], "ipv6")],
];

function classOfIpv4(address: string): AddressClass {
  return IPV4.find(([, list]) => list.check(address, "ipv4"))?.[0] ?? "public";
}

/** The 16 bytes of a valid IPv6 address without zone id (an embedded dotted quad included). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headWords = head ? head.split(":") : [];
  const tailWords = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headWords.length - tailWords.length).fill("0");
  return [...headWords, ...zeros, ...tailWords].flatMap((word) => {
    const value = parseInt(word, 16);
    return [value >> 8, value & 0xff];
  });
}

const dottedQuad = (bytes: number[]) => bytes.join(".");

/** RFC 6052: the IPv4 address inside an IPv4-embedded IPv6 address with a prefix of `bits`, skipping byte 8. */
function rfc6052Ipv4(bytes: number[], bits: 32 | 40 | 48 | 56 | 64 | 96): string {
  const positions = [...Array(16).keys()].filter((i) => i !== 8 && i >= bits / 8);
  return dottedQuad(positions.slice(0, 4).map((i) => bytes[i]));
}

/**
 * The class of the IPv4 address an IPv6 address stands for, when it is one of the forms that carry an
 * IPv4 address to a host that will connect to it: a refused IPv4 address is refused in every spelling.
 */
function embeddedClass(bytes: number[]): AddressClass | undefined {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const word = (i: number) => (bytes[2 * i] << 8) | bytes[2 * i + 1];
  const last32 = classOfIpv4(dottedQuad(bytes.slice(12)));
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT), ::a.b.c.d (compatible: deprecated, still routed by some stacks)
  if (zero(0, 10) && word(5) === 0xffff) return last32;
  if (zero(0, 8) && word(4) === 0xffff && word(5) === 0) return last32;
  if (zero(0, 12)) return last32;
  // NAT64: the well-known prefix 64:ff9b::/96…
  if (word(0) === 0x64 && word(1) === 0xff9b && zero(4, 12)) return last32;
  // …and the local-use 64:ff9b:1::/48, an operator's own network, with any prefix length the operator chose:
  // every reading counts, except those in 0.0.0.0/8, which only say that this is not the length in use.
  if (word(0) === 0x64 && word(1) === 0xff9b && word(2) === 1) {
    const readings = ([48, 56, 64, 96] as const).map((bits) => rfc6052Ipv4(bytes, bits)).filter((ipv4) => !ipv4.startsWith("0."));
    return mostRestrictive(["private", ...readings.map(classOfIpv4)]);
  }
  // 6to4: 2002:AABB:CCDD::/48
  if (word(0) === 0x2002) return classOfIpv4(dottedQuad(bytes.slice(2, 6)));
  // Teredo 2001:0::/32: the server's address, and the client's, stored inverted.
  if (word(0) === 0x2001 && word(1) === 0) {
    return mostRestrictive([classOfIpv4(dottedQuad(bytes.slice(4, 8))), classOfIpv4(dottedQuad(bytes.slice(12).map((b) => b ^ 0xff)))]);
  }
  return undefined;
}

/** The class of an IP address (IPv4 or IPv6, with or without brackets); anything that is not an IP address is forbidden. */
export function addressClass(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (net.isIPv4(bare)) return classOfIpv4(bare);
  if (!net.isIPv6(bare)) return "forbidden";
  const own = IPV6.find(([, list]) => list.check(bare, "ipv6"))?.[0] ?? "public";
  if (own === "forbidden" || own === "loopback") return own;
  return mostRestrictive([own, embeddedClass(ipv6Bytes(bare)) ?? "public"]);
}

export interface OutboundPolicy {
  /** Whether a feature may connect to this address; forbidden addresses are refused before the policy is asked. */
  mayReach(address: string, kind: Exclude<AddressClass, "forbidden">): boolean;
  /**
   * "any": a GET redirect is followed wherever it goes, as long as each hop is allowed (web pages move).
   * "same-class": also refused when it leads to another class of address than the first hop (model APIs
   * never need to, and a hosted API that redirects into a private network is an attack).
   */
  redirects: "any" | "same-class";
  maxRedirects?: number;
  /** DNS; tests give their own answers rather than reaching out. */
  resolve?(hostname: string): Promise<string[]>;
}

/** A policy that reaches public addresses, and loopback and private networks when `privateNetworks` says so. */
export function outboundPolicy(options: { privateNetworks: boolean; redirects: OutboundPolicy["redirects"] }): OutboundPolicy {
  return {
    mayReach: (_address, kind) => kind === "public" || options.privateNetworks,
    redirects: options.redirects,
  };
}

/** Why the guard did not connect; `messageKey` is `errors.outbound.*`, `host` is what the user typed or the redirect named. */
export class OutboundRefused extends DomainError {
  constructor(
    readonly reason: "address" | "redirect" | "url",
    readonly host: string,
  ) {
    super("BAD_REQUEST", `errors.outbound.${reason}Refused`, { host });
  }
}

async function resolveHost(hostname: string, policy: OutboundPolicy): Promise<string[]> {
  if (policy.resolve) return policy.resolve(hostname);
  return (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Refuses an address the policy does not allow, or (for a redirect hop) one of another class than required. */
function checkAddress(address: string, host: string, policy: OutboundPolicy, requiredClass?: AddressClass): void {
  const kind = addressClass(address);
  if (kind === "forbidden" || !policy.mayReach(address, kind)) throw new OutboundRefused("address", host);
  if (requiredClass && kind !== requiredClass) throw new OutboundRefused("redirect", host);
}

/**
 * Checks a URL without touching the network, for a form that refuses what can never work when it is
 * saved: its scheme, and its host when that is a literal address. A host name is checked when a request
 * connects (it may resolve differently by then, and saving a form should not wait on DNS).
 */
export function checkUrl(url: string | URL, policy: OutboundPolicy): void {
  const host = bareHost(parseUrl(url));
  if (net.isIP(host)) checkAddress(host, host, policy);
}

function parseUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused("url", String(url).slice(0, 200));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new OutboundRefused("url", parsed.protocol);
  return parsed;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Resolves and checks where a URL leads, without connecting. For clients that report a refused
 * connection poorly (an SDK that turns it into a cancelled stream): checking first gives a clear error,
 * and the connection is still checked when it is made.
 */
export async function checkDestination(url: string | URL, policy: OutboundPolicy): Promise<void> {
  const host = bareHost(parseUrl(url));
  const addresses = net.isIP(host) ? [host] : await resolveHost(host, policy);
  for (const address of addresses) checkAddress(address, host, policy);
}

/**
 * The DNS lookup a socket uses: the host is resolved once, every address is checked, and only checked
 * addresses are handed to the socket, so that a second DNS answer cannot swap them.
 */
function guardedLookup(policy: OutboundPolicy, requiredClass?: AddressClass): net.LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname, policy).then(
      (addresses) => {
        try {
          if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
          for (const address of addresses) checkAddress(address, hostname, policy, requiredClass);
        } catch (error) {
          return callback(error as NodeJS.ErrnoException, "", 0);
        }
        const family = (address: string) => (net.isIPv6(address) ? 6 : 4);
        const usable = options.family ? addresses.filter((a) => family(a) === options.family) : addresses;
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable.map((address) => ({ address, family: family(address) })));
        else callback(null, usable[0] ?? "", family(usable[0] ?? ""));
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

/** The options a client that connects by itself (WebSocket, an SDK's HTTP/2 session) needs to go through the guard. */
export function guardedConnection(url: string | URL, policy: OutboundPolicy): { lookup: net.LookupFunction } {
  const parsed = parseUrl(url.toString().replace(/^ws/, "http"));
  const host = bareHost(parsed);
  // A literal address is never looked up, so it is checked here.
  if (net.isIP(host)) checkAddress(host, host, policy);
  return { lookup: guardedLookup(policy) };
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array | URLSearchParams | FormData | null;
  signal?: AbortSignal;
}

const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** What a redirect to another origin keeps of the caller's headers: nothing that could be a credential. */
const HEADERS_KEPT_ACROSS_ORIGINS = new Set(["accept", "accept-language", "user-agent"]);

// Connections are pooled per policy, so that a socket opened under one policy is never reused under another.
const agents = new WeakMap<OutboundPolicy, { http: http.Agent; https: https.Agent }>();

function agentsOf(policy: OutboundPolicy) {
  let pair = agents.get(policy);
  if (!pair) {
    pair = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    agents.set(policy, pair);
  }
  return pair;
}

/**
 * fetch(), through the guard: the answer is a standard Response (its `url` is the last hop's). A refused
 * address or redirect throws OutboundRefused; transport failures throw as node reports them.
 */
export async function outboundFetch(url: string | URL, request: OutboundRequest, policy: OutboundPolicy): Promise<Response> {
  let current = parseUrl(url);
  const method = (request.method ?? "GET").toUpperCase();
  let headers = { ...request.headers };
  const body = await encodeBody(request.body, headers);
  let firstClass: AddressClass | undefined;
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    // Fails closed: a first hop whose address is unknown admits no redirect at all.
    const requiredClass = hop > 0 && policy.redirects === "same-class" ? (firstClass ?? "forbidden") : undefined;
    const response = await send(current, { method, headers, body: hop === 0 ? body : undefined, signal: request.signal }, policy, requiredClass, hop > 0);
    firstClass ??= response.remoteAddress ? addressClass(response.remoteAddress) : undefined;
    const location = response.message.headers.location;
    if (!REDIRECT_STATUSES.has(response.message.statusCode ?? 0) || !location) return toResponse(response.message, current, method);
    response.message.resume();
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new OutboundRefused("redirect", location.slice(0, 200));
    }
    // A body is never sent twice, and a POST is never turned into a GET somewhere else.
    if (method !== "GET" && method !== "HEAD") throw new OutboundRefused("redirect", next.host);
    if (hop >= maxRedirects) throw new OutboundRefused("redirect", next.host);
    if (next.protocol !== "http:" && next.protocol !== "https:") throw new OutboundRefused("url", next.protocol);
    if (next.origin !== current.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => HEADERS_KEPT_ACROSS_ORIGINS.has(name.toLowerCase())));
    current = next;
  }
}

async function encodeBody(body: OutboundRequest["body"], headers: Record<string, string>): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  if (body instanceof FormData || body instanceof URLSearchParams) {
    // The platform's own encoder writes the multipart boundary or the form encoding.
    const encoded = new Response(body);
    if (!hasType) headers["content-type"] = encoded.headers.get("content-type") ?? "";
    return Buffer.from(await encoded.arrayBuffer());
  }
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
}

interface Answer {
  message: http.IncomingMessage;
  remoteAddress: string | undefined;
}

interface SendInit {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
}

/**
 * A pooled connection the other side closed while it sat idle (its keep-alive timeout ran out as this request was
 * written) fails with ECONNRESET before any answer: the request never reached the server, so it is sent again, on
 * another connection (the rule of Node's documentation, `request.reusedSocket`). Several idle connections may have
 * been closed at once, so a few tries are allowed; a reset on a new connection is the server's answer and is reported.
 */
const MAX_STALE_CONNECTION_RETRIES = 3;

class StaleConnection extends Error {
  constructor(readonly reset: Error) {
    super(reset.message);
  }
}

async function send(url: URL, init: SendInit, policy: OutboundPolicy, requiredClass: AddressClass | undefined, isRedirect: boolean): Promise<Answer> {
  const host = bareHost(url);
  if (net.isIP(host)) checkAddress(host, host, policy, requiredClass);
  init.signal?.throwIfAborted();
  for (let retries = 0; ; retries++) {
    try {
      return await sendOnce(url, init, policy, requiredClass, isRedirect);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      if (retries >= MAX_STALE_CONNECTION_RETRIES) throw error.reset;
    }
  }
}

function sendOnce(url: URL, init: SendInit, policy: OutboundPolicy, requiredClass: AddressClass | undefined, isRedirect: boolean): Promise<Answer> {
  const client = url.protocol === "https:" ? https : http;
  const pool = agentsOf(policy);
  return new Promise<Answer>((resolve, reject) => {
    const req = client.request(url, {
      method: init.method,
      headers: { ...init.headers, ...(init.body ? { "content-length": String(init.body.length) } : {}) },
      lookup: guardedLookup(policy, requiredClass),
      // A redirect hop opens its own connection, so that its address is checked against the first hop's class.
      agent: isRedirect ? false : url.protocol === "https:" ? pool.https : pool.http,
    });
    let answer: http.IncomingMessage | undefined;
    const abort = () => {
      const reason = init.signal?.reason as Error;
      req.destroy(reason);
      answer?.destroy(reason);
    };
    init.signal?.addEventListener("abort", abort, { once: true });
    req.on("response", (message) => {
      answer = message;
      message.once("close", () => init.signal?.removeEventListener("abort", abort));
      resolve({ message, remoteAddress: message.socket?.remoteAddress });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      init.signal?.removeEventListener("abort", abort);
      const closedWhileIdle = req.reusedSocket && !answer && error.code === "ECONNRESET" && !init.signal?.aborted;
      reject(closedWhileIdle ? new StaleConnection(error) : error);
    });
    req.end(init.body);
  });
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function toResponse(message: http.IncomingMessage, url: URL, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  const status = message.statusCode ?? 0;
  const empty = method === "HEAD" || NULL_BODY_STATUSES.has(status);
  if (empty) message.resume();
  const body = empty ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
  const response = new Response(body, { status, statusText: message.statusMessage, headers });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}

/** A body read up to `maxBytes`; past that the connection is closed and `tooLarge` is thrown. */
export async function readLimited(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    parts.push(Buffer.from(value));
  }
}
