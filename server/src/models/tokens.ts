import type { Tiktoken } from "js-tiktoken/lite";

/**
 * Token counts with OpenAI's cl100k_base encoding: the unit chunk sizes, prompt budgets and the built-in
 * models' usage are measured in. The ranks (~1.7 MB) are loaded on first use (~0.7 s), not at start-up.
 *
 * Encoding is js-tiktoken's — its pre-tokenising pattern and its ranks — but the byte-pair merge is done
 * here: js-tiktoken rebuilds a string key for every pair on every merge, which is quadratic with a large
 * constant and made Chinese text (long runs without spaces) take ~4 ms per 500 characters. This merge
 * keeps each pair's rank and recomputes only the two pairs a merge changes, choosing the same pair
 * (lowest rank, leftmost) and so producing the same tokens (tokens.test.ts compares them).
 */

interface Encoding {
  tiktoken: Tiktoken;
  pattern: RegExp;
  ranks: Map<string, number>;
}

let encoding: Encoding | undefined;
const utf8 = new TextEncoder();

function cl100k(): Encoding {
  if (!encoding) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Tiktoken } = require("js-tiktoken/lite") as typeof import("js-tiktoken/lite");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ranks = require("js-tiktoken/ranks/cl100k_base") as ConstructorParameters<typeof Tiktoken>[0];
    const tiktoken = new Tiktoken(ranks);
    // js-tiktoken keeps its byte-sequence → rank table as `rankMap` (keys: the bytes joined by commas).
    const rankMap = (tiktoken as unknown as { rankMap: Map<string, number> }).rankMap;
    encoding = { tiktoken, pattern: new RegExp(ranks.pat_str, "gu"), ranks: rankMap };
  }
  return encoding;
}

function rankOf(ranks: Map<string, number>, bytes: Uint8Array, start: number, end: number): number | undefined {
  let key = String(bytes[start]);
  for (let i = start + 1; i < end; i++) key += `,${bytes[i]}`;
  return ranks.get(key);
}

/** Byte-pair encoding of one pre-token, appended to `out`. */
function bytePairEncode(bytes: Uint8Array, ranks: Map<string, number>, out: number[]): void {
  const whole = rankOf(ranks, bytes, 0, bytes.length);
  if (whole !== undefined) {
    out.push(whole);
    return;
  }
  // Parts are [starts[i], starts[i + 1]); pairRank[i] is the rank of parts i and i + 1 merged.
  const starts: number[] = Array.from({ length: bytes.length + 1 }, (_, i) => i);
  const pairRank: (number | undefined)[] = [];
  for (let i = 0; i + 2 < starts.length; i++) pairRank.push(rankOf(ranks, bytes, starts[i], starts[i + 2]));
  while (pairRank.length > 0) {
    let best = -1;
    for (let i = 0; i < pairRank.length; i++) {
      const rank = pairRank[i];
      if (rank !== undefined && (best < 0 || rank < pairRank[best]!)) best = i;
    }
    if (best < 0) break;
    starts.splice(best + 1, 1);
    pairRank.splice(best, 1);
    if (best < pairRank.length) pairRank[best] = rankOf(ranks, bytes, starts[best], starts[best + 2]);
    if (best > 0) pairRank[best - 1] = rankOf(ranks, bytes, starts[best - 1], starts[best + 1]);
  }
  for (let i = 0; i + 1 < starts.length; i++) {
    const rank = rankOf(ranks, bytes, starts[i], starts[i + 1]);
    if (rank !== undefined) out.push(rank);
  }
}

/** Tokens of pre-tokens already seen: words repeat, and their tokens never change. */
const pieces = new Map<string, number[]>();
const PIECE_MEMORY = 100_000;

/** The tokens of `text`; special-token text such as "<|endoftext|>" is encoded as ordinary text. */
export function encodeTokens(text: string): number[] {
  const { pattern, ranks } = cl100k();
  const out: number[] = [];
  for (const match of text.matchAll(pattern)) {
    let tokens = pieces.get(match[0]);
    if (!tokens) {
      tokens = [];
      bytePairEncode(utf8.encode(match[0]), ranks, tokens);
      if (pieces.size >= PIECE_MEMORY) pieces.clear();
      pieces.set(match[0], tokens);
    }
    for (const token of tokens) out.push(token);
  }
  return out;
}

export function countTokens(text: string): number {
  return text === "" ? 0 : encodeTokens(text).length;
}

export function decodeTokens(tokens: number[]): string {
  return cl100k().tiktoken.decode(tokens);
}

/** The longest start of `text` that fits in `maxTokens` tokens, cut on a token boundary. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = encodeTokens(text);
  return tokens.length <= maxTokens ? text : decodeTokens(tokens.slice(0, Math.max(0, maxTokens)));
}
