import { CombinedGraphQLErrors, ServerError, ServerParseError } from "@apollo/client";
import type { GraphQLFormattedError } from "graphql";
import type { i18n as I18n } from "i18next";

/** The `extensions` the server puts on every GraphQL error it raises on purpose. */
interface FieldProblem {
  field: string;
  messageKey?: string;
  params?: Record<string, unknown>;
  message?: string;
}

interface CairnErrorExtensions {
  code?: string;
  httpStatus?: number;
  messageKey?: string;
  params?: Record<string, unknown>;
  fields?: FieldProblem[];
}

function extensionsOf(error: GraphQLFormattedError): CairnErrorExtensions {
  return (error.extensions ?? {}) as CairnErrorExtensions;
}

function translateKey(i18n: I18n, key: string | undefined, params: Record<string, unknown> = {}): string | null {
  if (!key || !i18n.exists(key)) return null;
  return i18n.t(key, params);
}

function catalogueText(i18n: I18n, httpStatus: number | undefined): string | null {
  return httpStatus ? translateKey(i18n, `httpStatus.${httpStatus}`) : null;
}

/** No answer reached us at all: the network, not the server, failed. */
export function isNetworkFailure(error: unknown): boolean {
  return !CombinedGraphQLErrors.is(error) && !ServerError.is(error) && !ServerParseError.is(error);
}

/**
 * The sentence to show the user for a failed request, in their language: the server's message key,
 * else the §8 catalogue text of the HTTP status, else the network-anomaly message.
 */
export function describeError(error: unknown, i18n: I18n): string {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const extensions = first ? extensionsOf(first) : {};
    return (
      translateKey(i18n, extensions.messageKey, extensions.params) ??
      catalogueText(i18n, extensions.httpStatus) ??
      i18n.t("errors.requestError")
    );
  }
  if (ServerError.is(error)) return catalogueText(i18n, error.statusCode) ?? i18n.t("errors.requestError");
  if (ServerParseError.is(error)) return catalogueText(i18n, error.statusCode) ?? i18n.t("errors.requestError");
  return i18n.t("errors.networkAnomaly");
}

/**
 * A problem with one form field, kept as a message key (not as text) so that it follows a change of
 * language while it is shown. `text` is the server's English sentence for a key the client lacks.
 */
export interface Problem {
  key: string;
  params?: Record<string, unknown>;
  text?: string;
}

export type FieldProblems = Partial<Record<string, Problem>>;

export function problemText(i18n: I18n, problem: Problem | undefined): string | undefined {
  if (!problem) return undefined;
  return translateKey(i18n, problem.key, problem.params) ?? problem.text ?? i18n.t("errors.invalidInput");
}

/** The server's per-field problems, keyed by input field name, for showing under each form field. */
export function fieldProblemsOf(error: unknown): FieldProblems {
  if (!CombinedGraphQLErrors.is(error)) return {};
  const problems: FieldProblems = {};
  for (const graphQLError of error.errors) {
    for (const problem of extensionsOf(graphQLError).fields ?? []) {
      problems[problem.field] ??= { key: problem.messageKey ?? "errors.invalidInput", params: problem.params, text: problem.message };
    }
  }
  return problems;
}

/** The message key of a failure, e.g. to place a field-less error such as "email taken" under its field. */
export function messageKeyOf(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0];
  return first ? extensionsOf(first).messageKey : undefined;
}

export function messageParamsOf(error: unknown): Record<string, unknown> | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0];
  return first ? extensionsOf(first).params : undefined;
}

/** True when no field problem is recorded, i.e. a form may be submitted. */
export function hasNoProblems(problems: FieldProblems): boolean {
  return Object.values(problems).every((problem) => problem === undefined);
}

export function errorCodeOf(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0];
  return first ? extensionsOf(first).code : undefined;
}
