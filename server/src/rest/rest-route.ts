import type { Request, Response } from "express";
import type { Principal, SignedIn } from "../policies/principal";
import type { Services } from "../platform/services";
import type { RestErrorTable } from "./error-table";

/**
 * How a route authenticates, RAGFlow's two ways:
 * - "apiKey": the service API (`/api/v1`), `Authorization: Bearer <API key>`, failures answered in the envelope with HTTP 200;
 * - "login": the web API (`/v1`), a session token (bare or Bearer) or an API key; failures are HTTP 401;
 * - "loginOrShare": as "login", or the share token of a shared assistant (the share page's own calls);
 *   the handler scopes a share principal to its assistant;
 * - "none": open.
 */
export type RestAuth = "apiKey" | "login" | "loginOrShare" | "none";

export interface RestContext {
  services: Services;
  req: Request;
  res: Response;
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  principal: Principal;
}

export interface AuthenticatedRestContext extends RestContext {
  principal: SignedIn;
}

/**
 * One REST endpoint. A handler returns the JSON body to send with HTTP 200, or answers on `res`
 * itself (headers, streams) and returns undefined.
 */
export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Express-style path with `:name` parameters, e.g. `/api/v1/datasets/:datasetId`. */
  path: string;
  auth: RestAuth;
  /**
   * The handler reads `req` itself instead of the loose body rules (§1.6 b): RAGFlow's schema-validated
   * dataset endpoints (§1.6 a) and multipart uploads. `res.locals.malformedJson` tells it the JSON did not parse.
   */
  rawBody?: boolean;
  /** RAGFlow's words for the DomainErrors that escape the handler; keys it does not name answer in English. */
  errors?: RestErrorTable;
  /**
   * Refusals of an API-key route in `json_result` (code, message and data: null), as RAGFlow's file manager answers
   * (contract §12), instead of the service API's usual `{code, message}`. Login routes always answer so.
   */
  jsonResultErrors?: boolean;
  handle(context: RestContext): Promise<unknown>;
}

/** A route that needs a signed-in principal; the router has checked it before the handler runs. */
export function authenticatedRoute(
  method: RestRoute["method"],
  path: string,
  auth: Exclude<RestAuth, "none" | "loginOrShare">,
  handle: (context: AuthenticatedRestContext) => Promise<unknown>,
  errors?: RestErrorTable,
): RestRoute {
  return { method, path, auth, errors, handle: (context) => handle(context as AuthenticatedRestContext) };
}

export function openRoute(method: RestRoute["method"], path: string, handle: (context: RestContext) => Promise<unknown>): RestRoute {
  return { method, path, auth: "none", handle };
}
