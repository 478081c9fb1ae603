import type { Block, HeadingBlock } from "../types";
import { splitLines } from "./blocks";

/**
 * Headings recognised by their numbering, for files whose parser found no headings (plain text, PDFs
 * without an outline): "Part II", "Chapter 3", "第三章", "Section 2", "第二节", "一、", "1.2 Title".
 */

const CN_NUM = "[一二三四五六七八九十百千零〇两壹贰叁肆伍陆柒捌玖拾佰\\d]+";
const ROMAN_OR_NUM = "(?:\\d+|[IVXLC]+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten)";

/** Patterns in order of rank: the first that matches gives the level. */
const HEADING_PATTERNS: { pattern: RegExp; level: (m: RegExpMatchArray) => number }[] = [
  { pattern: new RegExp(`^第${CN_NUM}[编篇部卷]`), level: () => 1 },
  { pattern: new RegExp(`^(?:part|book|volume)\\s+${ROMAN_OR_NUM}\\b`, "i"), level: () => 1 },
  { pattern: new RegExp(`^第${CN_NUM}章`), level: () => 2 },
  { pattern: new RegExp(`^(?:chapter|title)\\s+${ROMAN_OR_NUM}\\b`, "i"), level: () => 2 },
  { pattern: new RegExp(`^第${CN_NUM}节`), level: () => 3 },
  { pattern: new RegExp(`^(?:section|sec\\.)\\s+\\d+(?:\\.\\d+)*\\b`, "i"), level: () => 3 },
  // Below: numbering that also marks items inside a text, so only where no better structure exists.
  { pattern: /^[一二三四五六七八九十]+[、.．]\s*\S/, level: () => 3 },
  // "1 Introduction", "2.3 Results", "4.1.2. Setup": one level per number.
  { pattern: /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+[^\d\s]/, level: (m) => 3 + m[1].split(".").length },
];

/** A numbered line short enough to be a heading and not ending like a sentence. */
function looksLikeHeading(text: string): boolean {
  return text.length <= 80 && !/[。；;，,:：]$/.test(text) && !/[.!?]$/.test(text.replace(/\b(?:etc|No|Vol)\.$/, ""));
}

/** Patterns that name a division ("Chapter", "第二节"), as opposed to numbers that may as well number items. */
const NAMED_DIVISIONS = 6;

/**
 * The heading level a numbered line implies, or undefined. `namedOnly` keeps to named divisions
 * (laws: "1." and "一、" number the items of an article, not sections).
 */
export function headingLevel(text: string, options: { namedOnly?: boolean } = {}): number | undefined {
  const line = text.trim();
  if (!looksLikeHeading(line)) return undefined;
  const patterns = options.namedOnly ? HEADING_PATTERNS.slice(0, NAMED_DIVISIONS) : HEADING_PATTERNS;
  for (const { pattern, level } of patterns) {
    const match = line.match(pattern);
    if (match) return level(match);
  }
  return undefined;
}

/**
 * The blocks with numbered lines turned into headings — only when the parser gave no headings at all:
 * a parser's own headings are better evidence than numbering.
 */
export function withNumberedHeadings(blocks: Block[]): Block[] {
  if (blocks.some((b) => b.kind === "heading")) return blocks;
  return splitLines(blocks).map((block): Block => {
    if (block.kind !== "paragraph") return block;
    const level = headingLevel(block.text);
    return level === undefined ? block : ({ ...block, kind: "heading", level } satisfies HeadingBlock);
  });
}
