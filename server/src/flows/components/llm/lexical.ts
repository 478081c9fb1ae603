import { tokenize } from "../../../models/builtin/text-analysis";

/**
 * The built-in extractive model writes nothing of its own (ChatModel.extractive), so the components that ask a
 * model to classify or grade a text decide lexically for it, as chat's question steps do: by the share of a
 * text's terms (stemmed, stop words left out) that another text holds.
 */

const termsOf = (text: string) => new Set(tokenize(text).map((t) => t.term));

/** The share of `text`'s terms that `other` holds (0 when `text` has none). */
export function termShare(text: string, other: string): number {
  const terms = [...termsOf(text)];
  if (terms.length === 0) return 0;
  const held = termsOf(other);
  return terms.filter((term) => held.has(term)).length / terms.length;
}
