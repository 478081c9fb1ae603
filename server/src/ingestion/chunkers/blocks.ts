import { countTokens } from "../../models/tokens";
import type { Block, BlockPosition, ChunkDraft, HeadingBlock, TableBlock } from "../types";
import { joinPositions, mergePieces } from "./token-budget";

/** Helpers for reading blocks that several chunk methods share. */

export const PATH_SEPARATOR = " > ";

/** Column names of a table: its header, or "column 1", "column 2"… where a name is missing; repeated names numbered. */
export function columnNames(table: TableBlock): string[] {
  const width = table.rows.reduce((widest, row) => Math.max(widest, row.length), table.header.length);
  const seen = new Map<string, number>();
  return Array.from({ length: width }, (_, i) => {
    const base = (table.header[i] ?? "").trim() || `column ${i + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base} ${count}`;
  });
}

/** The non-empty cells of a row, by column name. */
export function rowFields(columns: string[], row: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  row.forEach((cell, i) => {
    const value = (cell ?? "").trim();
    if (value !== "") fields[columns[i] ?? `column ${i + 1}`] = value;
  });
  return fields;
}

/** "col: value; col: value" — RAGFlow's text form of a table row. */
export function rowText(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}`)
    .join("; ");
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Rows as an HTML table with its header repeated (RAGFlow's html4excel). */
export function tableHtml(table: TableBlock, rows: string[][]): string {
  const caption = table.caption ? `<caption>${escapeHtml(table.caption)}</caption>` : "";
  const header = table.header.length > 0 ? `<tr>${table.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>` : "";
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c ?? "")}</td>`).join("")}</tr>`).join("");
  return `<table>${caption}${header}${body}</table>`;
}

/**
 * A table as chunk texts: rows as "col: value" lines grouped up to the budget (or as HTML tables), each
 * group opened by the caption; `whole` keeps the table in one chunk whatever its size.
 */
export function tableTexts(table: TableBlock, options: { maxTokens: number; html: boolean; whole: boolean }): string[] {
  const rows = table.rows.filter((r) => r.some((c) => (c ?? "").trim() !== ""));
  if (rows.length === 0) return [];
  const caption = table.caption?.trim();
  if (options.html) {
    if (options.whole) return [tableHtml(table, rows)];
    // Row by row: the wrapper (caption, header) once per group, then each row's own tokens.
    const wrapperTokens = countTokens(tableHtml(table, []));
    const groups: string[][][] = [];
    let group: string[][] = [];
    let tokens = wrapperTokens;
    for (const row of rows) {
      const rowTokens = countTokens(tableHtml({ ...table, caption: undefined, header: [] }, [row])) - 4;
      if (group.length > 0 && tokens + rowTokens > options.maxTokens) {
        groups.push(group);
        group = [];
        tokens = wrapperTokens;
      }
      group.push(row);
      tokens += rowTokens;
    }
    if (group.length > 0) groups.push(group);
    return groups.map((g) => tableHtml(table, g));
  }
  const columns = columnNames(table);
  const texts = rows.map((r) =>
    table.header.length > 0
      ? rowText(rowFields(columns, r))
      : r
          .map((c) => (c ?? "").trim())
          .filter((c) => c !== "")
          .join("; "),
  );
  const prefix = caption ? `${caption}\n` : "";
  if (options.whole) return [prefix + texts.join("\n")];
  return mergePieces(
    texts.map((text) => ({ text, separator: "\n" })),
    Math.max(16, options.maxTokens - countTokens(prefix)),
  ).map((p) => prefix + p.text);
}

/** The text a block contributes to a chunk ("" for none). Tables are rendered by `tableTexts`. */
export function blockText(block: Block): string {
  switch (block.kind) {
    case "heading":
    case "paragraph":
    case "code":
    case "listItem":
      return block.text.trim();
    case "image":
      return [block.caption?.trim(), block.text.trim()].filter((t) => t).join("\n");
    case "table":
      return tableTexts(block, { maxTokens: Number.MAX_SAFE_INTEGER, html: false, whole: true }).join("\n");
    case "pageBreak":
      return "";
  }
}

/**
 * Paragraphs split into their lines: plain-text parsers may give a whole file as one paragraph, and
 * structure (numbered headings, articles, Q/A markers) is read line by line.
 */
export function splitLines(blocks: Block[]): Block[] {
  return blocks.flatMap((block) =>
    block.kind === "paragraph" && block.text.includes("\n")
      ? block.text
          .split(/\r?\n/)
          .filter((line) => line.trim() !== "")
          .map((line) => ({ ...block, text: line.trim() }))
      : [block],
  );
}

/** Keeps the open headings while blocks are read in order. */
export class HeadingPath {
  private stack: { level: number; text: string }[] = [];

  enter(heading: HeadingBlock): void {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].level >= heading.level) this.stack.pop();
    const text = heading.text.trim().replace(/\s+/g, " ");
    if (text !== "") this.stack.push({ level: heading.level, text });
  }

  get path(): string[] {
    return this.stack.map((h) => h.text);
  }

  get title(): string | undefined {
    return this.stack.length > 0 ? this.path.join(PATH_SEPARATOR) : undefined;
  }
}

/** Drafts as the pipeline wants them: text trimmed, empty ones dropped, unset fields left out. */
export function finishChunks(drafts: ChunkDraft[]): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  for (const draft of drafts) {
    const text = draft.text.trim();
    if (text === "") continue;
    const chunk: ChunkDraft = { text };
    if (draft.embeddingText?.trim()) chunk.embeddingText = draft.embeddingText.trim();
    if (draft.title?.trim()) chunk.title = draft.title.trim();
    if (draft.keywords?.length) chunk.keywords = draft.keywords.map((k) => k.trim()).filter((k) => k !== "");
    if (draft.questions?.length) chunk.questions = draft.questions.map((q) => q.trim()).filter((q) => q !== "");
    const positions = joinPositions(draft.positions);
    if (positions) chunk.positions = positions;
    if (draft.fields && Object.keys(draft.fields).length > 0) chunk.fields = draft.fields;
    if (draft.image) chunk.image = draft.image;
    out.push(chunk);
  }
  return out;
}

export function positionsOf(blocks: Block[]): BlockPosition[] | undefined {
  return joinPositions(...blocks.map((b) => b.positions));
}
