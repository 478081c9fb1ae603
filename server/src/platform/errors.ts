import { randomUUID } from "node:crypto";
import { englishMessage } from "./messages";

/**
 * Every failure a user or client can cause is a DomainError of one kind. This table is the one place
 * that turns a kind into a GraphQL `extensions.code`, an HTTP status and a REST envelope code
 * (RAGFlow's return codes: 101 argument error, 102 data error, 108 permission, 109 authentication).
 */
export const ERROR_KINDS = {
  BAD_REQUEST: { graphqlCode: "BAD_USER_INPUT", httpStatus: 400, restCode: 101 },
  UNAUTHENTICATED: { graphqlCode: "UNAUTHENTICATED", httpStatus: 401, restCode: 109 },
  FORBIDDEN: { graphqlCode: "FORBIDDEN", httpStatus: 403, restCode: 108 },
  NOT_FOUND: { graphqlCode: "NOT_FOUND", httpStatus: 404, restCode: 102 },
  CONFLICT: { graphqlCode: "CONFLICT", httpStatus: 409, restCode: 102 },
  PAYLOAD_TOO_LARGE: { graphqlCode: "PAYLOAD_TOO_LARGE", httpStatus: 413, restCode: 101 },
  TOO_MANY_REQUESTS: { graphqlCode: "TOO_MANY_REQUESTS", httpStatus: 429, restCode: 102 },
  // A storage quota is used up (507, as WebDAV servers such as Nextcloud answer a full quota).
  INSUFFICIENT_STORAGE: { graphqlCode: "INSUFFICIENT_STORAGE", httpStatus: 507, restCode: 102 },
  // A GraphQL operation over its depth, alias or cost limit: refused before any of it runs.
  OVER_BUDGET: { graphqlCode: "QUERY_BUDGET_EXCEEDED", httpStatus: 400, restCode: 101 },
  // An operation that outlived its time limit; its answer is abandoned.
  TIMEOUT: { graphqlCode: "TIMEOUT", httpStatus: 503, restCode: 100 },
  // A model provider refused or failed a call: the user's configuration or the vendor is at fault, not Cairn.
  MODEL_PROVIDER: { graphqlCode: "MODEL_PROVIDER_ERROR", httpStatus: 502, restCode: 102 },
  // Another service a flow component calls (a search engine, a weather or translation API, a database) refused or
  // failed: the user's key, query or that service is at fault, not Cairn.
  OUTSIDE_SERVICE: { graphqlCode: "OUTSIDE_SERVICE_ERROR", httpStatus: 502, restCode: 102 },
  INTERNAL: { graphqlCode: "INTERNAL_SERVER_ERROR", httpStatus: 500, restCode: 100 },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** A problem with one input field, named by a message key of `locales/*.json`. */
export interface FieldProblem {
  field: string;
  messageKey: string;
  params?: Record<string, unknown>;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly messageKey: string,
    readonly params: Record<string, unknown> = {},
    readonly fields: FieldProblem[] = [],
  ) {
    super(englishMessage(messageKey, params));
    this.name = "DomainError";
  }

  get graphqlCode(): string {
    return ERROR_KINDS[this.kind].graphqlCode;
  }
  get httpStatus(): number {
    return ERROR_KINDS[this.kind].httpStatus;
  }
  get restCode(): number {
    return ERROR_KINDS[this.kind].restCode;
  }

  /** What GraphQL clients receive in `extensions`, next to the English message. */
  get extensions(): Record<string, unknown> {
    return {
      code: this.graphqlCode,
      httpStatus: this.httpStatus,
      messageKey: this.messageKey,
      params: this.params,
      fields: this.fields.map((f) => ({ ...f, message: englishMessage(f.messageKey, f.params) })),
    };
  }
}

export const Unauthenticated = (messageKey = "errors.unauthenticated") => new DomainError("UNAUTHENTICATED", messageKey);
export const Forbidden = (messageKey = "errors.forbidden") => new DomainError("FORBIDDEN", messageKey);
export const NotFound = (messageKey = "errors.notFound", params?: Record<string, unknown>) =>
  new DomainError("NOT_FOUND", messageKey, params);
export const Conflict = (messageKey: string, params?: Record<string, unknown>) => new DomainError("CONFLICT", messageKey, params);
export const TooManyRequests = (messageKey: string, params?: Record<string, unknown>) =>
  new DomainError("TOO_MANY_REQUESTS", messageKey, params);

export const OverBudget = (messageKey: string, params: Record<string, unknown>) => new DomainError("OVER_BUDGET", messageKey, params);

/**
 * An unexpected failure, logged here under a new reference; the client gets that reference only, never the
 * message, stack or path of the original (`bigint out of range`, a file name), which are the server's business.
 */
export function unexpectedError(where: string, error: unknown): DomainError {
  const reference = randomUUID();
  console.error(`[${where}] unexpected error (reference ${reference}):`, error);
  return new DomainError("INTERNAL", "errors.internal", { reference });
}

/** The text a client may read of any failure: a DomainError's own message; anything else is logged as unexpected. */
export function messageForClient(where: string, error: unknown): string {
  return error instanceof DomainError ? error.message : unexpectedError(where, error).message;
}

/** Invalid input: one error naming every bad field, so a form can show all its messages at once. */
export function Invalid(fields: FieldProblem[]): DomainError {
  const first = fields[0];
  return new DomainError("BAD_REQUEST", first?.messageKey ?? "errors.invalidInput", first?.params ?? {}, fields);
}

/** Gathers field problems while a service checks its input, then throws them together. */
export class FieldChecks {
  private readonly problems: FieldProblem[] = [];

  check(ok: boolean, field: string, messageKey: string, params?: Record<string, unknown>): this {
    if (!ok && !this.problems.some((p) => p.field === field)) this.problems.push({ field, messageKey, params });
    return this;
  }

  throwIfAny(): void {
    if (this.problems.length > 0) throw Invalid(this.problems);
  }
}
