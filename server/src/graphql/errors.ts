import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { ArgumentValidationError } from "type-graphql";
import { DomainError, ERROR_KINDS, Invalid, type FieldProblem } from "../platform/errors";
import { englishMessage } from "../platform/messages";

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

/**
 * The one mapping from a failure to what GraphQL clients see (over HTTP and graphql-ws alike): a domain
 * error keeps its code, message key and fields; an unexpected error is logged and reported as a 500
 * without its internals.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  let original = unwrapResolverError(error);
  if (original instanceof ArgumentValidationError) original = fromValidation(original);
  if (original instanceof DomainError) {
    return { ...formatted, message: original.message, extensions: original.extensions };
  }
  const code = formatted.extensions?.code;
  if (typeof code === "string" && REQUEST_ERROR_CODES.has(code)) {
    return { ...formatted, extensions: { ...formatted.extensions, httpStatus: ERROR_KINDS.BAD_REQUEST.httpStatus } };
  }
  console.error("[graphql] unexpected error:", original);
  return {
    message: englishMessage("httpStatus.500"),
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: ERROR_KINDS.INTERNAL.graphqlCode, httpStatus: 500, messageKey: "httpStatus.500" },
  };
}

/** The same formatting for errors that graphql-ws sends, which do not pass through Apollo. */
export function formatExecutionErrors(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
  return errors.map((error) => formatGraphQLError(error.toJSON(), error));
}
