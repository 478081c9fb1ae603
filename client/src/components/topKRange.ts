import type { Problem } from "../errors";

/** Top-K's range as the server declares it (`retrievalParams`, read by useTopKRange); the client repeats no limit of its own. */
export interface TopKRange {
  /** Unknown until the server has answered; the server checks again on save. */
  min?: number;
  max?: number;
}

/** A whole number within the range, or the problem worded with `messageKey` (which takes {min, max}). */
export function topKProblem(text: string, range: TopKRange, messageKey: string): Problem | undefined {
  const n = Number(text);
  const ok = /^\d+$/.test(text.trim()) && (range.min === undefined || n >= range.min) && (range.max === undefined || n <= range.max);
  return ok ? undefined : { key: messageKey, params: { min: range.min, max: range.max } };
}
