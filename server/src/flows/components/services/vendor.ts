import { DomainError } from "../../../platform/errors";
import { localizedMessage } from "../../../platform/messages";
import type { ComponentContext, ComponentOutput, OutputItem } from "../../component";
import { markdownLink, tableCell } from "../outside-service";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * What the data and translation components share besides the calls out (../outside-service.ts): reading a
 * vendor's JSON, and writing its records and lists as the text the model reads.
 */

/** The value at a path of keys and indexes in a vendor's JSON, or undefined where the path breaks. */
export const valueAt = (value: unknown, keys: readonly (string | number)[]): unknown =>
  keys.reduce<unknown>((node, key) => (Array.isArray(node) && typeof key === "number" ? node[key] : isPlainObject(node) ? node[key] : undefined), value);

/** A record as `key: value` lines, nested records flattened with dotted keys. */
export function keyValueLines(record: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(record).flatMap(([key, value]) =>
    isPlainObject(value) ? keyValueLines(value, `${prefix}${key}.`) : value === null || value === undefined || value === "" ? [] : [`${prefix}${key}: ${Array.isArray(value) ? value.map(tableCell).join(", ") : tableCell(value)}`],
  );
}

/** A text of the component in the runner's language (table headers, section titles). */
export function textIn(context: ComponentContext, key: string, params?: Record<string, unknown>): string {
  return localizedMessage(context.language, key, params);
}

/** A list output: the items, and as `content` each one's title and link above its text (RAGFlow's `<a href>` rows). */
export function listOutput(items: OutputItem[]): ComponentOutput {
  const text = (item: OutputItem) => [item.title ? markdownLink(item.title, item.url) : "", item.content].filter(Boolean).join("\n");
  return { content: items.map(text).join("\n\n"), items };
}

/** A vendor error we can explain, with a message key of the component's own. */
export function vendorFailure(messageKey: string, params: Record<string, unknown> = {}): DomainError {
  return new DomainError("OUTSIDE_SERVICE", messageKey, params);
}
