import { DomainError, messageForClient } from "../platform/errors";
import { localizedMessage, type Locale } from "../platform/messages";

/** A failure as the runner reads it: a DomainError in their language; anything else logged, with its reference only. */
export function failureText(error: unknown, locale: Locale, where: string): string {
  return error instanceof DomainError ? localizedMessage(locale, error.messageKey, error.params) : messageForClient(where, error);
}
