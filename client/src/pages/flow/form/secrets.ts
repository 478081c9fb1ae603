/**
 * How the server shows a flow's secret params (server/src/flows/flow-secrets.ts): a set secret reads as the mask, and
 * the mask saved back keeps it; a secret that a file or a copy left out reads as "needed" until it is typed again.
 */
export const SECRET_MASK = "••••••••";
export const SECRET_NEEDED = "<secret needed>";

/** The widgets the form gives the params of type "secret": one line (a key, a password), or a text (an HTTP tool's headers). */
export const SECRET_WIDGET = "secret";
export const SECRET_TEXT_WIDGET = "secretText";

/** What the field holds while its user types: the stored secret is kept (the mask, or "needed") as long as nothing is typed. */
export function secretValue(typed: string, stored: unknown): string {
  if (typed !== "") return typed;
  return stored === SECRET_MASK || stored === SECRET_NEEDED ? stored : "";
}
