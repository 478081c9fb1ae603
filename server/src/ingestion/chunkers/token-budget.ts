import { countTokens, decodeTokens, encodeTokens } from "../../models/tokens";
import type { BlockPosition, ParserConfig } from "../types";

/**
 * Splitting text on the configured delimiter and merging the pieces back into chunks of at most
 * `chunk_token_num` tokens (cl100k_base, the unit chunk sizes are measured in).
 */

export const DEFAULT_CHUNK_TOKENS = 512;
export const DEFAULT_DELIMITER = "\n";

/** A piece of text with the boxes it came from. */
export interface Piece {
  text: string;
  positions?: BlockPosition[];
  /** What goes between this piece and the text before it in the same chunk. */
  separator?: string;
  /** The heading path the piece sits under; a merged chunk takes the title of its first piece that is not a heading. */
  title?: string;
  heading?: boolean;
}

export function chunkTokenLimit(config: ParserConfig, fallback = DEFAULT_CHUNK_TOKENS): number {
  const value = Number(config.chunk_token_num);
  return Number.isFinite(value) && value >= 8 ? Math.floor(value) : fallback;
}

/** RAGFlow stores "\\n" (backslash, n) as often as a real newline: both mean the character. */
function unescape(text: string): string {
  return text.replace(/\\([ntr\\])/g, (_, c: string) => ({ n: "\n", t: "\t", r: "\r", "\\": "\\" })[c]!);
}

export interface Delimiters {
  /** Matches one delimiter; null when there is none (no splitting). */
  pattern: RegExp | null;
}

/**
 * RAGFlow's reading of a delimiter setting: every character is a split point, and a backtick-quoted
 * run (`##`) is one multi-character delimiter. Longer delimiters are tried first.
 */
