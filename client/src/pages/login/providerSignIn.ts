/** The login page's address parameter that says an identity provider's sign-in has just come back (its value: the provider). */
export const PROVIDER_RETURN_PARAM = "sso";
/** Where the server keeps the outcome of a provider's sign-in for this browser, to be claimed once. */
const CLAIM_PATH = "/v1/auth/session";

/** Where a provider button sends the browser: the server's start address with the page to come back to and the form's choices. */
export function providerStartHref(startUrl: string, choices: { returnTo: string; remember: boolean; language: string }): string {
  const params = new URLSearchParams({ redirect: choices.returnTo, lng: choices.language });
  if (choices.remember) params.set("remember", "1");
  return `${startUrl}?${params.toString()}`;
}

export type ProviderSignInOutcome =
  | { ok: true; token: string; redirect: string }
  | { ok: false; messageKey: string; params: Record<string, unknown> };

interface ClaimEnvelope {
  code?: number;
  data?: { token?: unknown; redirect?: unknown; messageKey?: unknown; params?: unknown } | null;
}

/** Reads the server's answer to the claim: a session token and the page to go on to, or the message key of what went wrong. */
export function outcomeOf(envelope: ClaimEnvelope): ProviderSignInOutcome {
  const data = envelope.data ?? {};
  if (envelope.code === 0 && typeof data.token === "string") return { ok: true, token: data.token, redirect: typeof data.redirect === "string" ? data.redirect : "" };
  const params = typeof data.params === "object" && data.params !== null ? (data.params as Record<string, unknown>) : {};
  return { ok: false, messageKey: typeof data.messageKey === "string" ? data.messageKey : "errors.requestError", params };
}

/** Claims, once, what the provider's sign-in left for this browser (an httpOnly cookie the page itself cannot read). */
export async function claimProviderSignIn(): Promise<ProviderSignInOutcome> {
  const response = await fetch(CLAIM_PATH, { method: "POST", credentials: "same-origin" });
  return outcomeOf((await response.json()) as ClaimEnvelope);
}
