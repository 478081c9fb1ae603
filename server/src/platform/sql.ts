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