export function parseDelimiters(setting: string | undefined): Delimiters {
  const raw = unescape(setting ?? DEFAULT_DELIMITER);
  const found = new Set<string>();
  let rest = raw;
  for (const match of raw.matchAll(/`([^`]+)`/g)) found.add(match[1]);
  rest = raw.replace(/`([^`]+)`/g, "");
  for (const char of rest) found.add(char);
  const delimiters = [...found].filter((d) => d !== "").sort((a, b) => b.length - a.length);
  if (delimiters.length === 0) return { pattern: null };
  const escaped = delimiters.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { pattern: new RegExp(`(${escaped.join("|")})`, "g") };
}

/**
 * The pieces of one block's text. A one-character delimiter that is not white space (。 ! ;) stays at
 * the end of its piece, as punctuation does; white space and quoted multi-character delimiters (`##`) are
 * dropped and replaced by a newline when the pieces meet again in one chunk.
 */
export function splitOnDelimiters(text: string, delimiters: Delimiters): { text: string; separator: string }[] {
  if (!delimiters.pattern) return [{ text, separator: "\n" }];
  const parts = text.split(delimiters.pattern);
  const out: { text: string; separator: string }[] = [];
  let separator = "\n";
  for (let i = 0; i < parts.length; i += 2) {
    let piece = parts[i];
    const delimiter = parts[i + 1];
    const keep = delimiter !== undefined && delimiter.length === 1 && /\S/.test(delimiter);
    if (keep) piece += delimiter;
    if (piece.trim() !== "") out.push({ text: piece.trim(), separator });
    separator = keep ? (/[\u3000-\u303f\uff00-\uffef]/.test(delimiter!) ? "" : " ") : "\n";
  }
  return out;
}

/**
 * Cuts a text that alone exceeds the budget: on sentence ends when it can, else on the last space
 * before the limit, else on a token boundary (never inside a character).
 */
export function splitOversized(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= maxTokens) return [text];
  const sentences = text.match(/[^。！？；.!?;\n]+(?:[。！？；.!?;]+["”’)\]]?|\n+|$)\s*/g)?.filter((s) => s !== "") ?? [text];
  // The sentence pattern skips punctuation that opens a text ("…and so"); such a text is cut by tokens instead.
  if (sentences.length > 1 && sentences.join("") === text) {
    const merged = mergePieces(
      sentences.map((s) => ({ text: s.trim(), separator: /[\u3400-\u9fff]/.test(s) ? "" : " " })),
      maxTokens,
    );
    return merged.flatMap((p) => (countTokens(p.text) <= maxTokens ? [p.text] : hardCut(p.text, maxTokens)));
  }
  return hardCut(text, maxTokens);
}

/** Characters looked at for one cut: no token is longer, so the first `maxTokens` tokens of a text lie within them. */
const CHARACTERS_PER_TOKEN_AT_MOST = 32;

/** Linear in the text: each cut encodes only the window it is taken from (a 10 MB line took hours when each cut encoded the rest). */
function hardCut(text: string, maxTokens: number): string[] {
  const out: string[] = [];
  let rest = text;
  for (;;) {
    const window = rest.slice(0, maxTokens * CHARACTERS_PER_TOKEN_AT_MOST);
    const tokens = encodeTokens(window);
    if (tokens.length <= maxTokens && window.length === rest.length) break;
    let head = decodeTokens(tokens.slice(0, Math.max(1, maxTokens))).replace(/\uFFFD+$/, "");
    if (head === "" || !rest.startsWith(head)) head = rest.slice(0, Math.max(1, Math.floor(maxTokens / 2)));
    const space = head.search(/\s\S*$/);
    if (space > head.length / 2) head = head.slice(0, space);
    out.push(head.trim());
    rest = rest.slice(head.length).trimStart();
  }
  if (rest.trim() !== "") out.push(rest.trim());
  return out.filter((t) => t !== "");
}

/**
 * Greedy merge of consecutive pieces while the chunk stays within `maxTokens` (counted on the merged text,
 * separators included). A piece that alone is too long is cut first.
 */
export function mergePieces(pieces: Piece[], maxTokens: number): Piece[] {
  const out: Piece[] = [];
  let current: Piece | undefined;
  let currentTokens = 0;
  // Whether `currentTokens` was counted on the merged text since it came near the limit.
  let counted = false;
  const flush = () => {
    if (current && current.text.trim() !== "") out.push({ ...current, text: current.text.trim() });
    current = undefined;
    currentTokens = 0;
    counted = false;
  };
  for (const piece of pieces) {
    const parts = splitOversized(piece.text, maxTokens);
    parts.forEach((text, index) => {
      const separator = index === 0 ? (piece.separator ?? "\n") : /[\u3400-\u9fff]$/.test(parts[index - 1]) ? "" : " ";
      if (current) {
        const joined = current.text + separator + text;
        // Sums drift slightly (tokens can merge where pieces meet), so near the limit the joined text itself
        // is counted: once when the chunk comes near it, then only when the sum would pass it. Recounting the
        // chunk for every piece near the limit made a 2 MB line of tiny statements take 16 s.
        const estimate = currentTokens + countTokens(text) + 1;
        const near = estimate > maxTokens - Math.max(8, maxTokens / 10);
        const tokens = near && (!counted || estimate > maxTokens) ? countTokens(joined) : estimate;
        counted ||= near;
        if (tokens <= maxTokens) {
          current.text = joined;
          if (current.heading && !piece.heading) {
            current.title = piece.title;
            current.heading = false;
          }
          current.positions = joinPositions(current.positions, piece.positions);
          currentTokens = tokens;
          return;
        }
        flush();
      }
      current = { ...piece, text, positions: piece.positions ? [...piece.positions] : undefined };
      currentTokens = countTokens(text);
      counted = false;
    });
  }
  flush();
  return out;
}

/** Positions of several blocks, each box once, in order. */
export function joinPositions(...lists: (BlockPosition[] | undefined)[]): BlockPosition[] | undefined {
  const seen = new Set<string>();
  const out: BlockPosition[] = [];
  for (const list of lists) {
    for (const p of list ?? []) {
      const key = `${p.page}:${p.x0}:${p.x1}:${p.top}:${p.bottom}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(p);
    }
  }
  return out.length > 0 ? out : undefined;
}
