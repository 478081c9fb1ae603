/** Small pieces of SQL shared by the services. */

/** bigint columns come back from `pg` as strings; counts and sizes fit a JS number. */
export const bigintAsNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/** `text` with LIKE's wildcards (and its escape character) escaped, to match literally inside a pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
