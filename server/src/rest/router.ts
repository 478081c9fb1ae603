import express, { type Request, type Response } from "express";
import { ANONYMOUS, isSignedIn, type Principal } from "../policies/principal";
import { DomainError, unexpectedError } from "../platform/errors";
import { holdsNulCharacter } from "../platform/sql";
import type { Services } from "../platform/services";
import { failure, jsonResult, RETURN_CODES } from "./envelope";
import { wordedError } from "./error-table";
import { PythonException } from "./python-repr";
import type { RestRoute } from "./rest-route";

/** Path prefixes the REST facade answers for: RAGFlow's service API and the few web-API endpoints its clients bootstrap with. */
export const REST_PREFIXES = ["/api/", "/v1/"];

const METHOD_NOT_ALLOWED = "<MethodNotAllowed '405: Method Not Allowed'>";
const WEB_UNAUTHORIZED = "<Unauthorized '401: Unauthorized'>";
const BAD_REQUEST = "<BadRequest '400: Bad Request'>";

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: RestRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((part) => {
      if (!part.startsWith(":")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(part.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

/** The path's parameters, decoded; null when one is not valid percent-encoding (the client's mistake: a Bad Request). */
function matchParams(compiled: CompiledRoute, path: string): Record<string, string> | null {
  const match = compiled.pattern.exec(path) ?? [];
  try {
    return Object.fromEntries(compiled.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
}

/**
 * RAGFlow's body rules (contract §1.6 b): an empty body is `{}`, JSON must be an object, any other
 * content type is read as form fields. Multipart bodies are left to the route that takes files.
 */
function requestBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || body === "") return {};
  if (typeof body === "string") throw new PythonException("AttributeError", "'str' object has no attribute 'get'");
  if (typeof body !== "object" || Array.isArray(body)) throw new PythonException("TypeError", "JSON payload must be an object.");
  return body as Record<string, unknown>;
}

/**
 * The service API takes only API keys, from the second word of the header whatever the first (RAGFlow
 * does not check the scheme); the web API also takes a session token, bare or after "Bearer".
 */
async function authenticate(services: Services, route: RestRoute, header: string | undefined): Promise<Principal> {
  if (route.auth === "none") return ANONYMOUS;
  if (route.auth === "login" || route.auth === "loginOrShare") return services.principalFor(header);
  const words = (header ?? "").trim().split(/\s+/);
  if (words.length < 2) return ANONYMOUS;
  return (await services.apiTokens.authenticate(words[1])) ?? ANONYMOUS;
}

/** Answers of the auth check, word for word as RAGFlow sends them (contract §1.2 and §1.5). */
function refuseAuthentication(route: RestRoute, req: Request, res: Response, principal: Principal): boolean {
  // A share token is no sign-in: only routes that say so accept it (the shared chat's own; a flow's share token is not one).
  const accepted = route.auth === "loginOrShare" ? isSignedIn(principal) || principal.kind === "share" : isSignedIn(principal);
  if (route.auth === "none" || accepted) return false;
  if (route.auth !== "apiKey") {
    res.status(401).json(jsonResult(401, WEB_UNAUTHORIZED));
    return true;
  }
  const header = req.headers.authorization?.trim() ?? "";
  if (header === "") res.json(jsonResult(RETURN_CODES.SUCCESS, "`Authorization` can't be empty", false));
  else if (header.split(/\s+/).length < 2) res.json(jsonResult(RETURN_CODES.SUCCESS, "Please check your authorization format.", false));
  else res.json(jsonResult(RETURN_CODES.AUTHENTICATION_ERROR, "Authentication error: API key is invalid!", false));
  return true;
}

function reportError(route: RestRoute, res: Response, error: unknown): void {
  if (error instanceof DomainError) {
    const { code, message } = wordedError(route.errors, error);
    res.json(route.auth === "login" || route.auth === "loginOrShare" || route.jsonResultErrors ? jsonResult(code, message) : failure(code, message));
    return;
  }
  if (error instanceof PythonException) {
    res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, error.repr));
    return;
  }
  res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, unexpectedError(`rest ${route.method} ${route.path}`, error).message));
}

/**
 * The REST facade: one dispatcher over the registered routes, so that an unknown path and a known path
 * with the wrong method are answered as RAGFlow answers them, whichever module the route belongs to.
 */
export function createRestRouter(services: Services, routes: RestRoute[]): express.Router {
  const compiled = routes.map(compile);
  const router = express.Router();
  const json = express.json({ limit: "16mb", strict: false, type: ["application/json", "application/*+json"] });
  // Unparseable JSON reaches the dispatcher flagged, so that each route answers it its own way (§1.6 a and b).
  router.use((req, res, next) =>
    json(req, res, (error?: unknown) => {
      const restPath = REST_PREFIXES.some((prefix) => req.path.startsWith(prefix));
      if (!restPath || (error as { type?: string } | undefined)?.type !== "entity.parse.failed") return next(error);
      res.locals.malformedJson = true;
      next();
    }),
  );
  router.use(express.urlencoded({ extended: false, limit: "16mb" }));

  router.use(async (req, res, next) => {
    if (!REST_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next();
    // An empty id in a path ("/datasets//documents") collapses onto another route and is then a method mismatch (contract §1.10).
    const collapsed = req.path.replace(/\/{2,}/g, "/");
    const candidates = compiled.filter((c) => c.pattern.test(req.path));
    const found = candidates.find((c) => c.route.method === req.method);
    if (!found) {
      if (candidates.length > 0 || (collapsed !== req.path && compiled.some((c) => c.pattern.test(collapsed)))) {
        res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, METHOD_NOT_ALLOWED));
      } else {
        res.status(404).json({ code: RETURN_CODES.NOT_FOUND, message: `Not Found: ${req.path}`, data: null, error: "Not Found" });
      }
      return;
    }
    const { route } = found;
    const params = matchParams(found, req.path);
    if (!params) {
      res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, BAD_REQUEST));
      return;
    }
    try {
      const principal = await authenticate(services, route, req.headers.authorization);
      if (refuseAuthentication(route, req, res, principal)) return;
      if (res.locals.malformedJson && !route.rawBody) {
        res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, BAD_REQUEST));
        return;
      }
      // No text column can store U+0000: refused, in the route's own words for a bad argument, before anything runs.
      if (holdsNulCharacter(req.body) || holdsNulCharacter(req.query) || holdsNulCharacter(params)) throw new DomainError("BAD_REQUEST", "errors.nulCharacter");
      const result = await route.handle({
        services,
        req,
        res,
        params,
        query: Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)])),
        body: route.rawBody || req.is("multipart/form-data") ? {} : requestBody(req),
        principal,
      });
      if (result !== undefined && !res.headersSent) res.json(result);
    } catch (error) {
      if (!res.headersSent) reportError(route, res, error);
    }
  });

  // The body parsers reject a body before the dispatcher (unparseable, too large, an unknown charset); RAGFlow
  // answers those with code 100 (contract §1.6 b). Anything else here is unexpected.
  router.use((error: unknown, req: Request, res: Response, next: express.NextFunction) => {
    if (!REST_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next(error);
    const status = (error as { status?: number }).status;
    if (status === 413) res.status(413).json(jsonResult(413, "Request Entity Too Large"));
    else if (status !== undefined && status >= 400 && status < 500) res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, BAD_REQUEST));
    else res.json(jsonResult(RETURN_CODES.EXCEPTION_ERROR, unexpectedError(`rest ${req.method} ${req.path}`, error).message));
  });
  return router;
}
