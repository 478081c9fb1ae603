import type { Request, Response } from "express";
import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { openRoute, type RestRoute } from "../../rest/rest-route";
import { DomainError, unexpectedError } from "../../platform/errors";
import { englishMessage } from "../../platform/messages";
import type { Services } from "../../platform/services";
import { FLOW_SECONDS, OUTCOME_SECONDS, type SignInOutcome } from "./identity-sign-in";

/**
 * The browser's side of sign-in with an identity provider:
 *   GET  /v1/auth/{provider}/start?redirect=/path&remember=1&lng=en  → the provider's sign-in page
 *   GET  /v1/auth/{provider}/callback?code&state                     → the login page, /login?sso={provider}
 *   POST /v1/auth/session                                            → the session the callback opened, or why not
 * Sessions are bearer tokens that the client keeps (as after a password sign-in), so the callback does not hand the
 * token over in an address (history, logs, Referer): it leaves it in a sealed httpOnly cookie for a minute, which
 * only the login page's same-origin claim reads, once. SameSite=Lax: the provider's redirect back is a top-level GET,
 * which carries the flow cookie, while another site's POST carries neither cookie.
 */

const FLOW_COOKIE = "cairn_sign_in_flow";
const OUTCOME_COOKIE = "cairn_sign_in_outcome";
const OUTCOME_PATH = "/v1/auth/session";
const callbackPath = (provider: string) => `/v1/auth/${encodeURIComponent(provider)}/callback`;

function cookieOf(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return undefined;
}

function setCookie(services: Services, req: Request, res: Response, name: string, value: string, path: string, maxAgeSeconds: number): void {
  const attributes = [`${name}=${encodeURIComponent(value)}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
  // Behind a proxy that ends TLS, the request itself may look like plain HTTP: the public address says what the browser sees.
  if (req.secure || services.platform.config.publicUrl?.startsWith("https:")) attributes.push("Secure");
  res.append("Set-Cookie", attributes.join("; "));
}

/** Where this request was addressed to, for redirect URIs when PUBLIC_URL is not set (express's `trust proxy` decides the scheme). */
const requestOrigin = (req: Request) => `${req.protocol}://${req.get("host") ?? "localhost"}`;

/** A failure as the login page shows it: a DomainError's message key, anything else logged under a reference. */
function failureOutcome(error: unknown): SignInOutcome {
  const known = error instanceof DomainError ? error : unexpectedError("identity sign-in", error);
  return { ok: false, messageKey: known.messageKey, params: known.params };
}

/** Ends at the login page, which claims the outcome. */
function backToLogin(services: Services, req: Request, res: Response, provider: string, outcome: SignInOutcome): void {
  setCookie(services, req, res, OUTCOME_COOKIE, services.identitySignIn.sealOutcome(outcome), OUTCOME_PATH, OUTCOME_SECONDS);
  res.redirect(302, `/login?${new URLSearchParams({ sso: provider })}`);
}

export const identityRestRoutes: RestRoute[] = [
  openRoute("GET", "/v1/auth/:provider/start", async ({ services, params, query, req, res }) => {
    try {
      const request = { redirect: query.redirect, remember: query.remember === "1", language: query.lng };
      const { location, sealedFlow } = await services.identitySignIn.start(params.provider, request, requestOrigin(req));
      setCookie(services, req, res, FLOW_COOKIE, sealedFlow, callbackPath(params.provider), FLOW_SECONDS);
      res.redirect(302, location);
    } catch (error) {
      backToLogin(services, req, res, params.provider, failureOutcome(error));
    }
  }),

  openRoute("GET", "/v1/auth/:provider/callback", async ({ services, params, query, req, res }) => {
    // One use: whatever happens next, this browser's flow is over.
    setCookie(services, req, res, FLOW_COOKIE, "", callbackPath(params.provider), 0);
    let outcome: SignInOutcome;
    try {
      const { session, redirect } = await services.identitySignIn.finish(params.provider, query, cookieOf(req, FLOW_COOKIE), requestOrigin(req), { address: req.ip });
      outcome = { ok: true, token: session.token, expiresAt: session.expiresAt.toISOString(), redirect };
    } catch (error) {
      outcome = failureOutcome(error);
    }
    backToLogin(services, req, res, params.provider, outcome);
  }),

  openRoute("POST", OUTCOME_PATH, async ({ services, req, res }) => {
    // None (never signed in, claimed already, or older than a minute): the sign-in is to be started again.
    const outcome = services.identitySignIn.openOutcome(cookieOf(req, OUTCOME_COOKIE)) ?? failureOutcome(new DomainError("UNAUTHENTICATED", "errors.sso.expired"));
    setCookie(services, req, res, OUTCOME_COOKIE, "", OUTCOME_PATH, 0);
    if (!outcome.ok) return jsonResult(RETURN_CODES.AUTHENTICATION_ERROR, englishMessage(outcome.messageKey, outcome.params), { messageKey: outcome.messageKey, params: outcome.params });
    return jsonResult(RETURN_CODES.SUCCESS, "success", { token: outcome.token, expiresAt: outcome.expiresAt, redirect: outcome.redirect });
  }),
];
