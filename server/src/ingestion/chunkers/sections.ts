import { countTokens } from "../../models/tokens";
import type { Block, ChunkContext, ChunkDraft, HeadingBlock } from "../types";
import { blockText, HeadingPath, PATH_SEPARATOR, tableTexts } from "./blocks";
import { chunkTokenLimit, mergePieces, parseDelimiters, splitOnDelimiters, type Delimiters, type Piece } from "./token-budget";

/** The two ways structured methods turn blocks into chunks: flowing text broken at headings, or one section at a time. */

export interface ChunkSettings {
  maxTokens: number;
  delimiters: Delimiters;
  html: boolean;
}

export function settingsOf(context: ChunkContext, maxTokens = chunkTokenLimit(context.config)): ChunkSettings {
  return { maxTokens, delimiters: parseDelimiters(context.config.delimiter), html: context.config.html4excel === true };
}

/** A chunk smaller than this may run on into the next section rather than stand alone. */
export function tinyTokens(maxTokens: number): number {
  return Math.min(48, Math.floor(maxTokens / 4));
}

function joinTitle(...parts: (string | undefined)[]): string | undefined {
  const kept = parts.map((p) => p?.trim()).filter((p): p is string => !!p);
  return kept.length > 0 ? kept.join(PATH_SEPARATOR) : undefined;
}

/**
 * Text in reading order, split on the delimiter and merged up to the budget. A heading closes the chunk
 * before it unless that chunk is still tiny (a lone heading or a line), so chunks keep to one section;
 * each chunk's title is the heading path of its first piece of body text. Tables become chunks of their
 * own, titled by the path and their caption; images give their OCR text.
 */
export function flowChunks(blocks: Block[], settings: ChunkSettings, baseTitle?: string): ChunkDraft[] {
  const path = new HeadingPath();
  const drafts: ChunkDraft[] = [];
  let run: Piece[] = [];
  let runTokens = 0;
  const flush = () => {
    for (const merged of mergePieces(run, settings.maxTokens)) {
      drafts.push({ text: merged.text, positions: merged.positions, title: joinTitle(baseTitle, merged.title) });
    }
    run = [];
    runTokens = 0;
  };
  for (const block of blocks) {
    if (block.kind === "heading") {
      if (runTokens >= tinyTokens(settings.maxTokens)) flush();
      path.enter(block);
      const text = block.text.trim();
      if (text === "") continue;
      run.push({ text, positions: block.positions, separator: "\n", title: path.title, heading: true });
      runTokens += countTokens(text);
    } else if (block.kind === "table") {
      flush();
      for (const text of tableTexts(block, { maxTokens: settings.maxTokens, html: settings.html, whole: false })) {
        drafts.push({ text, positions: block.positions, title: joinTitle(baseTitle, path.title, block.caption) });
      }
    } else {
      const text = blockText(block);
      if (text === "") continue;
      for (const piece of splitOnDelimiters(text, settings.delimiters)) {
        run.push({ ...piece, positions: block.positions, title: path.title });
        runTokens += countTokens(piece.text);
      }
    }
  }
  flush();
  return drafts;
}

export interface Section {
  /** Heading texts from the outermost to this section's own heading; [] before the first heading. */
  path: string[];
  heading?: HeadingBlock;
  /** The blocks under the heading, up to the next heading of any level. */
  blocks: Block[];
}

export function sectionsOf(blocks: Block[]): Section[] {
  const path = new HeadingPath();
  const sections: Section[] = [{ path: [], blocks: [] }];
  for (const block of blocks) {
    if (block.kind === "heading") {
      path.enter(block);
      sections.push({ path: path.path, heading: block, blocks: [] });
    } else sections[sections.length - 1].blocks.push(block);
  }
  return sections.filter((s) => s.heading || s.blocks.length > 0);
}

/**
 * One section at a time: every chunk starts with its section path on a line of its own (the budget
 * leaves room for it), tables are kept whole when `wholeTables`, and no chunk spans two sections.
 */
export function sectionChunks(section: Section, settings: ChunkSettings, options: { wholeTables: boolean; prefix?: string; title?: string }): ChunkDraft[] {
  const prefix = options.prefix ?? section.path.join(PATH_SEPARATOR);
  const title = options.title ?? (section.path.length > 0 ? section.path.join(PATH_SEPARATOR) : undefined);
  const withPrefix = (text: string) => (prefix ? `${prefix}\n${text}` : text);
  const budget = Math.max(16, settings.maxTokens - (prefix ? countTokens(prefix) + 1 : 0));
  const drafts: ChunkDraft[] = [];
  let run: Piece[] = [];
  const flush = () => {
    for (const merged of mergePieces(run, budget)) drafts.push({ text: withPrefix(merged.text), positions: merged.positions, title });
    run = [];
  };
  for (const block of section.blocks) {
    if (block.kind === "table") {
      flush();
      for (const text of tableTexts(block, { maxTokens: budget, html: settings.html, whole: options.wholeTables })) {
        drafts.push({ text: withPrefix(text), positions: block.positions, title: joinTitle(title, block.caption) });
      }
      continue;
    }
    const text = blockText(block);
    if (text === "") continue;
    for (const piece of splitOnDelimiters(text, settings.delimiters)) run.push({ ...piece, positions: block.positions });
  }
  flush();
  return drafts;
}
