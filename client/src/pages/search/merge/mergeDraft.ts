/** Chosen chunks' texts start the merged text one paragraph each, as the merge page first shows it. */
export function joinTexts(texts: string[]): string {
  return texts.map((text) => text.trim()).filter(Boolean).join("\n\n");
}

/** The list with the item at `index` moved by `delta` places (up when negative), unchanged at the ends. */
export function moved<T>(items: T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item);
  return next;
}
