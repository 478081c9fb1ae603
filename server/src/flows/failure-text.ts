import { DomainError, unexpectedError } from "../platform/errors";
import { localizedMessage, type Locale } from "../platform/messages";

/** A failure as the runner reads it, in their language: a DomainError's message; anything else logged, with its reference only. */
export function failureText(error: unknown, locale: Locale, where: string): string {
  const domain = error instanceof DomainError ? error : unexpectedError(where, error);
  return localizedMessage(locale, domain.messageKey, domain.params);
}
