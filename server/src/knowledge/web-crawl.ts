import { DomainError } from "../platform/errors";
import { OutboundRefused, outboundFetch, outboundPolicy, readLimited } from "../platform/outbound";

/**
 * Fetches one web page for a knowledge base, through the outbound guard: a crawl runs on the server, so
 * a URL must not make it probe the internal network. Loopback and private addresses are refused unless
 * CRAWL_PRIVATE_ADDRESSES allows them; link-local and metadata addresses always are.
 */

export const CRAWL_MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 20_000;

// Web pages move: redirects are followed wherever they lead, each hop checked.
const PUBLIC_ONLY = outboundPolicy({ privateNetworks: false, redirects: "any" });
const WITH_PRIVATE_NETWORKS = outboundPolicy({ privateNetworks: true, redirects: "any" });

export interface CrawledPage {
  url: string;
  contentType: string;
  body: Buffer;
}

const crawlError = (messageKey: string, params?: Record<string, unknown>) => new DomainError("BAD_REQUEST", messageKey, params);

export async function fetchPage(address: string, options: { allowPrivate: boolean }): Promise<CrawledPage> {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw crawlError("errors.knowledge.crawlUrlInvalid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw crawlError("errors.knowledge.crawlUrlInvalid");
  let response: Response;
  try {
    response = await outboundFetch(
      url,
      {
        headers: { "user-agent": "Cairn/0.1 (knowledge-base web crawl)", accept: "text/html,application/xhtml+xml,*/*;q=0.5" },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      options.allowPrivate ? WITH_PRIVATE_NETWORKS : PUBLIC_ONLY,
    );
  } catch (error) {
    throw crawlFailure(error, url);
  }
  const finalUrl = response.url || url.href;
  if (response.status >= 300) {
    await response.body?.cancel();
    throw crawlError("errors.knowledge.crawlStatus", { url: finalUrl, status: response.status });
  }
  try {
    const body = await readLimited(response, CRAWL_MAX_BYTES, () => new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413"));
    return { url: finalUrl, contentType: response.headers.get("content-type") ?? "", body };
  } catch (error) {
    throw crawlFailure(error, url);
  }
}

function crawlFailure(error: unknown, url: URL): DomainError {
  if (error instanceof OutboundRefused) {
    if (error.reason === "address") return crawlError("errors.knowledge.crawlPrivateAddress", { host: error.host });
    if (error.reason === "url") return crawlError("errors.knowledge.crawlUrlInvalid");
    return crawlError("errors.knowledge.crawlRedirects", { url: url.href });
  }
  if (error instanceof DomainError) return error;
  return crawlError("errors.knowledge.crawlUnreachable", { url: url.href });
}
