import type { Response } from "express";
import { jsonResult, RETURN_CODES } from "../rest/envelope";
import { epochMillis, rfc1123 } from "../rest/presenters";
import { authenticatedRoute, openRoute, type RestRoute } from "../rest/rest-route";
import { DomainError } from "../platform/errors";
import type { SignedInSession } from "./auth.service";
import type { User } from "./user.entity";

/**
 * The few endpoints of RAGFlow's web API (`/v1/...`) that its SDK test suites and scripts use to obtain
 * an account and an API key (contract §13). Passwords travel as the client sends them; RAGFlow's own web
 * page RSA-encrypts them, which our client does not need.
 */

function presentUser(user: User, accessToken: string | null): Record<string, unknown> {
  return {
    id: user.id,
    access_token: accessToken,
    nickname: user.nickname,
    email: user.email,
    avatar: user.avatar,
    language: user.language,
    color_schema: user.colorSchema,
    timezone: user.timezone,
    last_login_time: rfc1123(user.lastLoginAt),
    is_authenticated: "1",
    is_active: user.isActive ? "1" : "0",
    is_anonymous: "0",
    login_channel: "password",
    status: "1",
    is_superuser: false,
    create_time: epochMillis(user.createdAt),
    create_date: rfc1123(user.createdAt),
    update_time: epochMillis(user.updatedAt),
    update_date: rfc1123(user.updatedAt),
  };
}

/** RAGFlow's `validate_request`: the names of absent keys, with its trailing "; ". */
function missingArguments(body: Record<string, unknown>, names: string[]): Record<string, unknown> | null {
  const missing = names.filter((name) => !(name in body));
  return missing.length ? jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `) : null;
}

function signedInAnswer(res: Response, session: SignedInSession, message: string): Record<string, unknown> {
  res.setHeader("Authorization", session.token);
  res.setHeader("Access-Control-Expose-Headers", "Authorization");
  return jsonResult(RETURN_CODES.SUCCESS, message, presentUser(session.user, session.token));
}

export const authRestRoutes: RestRoute[] = [
  openRoute("POST", "/v1/user/register", async ({ services, body, req, res }) => {
    const missing = missingArguments(body, ["nickname", "email", "password"]);
    if (missing) return missing;
    const input = { email: String(body.email ?? ""), nickname: String(body.nickname ?? ""), password: String(body.password ?? "") };
    let session: SignedInSession;
    try {
      session = await services.auth.signUp(input, { address: req.ip });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const message =
        error.messageKey === "errors.emailTaken"
          ? `Email: ${input.email} has already registered!`
          : error.messageKey === "errors.emailInvalid"
            ? `Invalid email address: ${input.email}!`
            : error.message;
      return jsonResult(RETURN_CODES.OPERATING_ERROR, message);
    }
    return signedInAnswer(res, session, `${session.user.nickname}, welcome aboard!`);
  }),

  openRoute("POST", "/v1/user/login", async ({ services, body, req, res }) => {
    try {
      const session = await services.auth.login({ email: String(body.email ?? ""), password: String(body.password ?? "") }, { address: req.ip });
      return signedInAnswer(res, session, "Welcome back!");
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return jsonResult(RETURN_CODES.AUTHENTICATION_ERROR, error.message);
    }
  }),

  authenticatedRoute("POST", "/v1/system/new_token", "login", async ({ services, principal }) => {
    const { apiToken, token } = await services.apiTokens.create(principal);
    return jsonResult(RETURN_CODES.SUCCESS, "success", {
      tenant_id: apiToken.tenantId,
      token,
      create_time: epochMillis(apiToken.createdAt),
      create_date: rfc1123(apiToken.createdAt),
      update_time: null,
      update_date: null,
    });
  }),

  openRoute("GET", "/v1/system/ping", async ({ res }) => {
    res.type("text/plain").send("pong");
  }),
];
