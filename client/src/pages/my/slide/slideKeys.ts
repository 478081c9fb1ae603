/**
 * The slide a key leads to, as presentation programs have it: → / Space / Page Down forward, ← / Shift+Space /
 * Page Up back, Home the first, End the last; null for any other key (the page leaves it alone).
 */
export function slideAfterKey(key: string, shift: boolean, index: number, count: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  switch (key) {
    case "ArrowRight":
    case "PageDown":
      return Math.min(index + 1, last);
    case " ":
      return shift ? Math.max(index - 1, 0) : Math.min(index + 1, last);
    case "ArrowLeft":
    case "PageUp":
      return Math.max(index - 1, 0);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}
