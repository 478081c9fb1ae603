import { DomainError } from "../platform/errors";

/** The DomainError a call fails with, by its kind and message key; succeeding or failing otherwise fails the test. */
export async function refusal(call: Promise<unknown>): Promise<{ kind: string; messageKey: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, messageKey: error.messageKey };
    throw error;
  }
  throw new Error("expected a refusal");
}
