import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { ArgumentValidationError } from "type-graphql";
import { DomainError, ERROR_KINDS, Invalid, unexpectedError, type FieldProblem } from "../platform/errors";

/** Codes graphql-js and Apollo raise for a malformed request; they are the client's fault and say so themselves. */
const REQUEST_ERROR_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "OPERATION_RESOLUTION_FAILURE",
  "BAD_REQUEST",
]);

function fromValidation(error: ArgumentValidationError): DomainError {
  const fields: FieldProblem[] = error.extensions.validationErrors.map((v) => ({
    field: v.property,
    messageKey: "errors.invalidField",
    params: { field: v.property },
  }));
  return Invalid(fields);
}

/** The DomainError behind a GraphQL error, however many layers (resolver, validation, Apollo) wrap it. */
function domainErrorOf(error: unknown): DomainError | null {
  let current: unknown = unwrapResolverError(error);
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof ArgumentValidationError) return fromValidation(current);
    if (current instanceof DomainError) return current;
    current = current instanceof GraphQLError ? current.originalError : undefined;
  }
  return null;
}

/**
 * The one mapping from a failure to what GraphQL clients see (over HTTP and graphql-ws alike): a domain
 * error keeps its code, message key and fields; a malformed request keeps graphql-js's message; anything
 * else is logged under a reference and reported as a translated internal error with that reference only.
 * Nothing else of the original error leaves the server: no stack trace, no path, no internal message.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const { message, locations, path } = formatted;
  const domain = domainErrorOf(error);
  if (domain) return { message: domain.message, locations, path, extensions: domain.extensions };
  const code = formatted.extensions?.code;
  if (typeof code === "string" && REQUEST_ERROR_CODES.has(code)) {
    return { message, locations, path, extensions: { code, httpStatus: ERROR_KINDS.BAD_REQUEST.httpStatus } };
  }
  const internal = unexpectedError("graphql", unwrapResolverError(error));
  return { message: internal.message, locations, path, extensions: internal.extensions };
}

/** The same formatting for errors that graphql-ws sends, which do not pass through Apollo. */
export function formatExecutionErrors(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
  return errors.map((error) => formatGraphQLError(error.toJSON(), error));
}
