import type { OutboundPolicy } from "../../platform/outbound";
import { callProviderJson, ModelCallError } from "../http";

export interface OAuthTokenRequest {
  provider: string;
  url: string;
  outbound: OutboundPolicy | undefined;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A form (application/x-www-form-urlencoded) body, when the grant is sent in the body. */
  form?: URLSearchParams;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface OAuthToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * An OAuth 2.0 token request (RFC 6749 §5). A refused grant is a credentials problem whatever the status
 * (Google and Baidu answer 400 or 401 with `invalid_grant` / `invalid_client`), and its
 * `error_description` is the part a user can act on, so it is kept in the message.
 */
export async function requestOAuthToken(request: OAuthTokenRequest): Promise<OAuthToken> {
  let refusal: string | undefined;
  try {
    const answer = await callProviderJson<{ access_token?: string; expires_in?: number }>({
      provider: request.provider,
      url: request.url,
      outbound: request.outbound,
      method: request.method ?? "POST",
      headers: { ...(request.form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...request.headers },
      body: request.form?.toString(),
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      classify(status, body) {
        refusal = oauthRefusal(body);
        return refusal && status < 500 && status !== 429 ? "auth" : undefined;
      },
    });
    if (!answer.access_token) throw new ModelCallError("auth", request.provider, "the token endpoint answered no access_token");
    return { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 };
  } catch (error) {
    if (error instanceof ModelCallError && refusal) throw new ModelCallError(error.reason, request.provider, refusal);
    throw error;
  }
}

/** "invalid_grant: Invalid JWT Signature." from an RFC 6749 error body, or undefined when it is not one. */
function oauthRefusal(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error !== "string") return undefined;
    return typeof parsed.error_description === "string" ? `${parsed.error}: ${parsed.error_description}` : parsed.error;
  } catch {
    return undefined;
  }
}
