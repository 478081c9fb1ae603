/** One of several texts at random (RAGFlow's Message and Answer's `post_answers`). */
export function pickOne(texts: readonly string[]): string | undefined {
  return texts.length === 0 ? undefined : texts[Math.floor(Math.random() * texts.length)];
}

/** The non-blank strings of a list param. */
export function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "") : [];
}
