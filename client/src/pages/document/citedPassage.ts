/**
 * Where a cited chunk sits in a document's text. A chunk is the parsed text, not the bytes: whitespace is rejoined,
 * headings and list markers may be dropped and a title prepended, so the chunk is looked for whitespace- and
 * case-insensitively, first whole, then as its first and last passages of some length that the text contains.
 */

/** Shortest piece of a chunk trusted to locate it: shorter ones ("Note.", "1.") occur anywhere. */
const MIN_PIECE = 16;

interface Folded {
  text: string;
  /** Index in the original text of each folded character. */
  origin: number[];
}

function fold(text: string): Folded {
  let folded = "";
  const origin: number[] = [];
  let space = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (/\s/.test(char)) {
      space = folded.length > 0;
      continue;
    }
    if (space) {
      folded += " ";
      origin.push(index - 1);
      space = false;
    }
    const lower = char.toLowerCase();
    // Lower-casing never changes the length here, so that `origin` stays one entry per character.
    folded += lower.length === 1 ? lower : char;
    origin.push(index);
  }
  return { text: folded, origin };
}

/** The chunk's lines and sentences, trimmed of list markers and heading signs, long enough to be telling. */
function piecesOf(passage: string): string[] {
  return passage
    .split(/\n+|(?<=[.!?。！？])\s+/)
    .map((piece) => fold(piece.replace(/^\s*(?:[#>*+-]+|\d+[.)])\s+/, "")).text)
    .filter((piece) => piece.length >= MIN_PIECE);
}

/** [start, end) of the cited passage in `text`, or null when it cannot be placed there (e.g. the text is HTML source). */
export function locatePassage(text: string, passage: string): [number, number] | null {
  const haystack = fold(text);
  const span = (from: number, length: number): [number, number] => [haystack.origin[from], haystack.origin[from + length - 1] + 1];
  const whole = fold(passage).text;
  if (whole.length === 0) return null;
  const at = haystack.text.indexOf(whole);
  if (at >= 0) return span(at, whole.length);

  const pieces = piecesOf(passage);
  for (let first = 0; first < pieces.length; first++) {
    const start = haystack.text.indexOf(pieces[first]);
    if (start < 0) continue;
    let end = start + pieces[first].length;
    for (let last = pieces.length - 1; last > first; last--) {
      const found = haystack.text.indexOf(pieces[last], end);
      // The chunk's end, not a later repetition of its last sentence.
      if (found >= 0 && found + pieces[last].length - start <= 2 * whole.length) {
        end = found + pieces[last].length;
        break;
      }
    }
    return span(start, end - start);
  }
  return null;
}
