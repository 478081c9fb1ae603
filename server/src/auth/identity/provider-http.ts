import { DomainError } from "../../platform/errors";
import { outboundFetch, outboundPolicy, readLimited } from "../../platform/outbound";

/**
 * Where calls to identity providers may go. Only the operator names a provider (its issuer or base URL in the
 * configuration); no user can point the server anywhere through it. So loopback and private addresses are allowed:
 * an organisation's Keycloak or Dex commonly lives on its own network, and the tests' providers run on 127.0.0.1.
 * The guard still refuses what is never a provider (link-local cloud metadata, unspecified and broadcast addresses),
 * and a redirect into another class of network than the first hop's, which a genuine provider never needs.
 */
const IDENTITY_PROVIDER_OUTBOUND = outboundPolicy({ privateNetworks: true, redirects: "same-class" });

/** Discovery documents, key sets and token answers are a few kilobytes; more is not a provider talking. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A provider that has not answered by then is treated as down: someone is waiting on the sign-in page. */
const TIMEOUT_MS = 15_000;

/** The provider could not be reached, or answered with something that is not what its protocol promises. */
export const providerUnavailable = (provider: string) => new DomainError("OUTSIDE_SERVICE", "errors.sso.providerUnavailable", { provider });

export interface ProviderAnswer {
  status: number;
  body: unknown;
}

/** One JSON call to a provider through the outbound guard; a transport failure or a non-JSON body is `providerUnavailable`. */
export async function callProvider(
  label: string,
  url: string,
  request: { method?: "GET" | "POST"; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<ProviderAnswer> {
  let text: string;
  let status: number;
  try {
    const response = await outboundFetch(
      url,
      {
        method: request.method ?? "GET",
        headers: { accept: "application/json", "user-agent": "Cairn", ...request.headers },
        body: request.form ? new URLSearchParams(request.form) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      IDENTITY_PROVIDER_OUTBOUND,
    );
    status = response.status;
    text = (await readLimited(response, MAX_ANSWER_BYTES, () => providerUnavailable(label))).toString("utf8");
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw providerUnavailable(label);
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw providerUnavailable(label);
  }
}

/** The JSON of a successful answer; an error status means the provider is not working as it should. */
export async function providerJson(label: string, url: string, request?: Parameters<typeof callProvider>[2]): Promise<unknown> {
  const { status, body } = await callProvider(label, url, request);
  if (status < 200 || status >= 300) throw providerUnavailable(label);
  return body;
}

/** A JSON object's fields, or `providerUnavailable` when the answer is not an object. */
export function objectOf(label: string, body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw providerUnavailable(label);
  return body as Record<string, unknown>;
}
