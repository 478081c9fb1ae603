/**
 * The references a component's params hold, for which the debug dialog asks a value (debugFlowComponent's `values`):
 * `{…}` placeholders in its texts and the `component_id`/`cpn_id` fields of its variables, as the server finds them
 * (server/src/flows/engine/references.ts, referencesIn). `{input}` is the default input, asked for on its own.
 */

const PLACEHOLDER = /\{([^{}\s]+)\}/g;
/** Deeper than any form nests; a bound on what a pasted value could hold. */
const MAX_DEPTH = 12;
const DEFAULT_INPUT = "input";

export function debugReferences(params: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, key: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === "string") {
      if (key === "component_id" || key === "cpn_id") {
        if (value) found.add(value);
      } else for (const match of value.matchAll(PLACEHOLDER)) found.add(match[1]);
    } else if (Array.isArray(value)) for (const item of value) visit(item, key, depth + 1);
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) visit(v, k, depth + 1);
  };
  visit(params, "", 0);
  found.delete(DEFAULT_INPUT);
  return [...found];
}
