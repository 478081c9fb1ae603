import { logMessage, type LogMessage } from "../parse-log";
import type { Block, ChunkDraft, ChunkMethod, TableBlock } from "../types";
import { columnNames, finishChunks, rowFields, rowText, splitLines } from "./blocks";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_PARAMS } from "./parser-params";

/**
 * "Table": one chunk per row, "column: value; column: value", with the row's cells as typed fields and
 * the sheet name or caption as title; a table without a header row gets "column 1", "column 2"… Text
 * files are read as tables when their lines split on tabs (or commas) into the same number of cells.
 */

/** Lines of a delimited text file as a table whose first line is the header. */
function tableFromLines(blocks: Block[]): TableBlock | undefined {
  const lines = splitLines(blocks)
    .filter((b) => b.kind === "paragraph")
    .map((b) => (b.kind === "paragraph" ? b.text : ""));
  if (lines.length < 2) return undefined;
  for (const separator of ["\t", ",", "，", ";"]) {
    const cells = lines.map((l) => l.split(separator).map((c) => c.trim()));
    const width = cells[0].length;
    if (width >= 2 && cells.filter((c) => c.length === width).length >= lines.length * 0.8) {
      return { kind: "table", header: cells[0], rows: cells.slice(1) };
    }
  }
  return undefined;
}

export function rowChunks(table: TableBlock, fallbackTitle?: string): ChunkDraft[] {
  const columns = columnNames(table);
  const title = table.caption?.trim() || fallbackTitle;
  return table.rows.flatMap((row) => {
    const fields = rowFields(columns, row);
    if (Object.keys(fields).length === 0) return [];
    return [{ text: rowText(fields), fields, title, positions: table.positions }];
  });
}

export const tableMethod: ChunkMethod = {
  name: "table",
  fileTypes: ["xlsx", "xls", "csv", "tsv", "txt"],
  params: ENRICHMENT_PARAMS,
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document, context) {
    let tables = document.blocks.filter((b): b is TableBlock => b.kind === "table");
    const notes: LogMessage[] = [];
    if (tables.length === 0) {
      const fromLines = tableFromLines(document.blocks);
      if (fromLines) tables = [fromLines];
      else notes.push(logMessage("parseLog.noTable"));
    }
    const fallback = document.title?.trim() || context.fileName.replace(/\.[^.]+$/, "");
    return { chunks: finishChunks(tables.flatMap((t) => rowChunks(t, fallback))), notes };
  },
};
