/** Small pieces of SQL shared by the services. */

/** bigint columns come back from `pg` as strings; counts and sizes fit a JS number. */
export const bigintAsNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/** `text` with LIKE's wildcards (and its escape character) escaped, to match literally inside a pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** PostgreSQL's text and jsonb cannot hold U+0000: it is stored as U+FFFD (the replacement character). */
export function storableText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

/**
 * JSON for a jsonb parameter, with U+0000 in any string (key or value) written as U+FFFD: JSON's escape \u0000, unlike
 * an escaped backslash followed by "u0000", is preceded by an even number of backslashes.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, "$1\uFFFD");
}

/** Whether any string of a request's input (a key or a value, at any depth) holds U+0000, which nothing can store. */
export function holdsNulCharacter(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (ArrayBuffer.isView(value)) return false; // bytes, not text
  if (Array.isArray(value)) return value.some(holdsNulCharacter);
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, inner]) => key.includes("\u0000") || holdsNulCharacter(inner));
  return false;
}

/** A GraphQL document that writes U+0000 in a string literal (`\u0000` or `\u{0}`, not an escaped backslash before "u0000"). */
export function graphqlWritesNulCharacter(document: string): boolean {
  return /(?<!\\)(?:\\\\)*\\u(?:0000|\{0+\})/.test(document);
}
